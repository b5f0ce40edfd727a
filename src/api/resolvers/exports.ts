import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import { toPaperFilter } from '../inputs';
import type { Lanes } from '../lanes';

/** Paper lists as files (src/catalog/paper-export.ts); an export of a filter takes the analytics lane. */
export function exportResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Query: {
      paperExport: (_, args, context) =>
        lanes.analytics.run(context.request, () =>
          app.exports.export(
            { ids: args.ids ?? null, filter: args.filter ? toPaperFilter(args.filter) : null },
            args.format,
            args.first ?? 1000,
          ),
        ),
    },
  };
}
