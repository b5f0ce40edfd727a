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

  constructor(settings: Neo4jSettings, driver?: Driver) {
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
      return await work(session, timeout);
    } catch (error) {
      throw scope?.deadline.expired ? deadlineExceeded(error) : mapDriverError(error);
    } finally {
      release?.();
      await session.close();
    }
  }
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
