/** Every error code citegraph reports; GraphQL clients see it as `extensions.code`. */
export enum ErrorCode {
  BAD_USER_INPUT = 'BAD_USER_INPUT',
  NOT_FOUND = 'NOT_FOUND',
  DATABASE_UNAVAILABLE = 'DATABASE_UNAVAILABLE',
  DATABASE_ERROR = 'DATABASE_ERROR',
  CONSTRAINT_VIOLATION = 'CONSTRAINT_VIOLATION',
  QUERY_REGISTRY = 'QUERY_REGISTRY',
  MODEL_UNAVAILABLE = 'MODEL_UNAVAILABLE',
  INGEST_INPUT = 'INGEST_INPUT',
  EXTERNAL_HTTP = 'EXTERNAL_HTTP',
  EXTERNAL_TIMEOUT = 'EXTERNAL_TIMEOUT',
  /** The provider's host does not resolve: this machine is offline, or the base URL is wrong. */
  EXTERNAL_UNREACHABLE = 'EXTERNAL_UNREACHABLE',
  EXTERNAL_RATE_LIMITED = 'EXTERNAL_RATE_LIMITED',
  EXTERNAL_BAD_RESPONSE = 'EXTERNAL_BAD_RESPONSE',
  LLM_ERROR = 'LLM_ERROR',
  /** The query's depth, aliases, tokens or estimated cost are over the limits (settings); nothing ran. */
  QUERY_TOO_COMPLEX = 'QUERY_TOO_COMPLEX',
  /** Too many heavy operations are running or waiting; try again after `retryAfterSeconds`. */
  OVERLOADED = 'OVERLOADED',
  /** The request's deadline passed; its work was stopped. */
  DEADLINE_EXCEEDED = 'DEADLINE_EXCEEDED',
  /** No API key, or one the server does not know. */
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  /** The key lacks the scope the operation needs (write for mutations). */
  FORBIDDEN = 'FORBIDDEN',
  /** The key (or address) sent more requests than its rate limit allows. */
  RATE_LIMITED = 'RATE_LIMITED',
  /** The HTTP request itself is malformed: not JSON, too large, wrong method or content type. */
  BAD_REQUEST = 'BAD_REQUEST',
  /** The client went away (or cancelled) before the work finished; nothing of it was kept. */
  CANCELLED = 'CANCELLED',
  INTERNAL = 'INTERNAL',
}

/** A domain error: a code for clients, and whether trying again may succeed. */
export class CitegraphError extends Error {
  override readonly name: string = 'CitegraphError';
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: { retryable?: boolean; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
  }
}

export function badInput(message: string, details?: Record<string, unknown>): CitegraphError {
  return new CitegraphError(ErrorCode.BAD_USER_INPUT, message, details === undefined ? {} : { details });
}
