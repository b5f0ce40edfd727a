import type { IncomingMessage, ServerResponse } from 'node:http';
import { type DocumentNode, type ExecutionResult, GraphQLError, parse, specifiedRules, validate } from 'graphql';
import { createHandler as createSseHandler } from 'graphql-sse';
import { ErrorCode } from '../../errors';
import { requestScope } from '../../request-context';
import { makeFormatError } from '../errors';
import { limitRules, queryCost, tooComplex } from '../limits';
import type { Front } from './front';
import { HttpProblem, readBody } from './replies';

/** A stream write the client has not taken within this long ends the stream (a client that stopped reading). */
const STREAM_WRITE_TIMEOUT_MS = 30_000;

/** Headers that a browser sends only after a CORS preflight: a GET carrying one cannot come from another site. */
export const PREFLIGHT_HEADERS = ['apollo-require-preflight', 'x-apollo-operation-name'];

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

/**
 * `/graphql/stream`: GraphQL over Server-Sent Events (graphql-sse's protocol, distinct connections: one request per
 * operation) for subscriptions such as `askStream`, through the same front as `/graphql`: keys and rate limit, the
 * body limit (read here, never by the SSE library), CSRF (a GET needs a header no form or simple request can send;
 * a POST must be JSON, which makes a browser ask first), the token, depth, alias and cost limits, error masking, and
 * the request's deadline. A client that disconnects — or stops reading for STREAM_WRITE_TIMEOUT_MS — ends the
 * stream, which aborts the request and stops the work done for it.
 */
export async function stream(front: Front, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const api = front.app.settings.api;
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
  const principal = front.authorise(request);
  let body: string | undefined;
  if (request.method === 'POST') {
    const text = (await readBody(request, api.maxBodyBytes)).toString('utf8');
    if (!/^application\/json\b/i.test(String(request.headers['content-type'] ?? ''))) {
      throw new HttpProblem(415, ErrorCode.BAD_REQUEST, 'send the GraphQL request as application/json');
    }
    body = text;
  }
  const { ctx, scope, context } = front.operationContext(response, principal);
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
    schema: front.schema,
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
      const invalid = validate(front.schema, document, rules);
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
        cost = queryCost(front.schema, document, variables, params.operationName ?? undefined);
      } catch {
        // Variables that do not fit their types: execution rejects them before anything runs.
      }
      if (cost > api.maxCost) {
        const error = tooComplex(`the query's estimated cost ${Math.ceil(cost)} is over the limit of ${api.maxCost}`, {
          cost: Math.ceil(cost),
          limit: api.maxCost,
        });
        return failed([error]);
      }
      return {
        schema: front.schema,
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
