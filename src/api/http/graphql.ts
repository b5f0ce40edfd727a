import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap } from '@apollo/server';
import { requestScope } from '../../request-context';
import type { Principal } from '../access';
import type { Front } from './front';

/** `/graphql` by GET or POST: one operation through Apollo, under the request's deadline and connection scope. */
export async function executeGraphql(
  front: Front,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  body: unknown,
  principal: Principal,
): Promise<void> {
  const { ctx, scope, context } = front.operationContext(response, principal);
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  try {
    const result = await requestScope.run(scope, () =>
      front.apollo.executeHTTPGraphQLRequest({
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
