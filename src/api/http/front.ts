import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { AppContext } from '../../app-context';
import { ErrorCode } from '../../errors';
import { Semaphore } from '../../request-context';
import { AccessControl, type Principal, RateLimiter } from '../access';
import type { GraphqlContext } from '../graphql-context';
import { createLoaders } from '../loaders';
import { HttpProblem } from './replies';

/** Wrong API keys one address may send a minute before it is throttled (bursts of a tenth of that). */
const KEY_GUESSES_PER_MINUTE = 30;

/**
 * What every route of the HTTP front shares: the app, the GraphQL server and schema, CORS for listed origins, API keys
 * and the rate limit per key, the owner of a caller's document sets, and one request context per operation.
 */
export class Front {
  readonly access: AccessControl;
  private readonly limiter: RateLimiter;
  private readonly origins: Set<string>;
  /** Whether the server listens on a loopback address (anonymous callers may then hold document sets). */
  loopback = false;
  /** Uploads read, chunk and embed documents: a few at a time, the rest wait (bodies unread) in a short queue. */
  readonly uploads = new Semaphore(2);
  /** Wrong keys per address: guessing is throttled. */
  private readonly guesses = new RateLimiter(KEY_GUESSES_PER_MINUTE);
  readonly problemOptions: { debug: boolean; log: (message: string) => void };

  constructor(
    readonly app: AppContext,
    readonly apollo: ApolloServer<GraphqlContext>,
    readonly schema: GraphQLSchema,
  ) {
    const api = app.settings.api;
    this.access = new AccessControl(api);
    this.limiter = new RateLimiter(api.rateLimitPerMinute);
    this.problemOptions = { debug: api.debugErrors, log: (message) => app.logger.warn(message) };
    this.origins = new Set(
      (api.corsOrigins ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    );
  }

  cors(request: IncomingMessage, response: ServerResponse): void {
    const origin = request.headers.origin;
    if (!origin || !this.origins.has(origin)) return;
    response.setHeader('access-control-allow-origin', origin);
    response.setHeader('vary', 'origin');
    response.setHeader(
      'access-control-allow-headers',
      'content-type, authorization, x-api-key, apollo-require-preflight, x-document-name',
    );
    response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    response.setHeader('access-control-max-age', '600');
  }

  /** The caller's principal (401 without a valid key when keys are configured), after its rate limit (429). */
  authorise(request: IncomingMessage): Principal {
    const principal = this.access.identify(request.headers);
    if (!principal) {
      // Each wrong key costs the address a token: guessing keys is throttled like any other flood.
      const wait = this.guesses.take(`address:${request.socket.remoteAddress ?? 'unknown'}`);
      if (wait > 0) {
        throw new HttpProblem(429, ErrorCode.RATE_LIMITED, `too many wrong keys; try again in ${wait} s`, {
          'retry-after': String(wait),
        });
      }
      throw new HttpProblem(
        401,
        ErrorCode.UNAUTHENTICATED,
        'this API needs a valid key (Authorization: Bearer … or X-API-Key)',
        {
          'www-authenticate': 'Bearer',
        },
      );
    }
    const caller = principal.anonymous
      ? `address:${request.socket.remoteAddress ?? 'unknown'}`
      : `key:${principal.name}`;
    const wait = this.limiter.take(caller);
    if (wait > 0) {
      throw new HttpProblem(429, ErrorCode.RATE_LIMITED, `too many requests; try again in ${wait} s`, {
        'retry-after': String(wait),
      });
    }
    return principal;
  }

  /**
   * What one GraphQL operation runs with: a request context whose deadline is aborted when the client goes away (that
   * stops the work done for it), its database connection scope, and the resolvers' context.
   */
  operationContext(response: ServerResponse, principal: Principal) {
    const disconnected = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) disconnected.abort(new Error('the client disconnected'));
    });
    const ctx = this.app.requestContext({
      timeoutMs: this.app.settings.api.requestTimeoutMs,
      signal: disconnected.signal,
    });
    const scope = { deadline: ctx.deadline, connections: new Semaphore(this.app.settings.neo4j.connectionsPerRequest) };
    const context: GraphqlContext = {
      request: ctx,
      loaders: createLoaders(this.app.catalog),
      principal,
      setOwner: this.setOwner(principal),
    };
    return { ctx, scope, context };
  }

  /** Who owns the document sets of a principal's requests (see GraphqlContext.setOwner). */
  setOwner(principal: Principal): string | null {
    if (!principal.anonymous) return `key:${principal.name}`;
    return this.loopback ? 'anonymous' : null;
  }
}
