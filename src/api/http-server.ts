import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { AppContext } from '../app-context';
import { ErrorCode } from '../errors';
import { isLoopback } from './access';
import { appPage, explorerExamples, explorerPage } from './explorer';
import type { GraphqlContext } from './graphql-context';
import { sendAsset } from './http/assets';
import { downloadNetwork, downloadPapers, downloadReport } from './http/downloads';
import { Front } from './http/front';
import { executeGraphql } from './http/graphql';
import {
  answerProblems,
  decodePathPart,
  HttpProblem,
  parseJsonBody,
  readBody,
  sendJson,
  sendPage,
  sendProblem,
  wantsPage,
} from './http/replies';
import { stream } from './http/stream';
import { upload } from './http/uploads';

/** The path GraphQL is served at. */
export const GRAPHQL_PATH = '/graphql';

/** Uploads into private document sets: a new set with its first document, or one more document into a set. */
const NEW_SET_PATH = '/document-sets';
const SET_DOCUMENTS_PATH = /^\/document-sets\/([^/]+)\/documents$/;
const ASSET_PREFIX = '/assets/';

/** One route of the front: which requests it takes, and its handler (src/api/http/ holds one module per family). */
interface Route {
  readonly matches: (url: URL, request: IncomingMessage) => boolean;
  readonly handle: (front: Front, request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void> | void;
}

/** A route whose handler must be called with `method`; another method is told which one to use (405). */
function only(method: 'GET' | 'POST', what: string, handler: Route['handle']): Route['handle'] {
  return (front, request, response, url) =>
    answerProblems(
      response,
      async () => {
        if (request.method !== method) {
          throw new HttpProblem(405, ErrorCode.BAD_REQUEST, `${what} with ${method}`, {
            allow: `${method}, OPTIONS`,
          });
        }
        await handler(front, request, response, url);
      },
      front.problemOptions,
    );
}

/** The route table, first match wins; everything else is GraphQL at GRAPHQL_PATH or a 404. */
const ROUTES: readonly Route[] = [
  {
    matches: (url) => url.pathname === '/healthz',
    handle: async (front, _request, response) => {
      const status = await front.app.database.current();
      sendJson(response, status.reachable ? 200 : 503, {
        ok: status.reachable,
        database: { reachable: status.reachable, checkedAt: status.checkedAt },
      });
    },
  },
  {
    matches: (url) => url.pathname === NEW_SET_PATH || SET_DOCUMENTS_PATH.test(url.pathname),
    handle: only('POST', 'upload a document', (front, request, response, url) => {
      const setDocuments = SET_DOCUMENTS_PATH.exec(url.pathname);
      return upload(front, request, response, setDocuments ? decodePathPart(setDocuments[1]!) : null);
    }),
  },
  {
    matches: (url) => url.pathname.startsWith(ASSET_PREFIX),
    handle: (_front, _request, response, url) => sendAsset(response, url.pathname.slice(ASSET_PREFIX.length)),
  },
  {
    matches: (url, request) => (url.pathname === '/' || url.pathname === '/index.html') && request.method === 'GET',
    handle: (_front, _request, response) => sendPage(response, appPage()),
  },
  {
    matches: (url, request) => url.pathname === GRAPHQL_PATH && request.method === 'GET' && wantsPage(request, url),
    handle: (_front, _request, response) => sendPage(response, explorerPage(explorerExamples())),
  },
  { matches: (url) => url.pathname === '/export/papers', handle: only('GET', 'download an export', downloadPapers) },
  { matches: (url) => url.pathname === '/export/network', handle: only('GET', 'download a network', downloadNetwork) },
  { matches: (url) => url.pathname === '/export/report', handle: only('GET', 'download a report', downloadReport) },
  {
    matches: (url) => url.pathname === '/graphql/stream',
    handle: (front, request, response) =>
      answerProblems(response, () => stream(front, request, response), front.problemOptions),
  },
  { matches: (url) => url.pathname === GRAPHQL_PATH, handle: graphql },
];

/** `/graphql`: GET or POST, after the key and the rate limit; the body read up to its limit as JSON. */
async function graphql(front: Front, request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  try {
    if (request.method !== 'GET' && request.method !== 'POST') {
      throw new HttpProblem(405, ErrorCode.BAD_REQUEST, 'use GET or POST', { allow: 'GET, POST, OPTIONS' });
    }
    const principal = front.authorise(request);
    const body =
      request.method === 'POST'
        ? parseJsonBody(request, (await readBody(request, front.app.settings.api.maxBodyBytes)).toString('utf8'))
        : undefined;
    await executeGraphql(front, request, response, url, body, principal);
  } catch (error) {
    if (error instanceof HttpProblem) sendProblem(response, error);
    else throw error;
  }
}

/**
 * Serves the GraphQL API over HTTP with everything the GraphQL layer does not do itself: a body size limit, JSON
 * errors for malformed or oversized bodies, CORS for listed origins only, API keys and a rate limit per key, and one
 * request context per request — its deadline and its share of the database connections bound all of its work.
 */
export class CitegraphHttpServer {
  private readonly server: http.Server;
  private readonly front: Front;

  constructor(app: AppContext, apollo: ApolloServer<GraphqlContext>, schema: GraphQLSchema) {
    const api = app.settings.api;
    this.front = new Front(app, apollo, schema);
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
    this.front.access.checkListen(host);
    this.front.loopback = isLoopback(host);
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

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://citegraph.invalid');
    this.front.cors(request, response);
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const route = ROUTES.find((candidate) => candidate.matches(url, request));
    if (route) return route.handle(this.front, request, response, url);
    sendProblem(
      response,
      new HttpProblem(
        404,
        ErrorCode.NOT_FOUND,
        `nothing is served at ${url.pathname.slice(0, 100)}; GraphQL is at ${GRAPHQL_PATH}`,
      ),
    );
  }
}
