import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver';
import { CitegraphError, ErrorCode } from '../errors';
import type { Neo4jSettings } from '../config/settings';
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

  constructor(settings: Neo4jSettings, driver?: Driver) {
    this.uri = settings.uri ?? embeddedBoltUri(settings);
    this.database = settings.database;
    this.driver =
      driver ??
      neo4j.driver(this.uri, neo4j.auth.basic(settings.user, settings.password), {
        disableLosslessIntegers: true,
        maxConnectionPoolSize: 50,
        connectionAcquisitionTimeout: 60_000,
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
    return this.withSession('READ', (session) =>
      session.executeRead((tx) => this.runIn<T>(tx, query), { metadata: { app: 'citegraph', query: query.name } }),
    );
  }

  async write<T extends object = Row>(query: CompiledQuery): Promise<T[]> {
    return this.withSession('WRITE', (session) =>
      session.executeWrite((tx) => this.runIn<T>(tx, query), { metadata: { app: 'citegraph', query: query.name } }),
    );
  }

  /** Runs several queries in one write transaction: all of them are committed or none. */
  async writeTransaction<R>(label: string, work: (tx: TransactionRunner) => Promise<R>): Promise<R> {
    return this.withSession('WRITE', (session) =>
      session.executeWrite((tx) => work({ run: (query) => this.runIn(tx, query) }), {
        metadata: { app: 'citegraph', unit: label },
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

  private async withSession<R>(mode: 'READ' | 'WRITE', work: (session: Session) => Promise<R>): Promise<R> {
    const session = this.driver.session({
      database: this.database,
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
    });
    try {
      return await work(session);
    } catch (error) {
      throw mapDriverError(error);
    } finally {
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
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
    return new CitegraphError(ErrorCode.CONSTRAINT_VIOLATION, message, { cause: error });
  }
  if (code.startsWith('Neo.TransientError')) {
    return new CitegraphError(ErrorCode.DATABASE_ERROR, message, { retryable: true, cause: error });
  }
  return new CitegraphError(ErrorCode.DATABASE_ERROR, message, { retryable: Boolean(err.retriable), cause: error });
}
