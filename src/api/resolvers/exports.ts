import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import { filterReader } from '../inputs';
import type { Lanes } from '../lanes';

/** Paper lists as files (src/catalog/paper-export.ts); an export of a filter takes the analytics lane. */
export function exportResolvers(app: AppContext, lanes: Lanes): Resolvers {
  const filterOf = filterReader(() => app.catalog.names);
  return {
    Query: {
      paperExport: (_, args, context) =>
        lanes.analytics.run(context.request, async () =>
          app.exports.export(
            { ids: args.ids ?? null, filter: args.filter ? await filterOf(args.filter, context) : null },
            args.format,
            args.first ?? 1000,
          ),
        ),
    },
  };
}
