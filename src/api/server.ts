import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import type { AppContext } from '../app-context';
import { makeFormatError } from './errors';
import type { GraphqlContext } from './graphql-context';
import { makeResolvers } from './resolvers';
import { makeAnalyticsResolvers } from './analytics-resolvers';
import { loadTypeDefs } from './schema-loader';

export function createApolloServer(app: AppContext): ApolloServer<GraphqlContext> {
  return new ApolloServer<GraphqlContext>({
    typeDefs: loadTypeDefs(),
    resolvers: [makeResolvers(app), makeAnalyticsResolvers(app)] as never,
    formatError: makeFormatError(app.settings.api.production),
    includeStacktraceInErrorResponses: !app.settings.api.production,
    introspection: true,
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
    context: () => Promise.resolve({ request: app.requestContext() }),
  });
  return { url, stop: () => server.stop() };
}
