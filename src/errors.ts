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
