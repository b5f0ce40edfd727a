/**
 * Where the evidence comes from: the shared graph or a caller's private document set. Both rank papers for a query,
 * give their best passages and say what a citation shows of them; search, ask and the page reach either only through
 * this interface and the one scoped search that merges them.
 */
import type { EvidencePaper, PaperFilter } from '../domain';
import type { RequestContext } from '../request-context';
import {
  checkFirst,
  checkQueryText,
  type Passage,
  resolveOptions,
  type SearchOptions,
  type SearchResponse,
} from './search-types';

export interface Corpus {
  /** What it is: the shared graph, or private documents (which have no graph metadata to filter on). */
  readonly kind: 'graph' | 'documents';
  /**
   * The papers that best match a query, best first, each with its passages and how it ranked. Scores are on the
   * scale of the weighted reciprocal rank fusion, so results of two corpora compare.
   */
  search(
    ctx: RequestContext,
    query: string,
    first: number,
    filter: PaperFilter | null | undefined,
    options: SearchOptions,
  ): Promise<SearchResponse>;
  /** The best passages of these papers for a query vector, per paper. */
  passages(ids: readonly string[], vector: Float32Array, perPaper: number): Promise<Map<string, Passage[]>>;
  /** What a citation shows of each of these papers (those the corpus holds). */
  evidencePapers(ids: readonly string[]): Promise<Map<string, EvidencePaper>>;
}

/**
 * One search over several corpora (the shared graph, a document set, or both): each ranks on its own, and the results
 * are merged by score — every score is on the scale of the same fusion, so a paper ranked first by both retrievers
 * scores the same in either corpus — and ranked again. The trace is the first corpus's, with the others' counts and
 * timings added. Filters on graph metadata (collections, years, topics, …) mean nothing to private documents.
 */
export async function scopedSearch(
  corpora: readonly Corpus[],
  defaults: SearchOptions,
  ctx: RequestContext,
  query: string,
  first: number,
  filter?: PaperFilter | null,
  overrides?: Partial<SearchOptions>,
): Promise<SearchResponse> {
  if (corpora.length === 0) throw new Error('a search needs at least one corpus');
  const options = resolveOptions(defaults, overrides);
  checkFirst(first);
  if (corpora.length > 1) checkQueryText(query);
  const responses: SearchResponse[] = [];
  for (const corpus of corpora) responses.push(await corpus.search(ctx, query, first, filter, options));
  const [base, ...rest] = responses as [SearchResponse, ...SearchResponse[]];
  if (rest.length === 0) return base;
  const trace = base.trace;
  for (const other of rest) {
    for (const [stage, ms] of Object.entries(other.trace.timings))
      trace.timings[stage] = (trace.timings[stage] ?? 0) + ms;
    trace.counts.sparse += other.trace.counts.sparse;
    trace.counts.dense += other.trace.counts.dense;
    trace.counts.companion += other.trace.counts.companion;
    trace.counts.splade += other.trace.counts.splade;
    trace.counts.fused += other.trace.counts.fused;
    trace.companion ??= other.trace.companion;
    trace.splade ??= other.trace.splade;
  }
  return {
    results: responses
      .flatMap((response) => response.results)
      .sort((a, b) => b.score - a.score || (a.paper.id < b.paper.id ? -1 : 1))
      .slice(0, first)
      .map((result, index) => ({ ...result, rank: index + 1 })),
    trace,
  };
}
