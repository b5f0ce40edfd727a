import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { CitegraphError, ErrorCode } from '../errors';

/** Longest error message a client gets: a message may quote input, never much of it. */
export const MAX_ERROR_MESSAGE = 300;

/** Error details a client may see (the rest of `details` is for logs); `unknown`: the names a filter gave that the graph lacks, with the closest known. */
const PUBLIC_DETAILS = ['argument', 'retryAfterSeconds', 'unknown'] as const;

/** Codes whose messages carry internal text (driver messages, exceptions): replaced unless debugging. */
export const HIDDEN: Record<string, string> = {
  [ErrorCode.INTERNAL]: 'Internal server error',
  [ErrorCode.DATABASE_ERROR]: 'The database could not answer this request',
  [ErrorCode.DATABASE_UNAVAILABLE]: 'The database is not reachable; try again shortly',
  [ErrorCode.QUERY_REGISTRY]: 'Internal server error',
  [ErrorCode.MODEL_UNAVAILABLE]: 'The embedding model is not available',
};

export function clip(message: string, max = MAX_ERROR_MESSAGE): string {
  return message.length <= max ? message : `${message.slice(0, max - 1)}…`;
}

/**
 * One place decides what clients see of an error: domain errors keep their code, `retryable` and public details;
 * over-limit queries are QUERY_TOO_COMPLEX with their cost and limit; internal text (driver messages, stack traces,
 * paths) stays out unless `debug`; every message is cut to MAX_ERROR_MESSAGE characters.
 */
export function makeFormatError(debug: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const { stacktrace, ...extensions } = formatted.extensions ?? {};
    const base = {
      ...(formatted.locations ? { locations: formatted.locations } : {}),
      ...(formatted.path ? { path: formatted.path } : {}),
    };
    const debugExtensions = debug && stacktrace ? { stacktrace } : {};
    if (original instanceof CitegraphError) {
      const details = Object.fromEntries(
        PUBLIC_DETAILS.filter((key) => original.details?.[key] !== undefined).map((key) => [
          key,
          original.details![key],
        ]),
      );
      const message = !debug && HIDDEN[original.code] ? HIDDEN[original.code]! : original.message;
      return {
        ...base,
        message: clip(message),
        extensions: { code: original.code, retryable: original.retryable, ...details, ...debugExtensions },
      };
    }
    // Limit rules report through Apollo's validation error; their own error rides along as the original.
    const inner = error instanceof GraphQLError ? error.originalError : undefined;
    const innerCode = inner instanceof GraphQLError ? inner.extensions?.code : undefined;
    if (innerCode === ErrorCode.QUERY_TOO_COMPLEX || extensions.code === ErrorCode.QUERY_TOO_COMPLEX) {
      const { http: _http, ...rest } = (inner instanceof GraphQLError ? inner.extensions : extensions) as Record<
        string,
        unknown
      >;
      return { ...base, message: clip(formatted.message), extensions: { ...rest, code: ErrorCode.QUERY_TOO_COMPLEX } };
    }
    if (extensions.code === 'GRAPHQL_PARSE_FAILED' && /more th\w+ \d+ tokens/.test(formatted.message)) {
      return { ...base, message: clip(formatted.message), extensions: { code: ErrorCode.QUERY_TOO_COMPLEX } };
    }
    const code = typeof extensions.code === 'string' ? extensions.code : undefined;
    if (code && code !== 'INTERNAL_SERVER_ERROR') {
      return { ...base, message: clip(formatted.message), extensions: { ...extensions, ...debugExtensions } };
    }
    return {
      ...base,
      message: debug ? clip(formatted.message) : 'Internal server error',
      extensions: { code: ErrorCode.INTERNAL, ...debugExtensions },
    };
  };
}
