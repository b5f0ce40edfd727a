import type { AppContext } from '../../app-context';
import type { SearchOptions } from '../../retrieval/search-types';
import type { Resolvers } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { filterReader } from '../inputs';
import { scopedSearch } from '../../retrieval/corpus';
import { corporaOf } from '../../sets/documents-corpus';
import { setScope } from './sets';

/** Hybrid search over GraphQL: the service's response, with its trace in the schema's shape. */
export function searchResolvers(app: AppContext, lanes: Lanes): Resolvers {
  const filterOf = filterReader(() => app.catalog.names);
  return {
    Query: {
      search: async (_, args, context) => {
        const options = (args.options ?? undefined) as Partial<SearchOptions> | undefined;
        const scope = await setScope(app, context, args.documentSet);
        const filter = await filterOf(args.filter, context);
        const response = await lanes.search.run(context.request, () =>
          scopedSearch(
            corporaOf(scope, app.graph),
            app.search.defaultOptions,
            context.request,
            args.query,
            args.first ?? 10,
            filter,
            options,
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
            companionModel: trace.companion?.model ?? null,
            companionFused: trace.companion?.fused ?? false,
            companionSkipped: trace.companion?.skipped ?? null,
            companionHits: trace.counts.companion,
            spladeTerms: trace.splade?.terms ?? [],
            spladeSkipped: trace.splade?.skipped ?? null,
            spladeHits: trace.counts.splade,
            hydePassage: trace.hyde?.passage ?? null,
            hydeSkipped: trace.hyde?.skipped ?? null,
            fusedHits: trace.counts.fused,
          },
        };
      },
    },
  };
}
