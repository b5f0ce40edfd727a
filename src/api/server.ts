import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { AppContext } from '../app-context';
import { makeFormatError } from './errors';
import type { GraphqlContext } from './graphql-context';
import { createLoaders } from './loaders';
import { makeResolvers } from './resolvers';
import { loadTypeDefs } from './schema-loader';

/**
 * Tells the client what it should know about an answer that is not an error: a list cut to its cap, an id that
 * matched nothing. Warnings collected in the request context go out in `extensions.warnings`.
 */
const warningsPlugin: ApolloServerPlugin<GraphqlContext> = {
  requestDidStart: () =>
    Promise.resolve({
      willSendResponse: ({ contextValue, response }) => {
        const { warnings } = contextValue.request;
        if (warnings.length > 0 && response.body.kind === 'single') {
          response.body.singleResult.extensions = { ...response.body.singleResult.extensions, warnings: [...warnings] };
        }
        contextValue.request.deadline.dispose();
        return Promise.resolve();
      },
    }),
};

export function createApolloServer(app: AppContext): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    typeDefs: loadTypeDefs(),
    // Apollo takes a list of resolver maps; each is typed against the schema by the generated `Resolvers`.
    resolvers: makeResolvers(app) as never,
    formatError: makeFormatError(app.settings.api.production),
    includeStacktraceInErrorResponses: !app.settings.api.production,
    introspection: true,
    plugins: [warningsPlugin],
  });
}

/** Serves GraphQL over HTTP; returns the URL and a function that stops the server. */
export async function serveGraphQL(
  app: AppContext,
  port = app.settings.api.port,
  host = app.settings.api.host,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createApolloServer(app);
  const { url } = await startStandaloneServer(server, {
    listen: { port, host },
    context: () => Promise.resolve({ request: app.requestContext(), loaders: createLoaders(app.catalog) }),
  });
  return { url, stop: () => server.stop() };
}
