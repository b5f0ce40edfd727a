import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver';
import { CitegraphError, ErrorCode } from '../errors';
import type { Neo4jSettings } from '../config/settings';
import { requestScope } from '../request-context';
import type { CompiledQuery } from './query-registry';
import { embeddedBoltUri } from './embedded-uri';

export type Row = Record<string, unknown>;

/** Runs compiled queries inside one transaction; given to `GraphExecutor.writeTransaction` callbacks. */
export interface TransactionRunner {
  run<T extends object = Row>(query: CompiledQuery): Promise<T[]>;
}

/** The only module that talks to the Neo4j driver: sessions, transactions, metadata and error mapping. */
export class GraphExecutor {
  readonly uri: string;
  /** Statements this executor has sent, for tests and diagnostics (how many queries a request costs). */
  statementsRun = 0;
  private readonly driver: Driver;
  private readonly database: string;
  private readonly readTimeoutMs: number;
  /**
   * Set while health probes find the database not answering (closed, or hung: a stopped process still accepts TCP
   * connections): new work fails at once with DATABASE_UNAVAILABLE, and work already waiting on it is failed too,
   * instead of every request hanging until its deadline.
   */
  private outage: { reason: string } | null = null;

  constructor(
    private readonly settings: Neo4jSettings,
    driver?: Driver,
  ) {
    this.uri = settings.uri ?? embeddedBoltUri(settings);
    this.database = settings.database;
    this.readTimeoutMs = settings.readTimeoutMs;
    this.driver =
      driver ??
      neo4j.driver(this.uri, neo4j.auth.basic(settings.user, settings.password), {
        disableLosslessIntegers: true,
        maxConnectionPoolSize: settings.maxPoolSize,
        // An unreachable database fails a request within seconds instead of half a minute; the driver reconnects
        // by itself when the database is back.
        connectionAcquisitionTimeout: settings.acquireTimeoutMs,
        connectionTimeout: Math.min(settings.acquireTimeoutMs, 1500),
        maxTransactionRetryTime: settings.retryTimeMs,
        userAgent: 'citegraph/0.1',
      });
  }

  /** Whether the last health probe found the database answering (see `outage`). */
  get available(): boolean {
    return this.outage === null;
  }

  /**
   * Asks whether the database answers now (the health monitor's probe, one at a time and bounded by its timeout).
   * While an outage is declared each new unit of work asks first: it fails within the probe's timeout while the
   * database is down, and goes through at once when it is back, without waiting for the next scheduled probe.
   */
  recheck: (() => Promise<boolean>) | null = null;

  /** What the health probe found: work fails fast while the database does not answer. */
  setAvailability(available: boolean, reason = 'the database does not answer'): void {
    if (available) {
      this.outage = null;
      return;
    }
    if (this.outage) return;
    this.outage = { reason };
    for (const fail of [...this.outageWaiters]) fail();
    this.outageWaiters.clear();
  }

  /**
   * Whether the database answers, as a health probe asks it: a new connection (TCP, Bolt handshake, authentication)
   * must be answered within `timeoutMs` — a stopped or hung server accepts the TCP connection and then says nothing,
   * while a merely loaded one answers a handshake at once — and then `query` runs, given twice as long. Returns its
   * rows, or null when only the query was slow (a busy database is not a dead one); throws when the connection is
   * not answered or the query fails. A driver of its own each time: never queued behind requests, never stuck on a
   * connection a hung server holds. The outage gate does not apply.
   */
  async probe<T extends object = Row>(query: CompiledQuery, timeoutMs: number): Promise<T[] | null> {
    const driver = neo4j.driver(this.uri, neo4j.auth.basic(this.settings.user, this.settings.password), {
      disableLosslessIntegers: true,
      maxConnectionPoolSize: 1,
      connectionAcquisitionTimeout: timeoutMs,
      connectionTimeout: timeoutMs,
      userAgent: 'citegraph-probe/0.1',
    });
    try {
      await within(driver.getServerInfo({ database: this.database }), timeoutMs);
      const session = driver.session({ database: this.database, defaultAccessMode: neo4j.session.READ });
      try {
        const result = await within(
          session.executeRead((tx) => tx.run(query.text, toCypherParams(query.params)), { timeout: 2 * timeoutMs }),
          2 * timeoutMs,
        );
        return result.records.map((record) => record.toObject() as T);
      } catch (error) {
        if (error instanceof ProbeTimeout) return null;
        throw error;
      } finally {
        // A hung server may never answer the close either.
        void session.close().catch(() => undefined);
      }
    } finally {
      void driver.close().catch(() => undefined);
    }
  }

  async verifyConnectivity(): Promise<void> {
    try {
      await this.driver.verifyConnectivity({ database: this.database });
    } catch (error) {
      throw mapDriverError(error);
    }
  }

  async read<T extends object = Row>(query: CompiledQuery): Promise<T[]> {
    return this.withSession('READ', (session, timeout) =>
      session.executeRead((tx) => this.runIn<T>(tx, query), {
        metadata: { app: 'citegraph', query: query.name },
        ...timeout,
      }),
    );
  }

  async write<T extends object = Row>(query: CompiledQuery): Promise<T[]> {
    return this.withSession('WRITE', (session, timeout) =>
      session.executeWrite((tx) => this.runIn<T>(tx, query), {
        metadata: { app: 'citegraph', query: query.name },
        ...timeout,
      }),
    );
  }

  /** Runs several queries in one write transaction: all of them are committed or none. */
  async writeTransaction<R>(label: string, work: (tx: TransactionRunner) => Promise<R>): Promise<R> {
    return this.withSession('WRITE', (session, timeout) =>
      session.executeWrite((tx) => work({ run: (query) => this.runIn(tx, query) }), {
        metadata: { app: 'citegraph', unit: label },
        ...timeout,
      }),
    );
  }

  /** Runs a statement outside an explicit transaction (schema changes, CALL … IN TRANSACTIONS). */
  async autoCommit<T extends object = Row>(
    query: CompiledQuery | { name: string; text: string; params?: Row },
  ): Promise<T[]> {
    return this.withSession('WRITE', async (session) => {
      this.statementsRun += 1;
      const result = await session.run(query.text, toCypherParams(query.params ?? {}));
      return result.records.map((record) => record.toObject() as T);
    });
  }

  /** EXPLAIN a query: checks it parses and plans against this server without running it. */
  async explain(query: CompiledQuery): Promise<void> {
    await this.withSession('READ', (session) =>
      session.run(`EXPLAIN ${query.text}`, toCypherParams(query.params) as Record<string, unknown>),
    );
  }

  async close(): Promise<void> {
    await this.driver.close();
  }

  /** The work's result, or DATABASE_UNAVAILABLE as soon as the health probe declares an outage. */
  private unlessOutage<R>(work: Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const onOutage = () => reject(unavailable(this.outage?.reason ?? 'the database does not answer'));
      // Called by setAvailability when an outage begins while this work waits on the database.
      this.outageWaiters.add(onOutage);
      work.then(
        (value) => {
          this.outageWaiters.delete(onOutage);
          resolve(value);
        },
        (error: unknown) => {
          this.outageWaiters.delete(onOutage);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  private readonly outageWaiters = new Set<() => void>();

  private async runIn<T extends object>(tx: ManagedTransaction, query: CompiledQuery): Promise<T[]> {
    this.statementsRun += 1;
    const result = await tx.run(query.text, toCypherParams(query.params));
    return result.records.map((record) => record.toObject() as T);
  }

  /**
   * Opens a session for one unit of work. Inside a request (see `requestScope`) the transaction ends with the
   * request's deadline, and the request holds at most its share of the pool's connections; outside one (commands,
   * benchmarks) reads end after `readTimeoutMs` and writes run to the end.
   */
  private async withSession<R>(
    mode: 'READ' | 'WRITE',
    work: (session: Session, timeout: { timeout?: number }) => Promise<R>,
  ): Promise<R> {
    if (this.outage && !(await this.recheck?.().catch(() => false))) {
      throw unavailable(this.outage?.reason ?? 'the database does not answer');
    }
    const scope = requestScope.getStore();
    let timeout: { timeout?: number } = mode === 'READ' ? { timeout: this.readTimeoutMs } : {};
    let release: (() => void) | undefined;
    if (scope) {
      if (scope.deadline.expired) throw deadlineExceeded();
      try {
        release = await scope.connections.acquire(scope.deadline.signal);
      } catch {
        throw deadlineExceeded();
      }
      const remaining = scope.deadline.remainingMs();
      if (Number.isFinite(remaining)) timeout = { timeout: Math.max(1, Math.ceil(remaining)) };
    }
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
    });
    try {
      return await this.unlessOutage(work(session, timeout));
    } catch (error) {
      throw scope?.deadline.expired ? deadlineExceeded(error) : mapDriverError(error);
    } finally {
      release?.();
      // A hung database would hold the close (and so the answer) until it wakes: during an outage it closes behind.
      if (this.outage) void session.close().catch(() => undefined);
      else await session.close();
    }
  }
}

/** A probe step that got no answer in time. */
class ProbeTimeout extends Error {}

/** The work's result, or a ProbeTimeout after `ms`. */
async function within<R>(work: Promise<R>, ms: number): Promise<R> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new ProbeTimeout(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(reason: string): CitegraphError {
  return new CitegraphError(ErrorCode.DATABASE_UNAVAILABLE, `Neo4j is not reachable: ${reason}`, {
    retryable: true,
    details: { retryAfterSeconds: 2 },
  });
}

/**
 * JavaScript numbers travel as floats; Cypher wants integers for LIMIT, years and counts. Whole numbers become
 * Neo4j integers, except inside numeric arrays (embedding vectors stay floats).
 */
export function toCypherParams(value: unknown): unknown {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? neo4j.int(value) : value;
  if (Array.isArray(value)) {
    if (value.length > 0 && value.every((item) => typeof item === 'number')) return value;
    return value.map(toCypherParams);
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, toCypherParams(inner)]));
  }
  return value;
}

function deadlineExceeded(cause?: unknown): CitegraphError {
  return new CitegraphError(
    ErrorCode.DEADLINE_EXCEEDED,
    "the request's deadline passed; its database work was stopped",
    {
      retryable: true,
      cause,
    },
  );
}

/** Maps a driver error to a domain error with a code and a retryable flag. */
export function mapDriverError(error: unknown): CitegraphError {
  if (error instanceof CitegraphError) return error;
  const err = error as { code?: string; message?: string; retriable?: boolean };
  const code = err.code ?? '';
  const message = err.message ?? String(error);
  if (
    code === 'ServiceUnavailable' ||
    code === 'SessionExpired' ||
    /ECONNREFUSED|Could not perform discovery/i.test(message)
  ) {
    return new CitegraphError(ErrorCode.DATABASE_UNAVAILABLE, `Neo4j is not reachable: ${message}`, {
      retryable: true,
      cause: error,
    });
  }
  if (
    /^Neo\.ClientError\.Transaction\.TransactionTimedOut/.test(code) ||
    code === 'Neo.TransientError.Transaction.Terminated'
  ) {
    return deadlineExceeded(error);
  }
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
    return new CitegraphError(ErrorCode.CONSTRAINT_VIOLATION, message, { cause: error });
  }
  if (code.startsWith('Neo.TransientError')) {
    return new CitegraphError(ErrorCode.DATABASE_ERROR, message, { retryable: true, cause: error });
  }
  return new CitegraphError(ErrorCode.DATABASE_ERROR, message, { retryable: Boolean(err.retriable), cause: error });
}
