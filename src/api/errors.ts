import type { GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { CitegraphError, ErrorCode } from '../errors';

/**
 * One place that decides what clients see of an error: domain errors keep their message and code; anything else is
 * an internal error whose details are hidden in production.
 */
export function makeFormatError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof CitegraphError) {
      return {
        ...formatted,
        message: original.message,
        extensions: { ...formatted.extensions, code: original.code, retryable: original.retryable },
      };
    }
    const code = formatted.extensions?.code;
    if (code && code !== 'INTERNAL_SERVER_ERROR') return formatted;
    if (production) {
      return {
        message: 'Internal server error',
        locations: formatted.locations,
        path: formatted.path,
        extensions: { code: ErrorCode.INTERNAL },
      };
    }
    return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.INTERNAL } };
  };
}
