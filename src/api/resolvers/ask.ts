import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { EXTERNAL_COLLECTION } from '../../ingest/ingest-service';
import { refuseUnknownNames } from '../inputs';
import { setScope } from './sets';

/**
 * BAD_USER_INPUT for a question scoped to a collection the graph lacks: a misspelt collection would answer from nothing
 * ("no evidence"), so it is named with the closest instead. The external collection may be named before its first
 * paper is written (an ask's external search writes it).
 */
export function refuseUnknownScope(app: AppContext, collections: readonly string[] | null | undefined): Promise<void> {
  return refuseUnknownNames(
    { collections: collections?.filter((name) => name !== EXTERNAL_COLLECTION) },
    app.catalog.names,
  );
}

/** Questions over GraphQL: the ask pipeline, run in the request's own context. */
export function askResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Query: {
      ask: async (_, args, context) => {
        const { documentSet, ...options } = args.options ?? {};
        await refuseUnknownScope(app, options.collections);
        const documents = await setScope(app, context, documentSet);
        return lanes.ask.run(context.request, () =>
          app.ask.ask(context.request, args.question, { ...options, documents }),
        );
      },
    },
  };
}
