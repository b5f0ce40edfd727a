import type { AppContext } from '../../app-context';
import type { SearchOptions } from '../../retrieval/search-service';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { toPaperFilter } from '../inputs';

/** Hybrid search over GraphQL: the service's response, with its trace in the schema's shape. */
export function searchResolvers(app: AppContext, lanes: Lanes): Resolvers {
  return {
    Query: {
      search: async (_, args, context) => {
        const response = await lanes.search.run(context.request, () =>
          app.search.search(
            context.request,
            args.query,
            args.first ?? 10,
            toPaperFilter(args.filter),
            (args.options ?? undefined) as Partial<SearchOptions> | undefined,
          ),
        );
        const { trace } = response;
        return {
          results: response.results,
          trace: {
            query: trace.query,
            luceneQuery: trace.luceneQuery,
            expansionTerms: trace.expansionTerms,
            expansionCandidates: trace.expansionCandidates,
            expansionSource: trace.expansionSource,
            options: trace.options,
            timings: Object.entries(trace.timings).map(([stage, ms]) => ({ stage: stage.replace(/Ms$/, ''), ms })),
            sparseHits: trace.counts.sparse,
            denseHits: trace.counts.dense,
            fusedHits: trace.counts.fused,
          },
        };
      },
    },
  };
}
