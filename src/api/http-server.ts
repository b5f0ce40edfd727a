import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { AppContext } from '../app-context';
import { ErrorCode } from '../errors';
import { requestScope, Semaphore } from '../request-context';
import { AccessControl, type Principal, RateLimiter } from './access';
import type { GraphqlContext } from './graphql-context';
import { createLoaders } from './loaders';

/** The path GraphQL is served at. */
export const GRAPHQL_PATH = '/graphql';

/** A request the HTTP layer answers itself (bad body, no key, too many requests), always as GraphQL-style JSON. */
class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

function sendProblem(response: ServerResponse, problem: HttpProblem): void {
  sendJson(
    response,
    problem.status,
    { errors: [{ message: problem.message, extensions: { code: problem.code } }] },
    problem.headers,
  );
}

/** Reads a body up to `limit` bytes; a larger one is refused (413) without reading it whole. */
function readBody(request: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new HttpProblem(413, ErrorCode.BAD_REQUEST, `the request body is over ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpProblem(413, ErrorCode.BAD_REQUEST, `the request body is over ${limit} bytes`));
        request.removeAllListeners('data');
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', (error) =>
      reject(new HttpProblem(400, ErrorCode.BAD_REQUEST, `the request body could not be read: ${error.message}`)),
    );
  });
}

function parseJsonBody(request: IncomingMessage, text: string): unknown {
  if (text.length === 0) return undefined;
  const type = String(request.headers['content-type'] ?? '');
  if (!/^application\/(?:graphql-response\+)?json\b/i.test(type)) {
    throw new HttpProblem(415, ErrorCode.BAD_REQUEST, 'send the GraphQL request as application/json');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'the request body is not valid JSON');
  }
}

/**
 * Serves the GraphQL API over HTTP with everything the GraphQL layer does not do itself: a body size limit, JSON
 * errors for malformed or oversized bodies, CORS for listed origins only, API keys and a rate limit per key, and one
 * request context per request — its deadline and its share of the database connections bound all of its work.
 */
export class CitegraphHttpServer {
  private readonly server: http.Server;
  private readonly access: AccessControl;
  private readonly limiter: RateLimiter;
  private readonly origins: Set<string>;

  constructor(
    private readonly app: AppContext,
    private readonly apollo: ApolloServer<GraphqlContext>,
  ) {
    const api = app.settings.api;
    this.access = new AccessControl(api);
    this.limiter = new RateLimiter(api.rateLimitPerMinute);
    this.origins = new Set(
      (api.corsOrigins ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    );
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        app.logger.error(`HTTP: ${(error as Error).stack ?? String(error)}`);
        sendJson(response, 500, {
          errors: [{ message: 'Internal server error', extensions: { code: ErrorCode.INTERNAL } }],
        });
      });
    });
    // Requests Node's parser refuses (headers too large, malformed) still get a JSON GraphQL-style error.
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return socket.destroy();
      const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
      const body = JSON.stringify({
        errors: [
          {
            message: tooLarge ? 'the request headers are too large' : 'the HTTP request is malformed',
            extensions: { code: ErrorCode.BAD_REQUEST },
          },
        ],
      });
      socket.end(
        `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    });
    this.server.requestTimeout = api.requestTimeoutMs + 5000;
    this.server.headersTimeout = 30_000;
  }

  async listen(port: number, host: string): Promise<string> {
    this.access.checkListen(host);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${shown}:${address.port}${GRAPHQL_PATH}`;
  }

  async close(): Promise<void> {
    this.server.closeIdleConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      setTimeout(() => {
        this.server.closeAllConnections();
        resolve();
      }, 5000).unref();
    });
  }

  private cors(request: IncomingMessage, response: ServerResponse): void {
    const origin = request.headers.origin;
    if (!origin || !this.origins.has(origin)) return;
    response.setHeader('access-control-allow-origin', origin);
    response.setHeader('vary', 'origin');
    response.setHeader(
      'access-control-allow-headers',
      'content-type, authorization, x-api-key, apollo-require-preflight',
    );
    response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
    response.setHeader('access-control-max-age', '600');
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://citegraph.invalid');
    this.cors(request, response);
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    if (url.pathname === '/healthz') {
      const status = await this.app.database.current();
      sendJson(response, status.reachable ? 200 : 503, {
        ok: status.reachable,
        database: { reachable: status.reachable, checkedAt: status.checkedAt },
      });
      return;
    }
    if (url.pathname !== GRAPHQL_PATH) {
      sendProblem(
        response,
        new HttpProblem(
          404,
          ErrorCode.NOT_FOUND,
          `nothing is served at ${url.pathname.slice(0, 100)}; GraphQL is at ${GRAPHQL_PATH}`,
        ),
      );
      return;
    }
    try {
      if (request.method !== 'GET' && request.method !== 'POST') {
        throw new HttpProblem(405, ErrorCode.BAD_REQUEST, 'use GET or POST', { allow: 'GET, POST, OPTIONS' });
      }
      const principal = this.access.identify(request.headers);
      if (!principal) {
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
      const body =
        request.method === 'POST'
          ? parseJsonBody(request, await readBody(request, this.app.settings.api.maxBodyBytes))
          : undefined;
      await this.execute(request, response, url, body, principal);
    } catch (error) {
      if (error instanceof HttpProblem) sendProblem(response, error);
      else throw error;
    }
  }

  private async execute(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    body: unknown,
    principal: Principal,
  ): Promise<void> {
    // A client that goes away stops the work done for it.
    const disconnected = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) disconnected.abort(new Error('the client disconnected'));
    });
    const ctx = this.app.requestContext({
      timeoutMs: this.app.settings.api.requestTimeoutMs,
      signal: disconnected.signal,
    });
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    const scope = { deadline: ctx.deadline, connections: new Semaphore(this.app.settings.neo4j.connectionsPerRequest) };
    try {
      const result = await requestScope.run(scope, () =>
        this.apollo.executeHTTPGraphQLRequest({
          httpGraphQLRequest: { method: request.method!.toUpperCase(), headers, search: url.search, body },
          context: () => Promise.resolve({ request: ctx, loaders: createLoaders(this.app.catalog), principal }),
        }),
      );
      for (const [key, value] of result.headers) response.setHeader(key, value);
      response.statusCode = result.status ?? 200;
      if (result.body.kind === 'complete') {
        response.end(result.body.string);
        return;
      }
      for await (const chunk of result.body.asyncIterator) response.write(chunk);
      response.end();
    } finally {
      ctx.deadline.dispose();
    }
  }
}
