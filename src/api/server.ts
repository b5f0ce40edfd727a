import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import type { AppContext } from '../app-context';
import { makeFormatError } from './errors';
import type { GraphqlContext } from './graphql-context';
import { CitegraphHttpServer } from './http-server';
import { createLanes } from './lanes';
import { limitRules, limitsPlugin } from './limits';
import { capListSizes } from './list-caps';
import { makeResolvers } from './resolvers';
import { loadTypeDefs } from './schema-loader';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';

/**
 * Tells the client what it should know about an answer that is not an error: a list cut to its cap, an id that
 * matched nothing. Warnings collected in the request context go out in `extensions.warnings`, sorted: resolvers run
 * concurrently and finish in any order, and the same query must always give the same list.
 */
const warningsPlugin: ApolloServerPlugin<GraphqlContext> = {
  requestDidStart: () =>
    Promise.resolve({
      willSendResponse: ({ contextValue, response }) => {
        const { warnings } = contextValue.request;
        if (warnings.length > 0 && response.body.kind === 'single') {
          response.body.singleResult.extensions = {
            ...response.body.singleResult.extensions,
            warnings: [...warnings].sort(),
          };
        }
        return Promise.resolve();
      },
    }),
};

/**
 * The executable schema: the SDL of schema/ with every resolver, sharing one set of lanes. Apollo serves its queries
 * and mutations; the SSE handler (src/api/http-server.ts) its subscriptions.
 */
export function createSchema(app: AppContext): GraphQLSchema {
  return capListSizes(
    makeExecutableSchema({
      typeDefs: loadTypeDefs(),
      // A list of resolver maps; each is typed against the schema by the generated `Resolvers`.
      resolvers: makeResolvers(app, createLanes(app.settings.api)) as never,
    }),
  );
}

export function createApolloServer(app: AppContext, schema: GraphQLSchema): ApolloServer<GraphqlContext> {
  const api = app.settings.api;
  return new ApolloServer<GraphqlContext>({
    schema,
    formatError: makeFormatError(api.debugErrors),
    includeStacktraceInErrorResponses: api.debugErrors,
    introspection: api.introspection,
    // Limits checked before anything runs: document size (parse), depth, aliases, directives, cost.
    parseOptions: { maxTokens: api.maxTokens },
    validationRules: limitRules(api),
    // Browsers get the bundled explorer from the HTTP layer (src/api/explorer.ts), not Apollo's hosted Sandbox.
    plugins: [limitsPlugin(api), warningsPlugin, ApolloServerPluginLandingPageDisabled()],
    allowBatchedHttpRequests: false,
    // Apollo's own messages go where the service's go (never straight to the console).
    logger: {
      debug: () => undefined,
      info: (message: unknown) => app.logger.info(String(message)),
      warn: (message: unknown) => app.logger.warn(String(message)),
      error: (message: unknown) => app.logger.error(String(message)),
    },
  });
}

/** Serves GraphQL over HTTP; returns the URL and a function that stops the server. */
export async function serveGraphQL(
  app: AppContext,
  port = app.settings.api.port,
  host = app.settings.api.host,
): Promise<{ url: string; stop: () => Promise<void> }> {
  if (app.settings.api.warmUp) {
    // Before listening: a request must not be the one that loads the model (seconds of blocked event loop).
    const started = Date.now();
    await app
      .warmUp()
      .then(() => app.logger.info(`warmed up in ${Date.now() - started} ms`))
      .catch((error: unknown) => app.logger.warn(`warm-up: ${(error as Error).message} (loaded on first use instead)`));
  }
  const schema = createSchema(app);
  const apollo = createApolloServer(app, schema);
  const http = new CitegraphHttpServer(app, apollo, schema);
  await apollo.start();
  let url: string;
  try {
    url = await http.listen(port, host);
  } catch (error) {
    await apollo.stop();
    throw error;
  }
  app.database.start();
  // Expired document sets are deleted with every node of them, whether or not anyone asks for them again.
  const sweep = () =>
    void app.documentSets
      .sweep()
      .then((removed) => {
        if (removed > 0) app.logger.info(`deleted ${removed} expired document set(s)`);
      })
      .catch((error: unknown) => app.logger.warn(`document set sweep: ${(error as Error).message}`));
  const sweeper = setInterval(sweep, app.settings.documentSets.sweepSeconds * 1000);
  sweeper.unref();
  sweep();
  return {
    url,
    stop: async () => {
      clearInterval(sweeper);
      await http.close();
      await apollo.stop();
    },
  };
}
