import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';

/** Questions over GraphQL: the ask pipeline, run in the request's own context. */
export function askResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Query: {
      ask: (_, args, context) =>
        lanes.ask.run(context.request, () => app.ask.ask(context.request, args.question, args.options ?? {})),
    },
  };
}
