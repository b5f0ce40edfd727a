import type { IncomingMessage, ServerResponse } from 'node:http';
import { CitegraphError, ErrorCode } from '../../errors';
import { clip, HIDDEN } from '../errors';
import { PAGE_POLICY } from '../explorer';

/** What the HTTP front answers itself — problems as GraphQL-style JSON, files, pages — and how it reads bodies. */

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

/** A request the HTTP layer answers itself (bad body, no key, too many requests), always as GraphQL-style JSON. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
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

export function sendProblem(response: ServerResponse, problem: HttpProblem): void {
  sendJson(
    response,
    problem.status,
    { errors: [{ message: problem.message, extensions: { code: problem.code } }] },
    problem.headers,
  );
}

/** A file to save (Content-Disposition: attachment). */
export function sendAttachment(
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
export function sendPage(response: ServerResponse, html: string): void {
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
export function wantsPage(request: IncomingMessage, url: URL): boolean {
  return !url.searchParams.has('query') && (request.headers.accept ?? '').includes('text/html');
}

/**
 * Runs a handler of the HTTP layer's own routes, answering its problems and every domain error as JSON with a status
 * and code — internal text (driver messages) hidden as GraphQL errors hide it. Anything else is logged and a 500.
 */
export async function answerProblems(
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

/** Reads a body up to `limit` bytes; a larger one is refused (413) without reading it whole. */
export function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
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
export function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new HttpProblem(400, ErrorCode.BAD_REQUEST, 'the path is not valid percent-encoding');
  }
}

export function parseJsonBody(request: IncomingMessage, text: string): unknown {
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
