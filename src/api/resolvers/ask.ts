import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';

/** Questions over GraphQL: the ask pipeline, run in the request's own context. */
export function askResolvers(app: AppContext): Resolvers {
  return {
    Query: {
      ask: (_, args, context) => app.ask.ask(context.request, args.question, args.options ?? {}),
    },
  };
}
