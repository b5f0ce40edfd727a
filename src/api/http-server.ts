import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloServer } from '@apollo/server';
import { HeaderMap } from '@apollo/server';
import type { AppContext } from '../app-context';
import { CitegraphError, ErrorCode } from '../errors';
import { requestScope, Semaphore } from '../request-context';
import { AccessControl, isLoopback, type Principal, RateLimiter } from './access';
import type { GraphqlContext } from './graphql-context';
import { createLoaders } from './loaders';
import { ownerOf, uploadPath } from './resolvers/sets';
import { safeFileName } from '../sets/document-sets';
import { BIBLIOGRAPHY_FORMAT_NAMES, bibliographyFormatNamed } from '../catalog/bibliography';
import { appPage, ASSETS, explorerExamples, explorerPage, PAGE_POLICY, readAsset } from './explorer';
import { createHandler as createSseHandler } from 'graphql-sse';
import { clip, HIDDEN, makeFormatError } from './errors';
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { limitRules, queryCost, tooComplex } from './limits';
import {
  EXTENSIONS as NETWORK_EXTENSIONS,
  exportNetwork,
  MEDIA_TYPES as NETWORK_MEDIA_TYPES,
  type NetworkFormat,
} from '../analytics/network-export';

/** The path GraphQL is served at. */
export const GRAPHQL_PATH = '/graphql';

/** Uploads into private document sets: a new set with its first document, or one more document into a set. */
const NEW_SET_PATH = '/document-sets';
const SET_DOCUMENTS_PATH = /^\/document-sets\/([^/]+)\/documents$/;
const EXPORT_PATH = '/export/papers';
const NETWORK_EXPORT_PATH = '/export/network';
const ASSET_PREFIX = '/assets/';
const STREAM_PATH = '/graphql/stream';

/** HTTP status of a domain error raised by an upload or a download; any other code is a 500. */
const STATUS_OF: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.BAD_USER_INPUT]: 400,
  [ErrorCode.BAD_REQUEST]: 400,
  [ErrorCode.QUERY_TOO_COMPLEX]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.CANCELLED]: 499,
  [ErrorCode.DATABASE_UNAVAILABLE]: 503,
  [ErrorCode.DATABASE_ERROR]: 503,
  [ErrorCode.MODEL_UNAVAILABLE]: 503,
  [ErrorCode.OVERLOADED]: 503,
  [ErrorCode.DEADLINE_EXCEEDED]: 504,
};

/** Uploads waiting for a place beyond the ones running: one more is told to come back (OVERLOADED). */
const UPLOAD_QUEUE = 8;

/** A stream write the client has not taken within this long ends the stream (a client that stopped reading). */
const STREAM_WRITE_TIMEOUT_MS = 30_000;

/** Wrong API keys one address may send a minute before it is throttled (bursts of a tenth of that). */
const KEY_GUESSES_PER_MINUTE = 30;

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

/** A file to save (Content-Disposition: attachment). */
function sendAttachment(
  response: ServerResponse,
  content: string,
  mediaType: string,
  fileName: string,
  headers: Record<string, string> = {},
): void {
  const body = Buffer.from(content, 'utf8');
  response.writeHead(200, {
    'content-type': mediaType,
    'content-length': body.length,
    'content-disposition': `attachment; filename="${fileName}"`,
    ...headers,
  });
  response.end(body);
}

/** A page of the service, under its content security policy. */
function sendPage(response: ServerResponse, html: string): void {
  const body = Buffer.from(html, 'utf8');
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': body.length,
    'content-security-policy': PAGE_POLICY,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  response.end(body);
}

/**
 * Whether a GET of the GraphQL URL comes from a browser that wants a page (it accepts HTML and sends no operation),
 * rather than a client running a query by GET.
 */
function wantsPage(request: IncomingMessage, url: URL): boolean {
  return !url.searchParams.has('query') && (request.headers.accept ?? '').includes('text/html');
}

/**
 * Runs a handler of the HTTP layer's own routes, answering its problems and every domain error as JSON with a status
 * and code — internal text (driver messages) hidden as GraphQL errors hide it. Anything else is logged and a 500.
 */
async function answerProblems(
  response: ServerResponse,
  handler: () => Promise<void>,
  options: { debug: boolean; log: (message: string) => void },
): Promise<void> {
  try {
    await handler();
  } catch (error) {
    if (error instanceof HttpProblem) return sendProblem(response, error);
    if (error instanceof CitegraphError) {
      const status = STATUS_OF[error.code] ?? 500;
      const hidden =
        !options.debug && (HIDDEN[error.code] ?? (status === 500 ? HIDDEN[ErrorCode.INTERNAL] : undefined));
      if (status >= 500) options.log(`HTTP ${status} ${error.code}: ${error.message}`);
      const retry = error.details?.retryAfterSeconds;
      return sendProblem(
        response,
        new HttpProblem(
          status,
          error.code,
          clip(hidden || error.message),
          typeof retry === 'number' ? { 'retry-after': String(retry) } : {},
        ),
      );
    }
    throw error;
  }
}

/** Headers that a browser sends only after a CORS preflight: a GET carrying one cannot come from another site. */
const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof (value as AsyncIterable<unknown> | null)?.[Symbol.asyncIterator] === 'function';
}

/** The results of a subscription; an error thrown by it becomes one last result that carries it. */
async function* endWithError(
  results: AsyncIterable<ExecutionResult>,
  failed: (errors: readonly GraphQLError[]) => ExecutionResult,
): AsyncGenerator<ExecutionResult> {
  try {
    yield* results;
  } catch (error) {
    const graphqlError =
      error instanceof GraphQLError
        ? error
        : new GraphQLError((error as Error).message, { originalError: error as Error });
    yield failed([graphqlError]);
  }
}

/**
 * Writes an event stream with back-pressure: each event waits until the socket took the one before, and a client that
 * takes nothing for STREAM_WRITE_TIMEOUT_MS is disconnected, which ends the stream (and the work behind it).
 */
async function pipeStream(events: AsyncIterableIterator<string>, response: ServerResponse): Promise<void> {
  const stop = () => void events.return?.();
  response.once('close', stop);
  try {
    for await (const event of events) {
      if (!response.writable) break;
      const written = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          response.destroy(new Error('the client stopped reading the stream'));
          resolve(false);
        }, STREAM_WRITE_TIMEOUT_MS);
        response.write(event, (error) => {
          clearTimeout(timer);
          resolve(!error);
        });
      });
      if (!written) break;
    }
  } finally {
    response.off('close', stop);
    if (!response.destroyed) response.end();
  }
}

/** Reads a body up to `limit` bytes; a larger one is refused (413) without reading it whole. */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
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
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', (error) =>
      reject(new HttpProblem(400, ErrorCode.BAD_REQUEST, `the request body could not be read: ${error.message}`)),
    );
  });
}

/** A percent-encoded path segment; bad encoding is the client's mistake (400), not a server error. */
function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'the path is not valid percent-encoding');
  }
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
  /** Whether the server listens on a loopback address (anonymous callers may then hold document sets). */
  private loopback = false;
  /** Uploads read, chunk and embed documents: a few at a time, the rest wait (bodies unread) in a short queue. */
  private readonly uploads = new Semaphore(2);
  /** Wrong keys per address: guessing is throttled. */
  private readonly guesses = new RateLimiter(KEY_GUESSES_PER_MINUTE);
  private readonly problemOptions: { debug: boolean; log: (message: string) => void };

  constructor(
    private readonly app: AppContext,
    private readonly apollo: ApolloServer<GraphqlContext>,
    private readonly schema: GraphQLSchema,
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
    // Idle keep-alive sockets stay open longer than common clients keep them (Node's agent and browsers reuse for up to
    // a minute), so a client never sends a request on a socket the server is closing at that moment (ECONNRESET).
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
  }

  async listen(port: number, host: string): Promise<string> {
    this.access.checkListen(host);
    this.loopback = isLoopback(host);
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
      'content-type, authorization, x-api-key, apollo-require-preflight, x-document-name',
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
    const setDocuments = SET_DOCUMENTS_PATH.exec(url.pathname);
    if (url.pathname === NEW_SET_PATH || setDocuments) {
      await answerProblems(
        response,
        async () => {
          if (request.method !== 'POST') {
            throw new HttpProblem(405, ErrorCode.BAD_REQUEST, 'upload a document with POST', {
              allow: 'POST, OPTIONS',
            });
          }
          await this.upload(request, response, setDocuments ? decodePathPart(setDocuments[1]!) : null);
        },
        this.problemOptions,
      );
      return;
    }
    if (url.pathname.startsWith(ASSET_PREFIX)) {
      this.asset(response, url.pathname.slice(ASSET_PREFIX.length));
      return;
    }
    if ((url.pathname === '/' || url.pathname === '/index.html') && request.method === 'GET') {
      sendPage(response, appPage());
      return;
    }
    if (url.pathname === GRAPHQL_PATH && request.method === 'GET' && wantsPage(request, url)) {
      sendPage(response, explorerPage(explorerExamples()));
      return;
    }
    const download =
      url.pathname === EXPORT_PATH
        ? { what: 'an export', run: () => this.download(request, response, url) }
        : url.pathname === NETWORK_EXPORT_PATH
          ? { what: 'a network', run: () => this.downloadNetwork(request, response, url) }
          : null;
    if (download) {
      await answerProblems(
        response,
        async () => {
          if (request.method !== 'GET') {
            throw new HttpProblem(405, ErrorCode.BAD_REQUEST, `download ${download.what} with GET`, {
              allow: 'GET, OPTIONS',
            });
          }
          await download.run();
        },
        this.problemOptions,
      );
      return;
    }
    if (url.pathname === STREAM_PATH) {
      await answerProblems(response, () => this.stream(request, response), this.problemOptions);
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
      const principal = this.authorise(request);
      const body =
        request.method === 'POST'
          ? parseJsonBody(request, (await readBody(request, this.app.settings.api.maxBodyBytes)).toString('utf8'))
          : undefined;
      await this.execute(request, response, url, body, principal);
    } catch (error) {
      if (error instanceof HttpProblem) sendProblem(response, error);
      else throw error;
    }
  }

  /** The caller's principal (401 without a valid key when keys are configured), after its rate limit (429). */
  private authorise(request: IncomingMessage): Principal {
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
   * `GET /export/papers?format=bibtex&ids=W1,W2` (or `&collection=NAME`, repeatable; `&first=N`): a paper list as a
   * file to save (Content-Disposition: attachment), the same file as the `paperExport` query gives.
   */
  private async download(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    this.authorise(request);
    const named = url.searchParams.get('format') ?? '';
    const format = bibliographyFormatNamed(named);
    if (!format) {
      throw new HttpProblem(
        400,
        ErrorCode.BAD_USER_INPUT,
        `format must be one of ${BIBLIOGRAPHY_FORMAT_NAMES}; got "${named.slice(0, 40)}"`,
      );
    }
    const idList = url.searchParams.get('ids');
    const collections = url.searchParams.getAll('collection').filter((c) => c !== '');
    if (idList === null && collections.length === 0) {
      throw new HttpProblem(400, ErrorCode.BAD_USER_INPUT, 'give ids=W1,W2,… or collection=NAME');
    }
    const first = url.searchParams.has('first') ? Number(url.searchParams.get('first')) : 1000;
    const file = await this.app.exports.export(
      idList !== null
        ? {
            ids: idList
              .split(',')
              .map((id) => id.trim())
              .filter((id) => id !== ''),
          }
        : { filter: { collections } },
      format,
      first,
    );
    sendAttachment(response, file.content, file.mediaType, file.fileName, {
      'x-citegraph-papers': String(file.papers),
    });
  }

  /** A built browser asset (web/build), or 404 naming how to build it. */
  private asset(response: ServerResponse, name: string): void {
    const body = readAsset(name);
    if (!body) {
      sendProblem(
        response,
        new HttpProblem(
          404,
          ErrorCode.NOT_FOUND,
          Object.hasOwn(ASSETS, name)
            ? `the browser assets are not built: run npm run build (or node scripts/build-web.js)`
            : `no asset ${name.slice(0, 100)}`,
        ),
      );
      return;
    }
    response.writeHead(200, {
      'content-type': ASSETS[name]!,
      'content-length': body.length,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    });
    response.end(body);
  }

  /**
   * `/graphql/stream`: GraphQL over Server-Sent Events (graphql-sse's protocol, distinct connections: one request per
   * operation) for subscriptions such as `askStream`, through the same front as `/graphql`: keys and rate limit, the
   * body limit (read here, never by the SSE library), CSRF (a GET needs a header no form or simple request can send;
   * a POST must be JSON, which makes a browser ask first), the token, depth, alias and cost limits, error masking, and
   * the request's deadline. A client that disconnects — or stops reading for STREAM_WRITE_TIMEOUT_MS — ends the
   * stream, which aborts the request and stops the work done for it.
   */
  private async stream(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const api = this.app.settings.api;
    if (request.method !== 'GET' && request.method !== 'POST') {
      throw new HttpProblem(405, ErrorCode.BAD_REQUEST, 'use GET or POST', { allow: 'GET, POST, OPTIONS' });
    }
    if (request.method === 'GET' && !PREFLIGHT_HEADERS.some((name) => request.headers[name] !== undefined)) {
      throw new HttpProblem(
        400,
        ErrorCode.BAD_REQUEST,
        'a GET of the stream needs an apollo-require-preflight (or x-apollo-operation-name) header, so that no other site can start one in your name',
      );
    }
    const principal = this.authorise(request);
    let body: string | undefined;
    if (request.method === 'POST') {
      const text = (await readBody(request, api.maxBodyBytes)).toString('utf8');
      if (!/^application\/json\b/i.test(String(request.headers['content-type'] ?? ''))) {
        throw new HttpProblem(415, ErrorCode.BAD_REQUEST, 'send the GraphQL request as application/json');
      }
      body = text;
    }
    const { ctx, scope, context } = this.operationContext(response, principal);
    const formatError = makeFormatError(api.debugErrors);
    const format = (errors: readonly GraphQLError[]) => errors.map((error) => formatError(error.toJSON(), error));
    // What a client receives: formatted errors, in the place the protocol's types call GraphQL errors.
    const failed = (errors: readonly GraphQLError[]): ExecutionResult => ({
      // `data: null` makes it a result to graphql-sse (it tells results from execution arguments by `data`).
      data: null,
      errors: format(errors) as unknown as GraphQLError[],
    });
    const rules = [...specifiedRules, ...limitRules(api)];
    const handler = createSseHandler<IncomingMessage, { res: ServerResponse }, Record<PropertyKey, unknown>>({
      schema: this.schema,
      onSubscribe: (_req, params) => {
        let document: DocumentNode;
        try {
          document = parse(params.query, { maxTokens: api.maxTokens });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          // As Apollo reports them on /graphql: too many tokens is an over-limit query, the rest a syntax error.
          return failed([
            /more th\w+ \d+ tokens/.test(message)
              ? tooComplex(message.replace(/^Syntax Error: /, ''), { rule: 'tokens', limit: api.maxTokens })
              : new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } }),
          ]);
        }
        const invalid = validate(this.schema, document, rules);
        if (invalid.length > 0) {
          // Coded as Apollo codes them on /graphql, so that the shared formatter shows them instead of masking.
          return failed(
            invalid.map(
              (error) =>
                new GraphQLError(error.message, {
                  nodes: error.nodes,
                  originalError: error.originalError,
                  extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...error.extensions },
                }),
            ),
          );
        }
        const variables = params.variables ?? {};
        let cost = 0;
        try {
          cost = queryCost(this.schema, document, variables, params.operationName ?? undefined);
        } catch {
          // Variables that do not fit their types: execution rejects them before anything runs.
        }
        if (cost > api.maxCost) {
          const error = tooComplex(
            `the query's estimated cost ${Math.ceil(cost)} is over the limit of ${api.maxCost}`,
            { cost: Math.ceil(cost), limit: api.maxCost },
          );
          return failed([error]);
        }
        return {
          schema: this.schema,
          document,
          variableValues: variables,
          operationName: params.operationName ?? null,
          contextValue: context as unknown as Record<PropertyKey, unknown>,
        };
      },
      // Errors of execution are formatted here; the ones this handler made are formatted already.
      onNext: (_ctx, _req, result) =>
        result.errors?.some((error) => error instanceof GraphQLError)
          ? { ...result, errors: failed(result.errors).errors }
          : undefined,
      // An error thrown while the answer streams is a last event with the error, masked like any other.
      onOperation: (_ctx, _req, _args, result) => (isAsyncIterable(result) ? endWithError(result, failed) : undefined),
    });
    try {
      const [reply, init] = await requestScope.run(scope, () =>
        handler({
          method: request.method!,
          url: request.url ?? '/',
          headers: {
            get: (key: string) => {
              const value = request.headers[key];
              return Array.isArray(value) ? value.join('\n') : value;
            },
          },
          body: body ?? null,
          raw: request,
          context: { res: response },
        }),
      );
      response.writeHead(init.status, init.statusText, init.headers);
      if (!reply || typeof reply === 'string') {
        response.end(reply);
        return;
      }
      await pipeStream(reply, response);
    } finally {
      // The handler may return while the stream is still open: the deadline ends with the response.
      if (response.writableFinished || response.destroyed) ctx.deadline.dispose();
      else response.once('close', () => ctx.deadline.dispose());
    }
  }

  /**
   * What one GraphQL operation runs with: a request context whose deadline is aborted when the client goes away (that
   * stops the work done for it), its database connection scope, and the resolvers' context.
   */
  private operationContext(response: ServerResponse, principal: Principal) {
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

  /**
   * `GET /export/network?network=coauthorship&format=graphml&collection=NAME` (network: coupling, cocitation,
   * coauthorship, citation; format: graphml, gexf, vosviewer_map, vosviewer_network, csv; `maxNodes`, `minWeight`):
   * the file `networkExport` gives, as an attachment.
   */
  private async downloadNetwork(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    this.authorise(request);
    const kind = (url.searchParams.get('network') ?? '').toUpperCase();
    const format = (url.searchParams.get('format') ?? '').toUpperCase() as NetworkFormat;
    if (!['COUPLING', 'COCITATION', 'COAUTHORSHIP', 'CITATION'].includes(kind)) {
      throw new HttpProblem(
        400,
        ErrorCode.BAD_USER_INPUT,
        'network must be coupling, cocitation, coauthorship or citation',
      );
    }
    if (!Object.hasOwn(NETWORK_MEDIA_TYPES, format)) {
      throw new HttpProblem(
        400,
        ErrorCode.BAD_USER_INPUT,
        'format must be graphml, gexf, vosviewer_map, vosviewer_network or csv',
      );
    }
    const collections = url.searchParams.getAll('collection').filter((c) => c !== '');
    const number = (name: string, fallback: number) =>
      url.searchParams.has(name) ? Number(url.searchParams.get(name)) : fallback;
    const network = await this.app.science.network(
      collections.length ? { collections } : null,
      kind as 'COUPLING' | 'COCITATION' | 'COAUTHORSHIP' | 'CITATION',
      { maxNodes: number('maxNodes', 500), minWeight: number('minWeight', 1) },
    );
    sendAttachment(
      response,
      exportNetwork(network, format),
      NETWORK_MEDIA_TYPES[format],
      `citegraph-${kind.toLowerCase()}.${NETWORK_EXTENSIONS[format]}`,
    );
  }

  /** Who owns the document sets of a principal's requests (see GraphqlContext.setOwner). */
  private setOwner(principal: Principal): string | null {
    if (!principal.anonymous) return `key:${principal.name}`;
    return this.loopback ? 'anonymous' : null;
  }

  /**
   * `POST /document-sets` (a new set with this document) or `POST /document-sets/{id}/documents`: the body is the
   * file's bytes, `X-Document-Name` its file name (percent-encoded when not ASCII; the extension gives the format),
   * `?ttlSeconds=` the new set's lifetime. The custom header makes every browser send a CORS preflight first, which
   * this server answers only for listed origins: a page elsewhere cannot upload in a user's name (CSRF).
   */
  private async upload(request: IncomingMessage, response: ServerResponse, setId: string | null): Promise<void> {
    const principal = this.authorise(request);
    const rawName = request.headers['x-document-name'];
    const named = Array.isArray(rawName) ? rawName[0] : rawName;
    if (!named) {
      throw new HttpProblem(
        400,
        ErrorCode.BAD_REQUEST,
        'send the file name in the X-Document-Name header (its extension gives the format: .pdf, .md, .html, .txt)',
      );
    }
    let name: string;
    try {
      // Made safe before it is used anywhere (messages, logs, the stored document).
      name = safeFileName(decodeURIComponent(named));
    } catch {
      throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'X-Document-Name is not valid percent-encoding');
    }
    if (!name) throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'X-Document-Name has no usable file name');
    const owner = ownerOf({ setOwner: this.setOwner(principal) });
    if (/^multipart\//i.test(String(request.headers['content-type'] ?? ''))) {
      throw new HttpProblem(
        415,
        ErrorCode.BAD_REQUEST,
        'send the file itself as the body (curl --data-binary @file), not a multipart form (curl -F)',
      );
    }
    // A client that hangs up cancels its upload wherever it is: waiting, read, chunked or embedded.
    const hangUp = new AbortController();
    response.once('close', () => {
      if (!response.writableFinished) hangUp.abort(new Error('the client went away'));
    });
    // The body is read only once a place is free: bytes held in memory are bounded by the running uploads.
    if (this.uploads.active >= this.uploads.size && this.uploads.pending >= UPLOAD_QUEUE) {
      throw new HttpProblem(503, ErrorCode.OVERLOADED, 'the service is busy reading uploads; try again in 10 s', {
        'retry-after': '10',
      });
    }
    let release: () => void;
    try {
      release = await this.uploads.acquire(hangUp.signal);
    } catch {
      throw new CitegraphError(ErrorCode.CANCELLED, `${name}: the upload was cancelled while it waited`);
    }
    try {
      const body = await readBody(request, this.app.settings.documentSets.maxUploadBytes);
      if (body.length === 0) throw new HttpProblem(400, ErrorCode.BAD_REQUEST, `${name}: the body is empty`);
      const ttl = new URL(request.url ?? '/', 'http://citegraph.invalid').searchParams.get('ttlSeconds');
      const sets = this.app.documentSets;
      const created = setId === null ? await sets.create(owner, ttl === null ? null : Number(ttl)) : null;
      let added;
      try {
        added = await sets.addDocument(owner, setId ?? created!.id, name, body, hangUp.signal);
      } catch (error) {
        // A new set whose first document could not be read is not left behind empty.
        if (created) await sets.delete(owner, created.id);
        throw error;
      }
      sendJson(response, created ? 201 : 200, {
        documentSet: { ...added.set, uploadPath: uploadPath(added.set.id) },
        document: added.document,
        unchanged: added.unchanged,
      });
    } finally {
      release();
    }
  }

  private async execute(
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    body: unknown,
    principal: Principal,
  ): Promise<void> {
    const { ctx, scope, context } = this.operationContext(response, principal);
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    }
    try {
      const result = await requestScope.run(scope, () =>
        this.apollo.executeHTTPGraphQLRequest({
          httpGraphQLRequest: { method: request.method!.toUpperCase(), headers, search: url.search, body },
          context: () => Promise.resolve(context),
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
