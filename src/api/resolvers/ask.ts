import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { EXTERNAL_COLLECTION } from '../../ingest/ingest-service';
import { refuseUnknownNames } from '../inputs';
import { setScope } from './sets';

/** Questions over GraphQL: the ask pipeline, run in the request's own context. */
export function askResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Query: {
      ask: async (_, args, context) => {
        const { documentSet, ...options } = args.options ?? {};
        // A misspelt collection would answer from nothing ("no evidence"): name it, with the closest, instead.
        await refuseUnknownNames(
          // The external collection is named before its first paper is written (an ask may write it).
          { collections: options.collections?.filter((name) => name !== EXTERNAL_COLLECTION) },
          app.catalog.names,
        );
        const documents = await setScope(app, context, documentSet);
        return lanes.ask.run(context.request, () =>
          app.ask.ask(context.request, args.question, { ...options, documents }),
        );
      },
    },
  };
}
