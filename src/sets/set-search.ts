import { badInput } from '../errors';
import type { PaperFilter } from '../domain';
import type { RequestContext } from '../request-context';
import {
  checkFirst,
  elapsed,
  emptyTrace,
  type Passage,
  resolveOptions,
  type SearchOptions,
  type SearchResponse,
  type SearchResult,
} from '../retrieval/search-types';
import { type SearchService } from '../retrieval/search-service';
import type { SetCorpus } from './set-corpus';

/** A search or an ask over private document sets: which (loaded for this request), and whether with the shared graph. */
export interface SetScope {
  readonly corpus: SetCorpus;
  readonly withSharedGraph: boolean;
}

/**
 * Search over the caller's document sets, alone or with the shared graph. The set's documents are ranked in memory by
 * BM25 and exact cosine fused by the same weighted RRF as the shared search; with the shared graph, the shared results
 * (after their reranking stages) and the set's are merged by score — both on the scale of the same fusion, so a
 * document ranked first by both retrievers in either corpus scores the same. Filters on graph metadata (collections,
 * years, topics, …) apply to the shared graph only: set documents have none.
 */
export async function searchWithSets(
  search: SearchService,
  ctx: RequestContext,
  scope: SetScope,
  query: string,
  first: number,
  filter?: PaperFilter | null,
  overrides?: Partial<SearchOptions>,
): Promise<SearchResponse> {
  const options = resolveOptions(search.defaultOptions, overrides);
  checkFirst(first);
  if (!/[\p{L}\p{N}]/u.test(query)) throw badInput('the query is empty');
  const shared = scope.withSharedGraph
    ? await search.search(ctx, query, first, filter, overrides)
    : { results: [], trace: emptyTrace(query, options) };
  const started = process.hrtime.bigint();
  const vector = await search.embedQuery(query);
  const hits = scope.corpus.rank(query, vector, options, first);
  const passages =
    options.passages > 0
      ? scope.corpus.passages(
          hits.map((hit) => hit.documentId),
          vector,
          options.passages,
        )
      : new Map<string, Passage[]>();
  const setResults: SearchResult[] = hits.flatMap((hit, index) => {
    const paper = scope.corpus.paperRow(hit.documentId);
    if (!paper) return [];
    return [
      {
        paper,
        rank: index + 1,
        score: hit.score,
        passages: passages.get(hit.documentId) ?? [],
        trace: {
          sparse: hit.sparse,
          dense: hit.dense,
          expanded: null,
          fusedScore: hit.score,
          fusedRank: index + 1,
          citation: null,
          pagerank: null,
          finalScore: hit.score,
          moves: [],
        },
      },
    ];
  });
  const results = [...shared.results, ...setResults]
    .sort((a, b) => b.score - a.score || (a.paper.id < b.paper.id ? -1 : 1))
    .slice(0, first)
    .map((result, index) => ({ ...result, rank: index + 1 }));
  const trace = shared.trace;
  trace.timings.documentSetMs = elapsed(started);
  trace.counts.sparse += hits.filter((hit) => hit.sparse).length;
  trace.counts.dense += hits.filter((hit) => hit.dense).length;
  trace.counts.fused += hits.length;
  return { results, trace };
}
