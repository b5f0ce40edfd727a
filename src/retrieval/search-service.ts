import type { Embedder } from '../embedding/embedder';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { isFiltered, type PaperFilterParams, paperFilterParams, queries } from '../graph/query-registry';
import type { PaperFilter, PaperRow } from '../domain';
import { readDocumentFrequencies } from './corpus-statistics';
import { type DocumentFrequencies, feedbackTerms, validateTerms } from './expansion';
import { aggregateChunks, weightedRrf, type RankedList } from './fusion';
import { buildLuceneQuery } from './query-text';
import { mmr } from './rerank';
import { parseJsonObject } from '../generation/llm';
import { expansionPrompt } from '../generation/prompts';
import type { RequestContext } from '../request-context';
import { contentTerms } from '../text';
import {
  type Candidate,
  checkFirst,
  elapsed,
  emptyTrace,
  type Passage,
  resolveOptions,
  type SearchOptions,
  type SearchResponse,
  type SearchResult,
  type SearchTrace,
} from './search-types';
import { citationBoost, pagerankRerank } from './graph-rerank';

/**
 * Hybrid retrieval over the graph's indexes: BM25 over papers and dense search over chunks, fused by weighted
 * reciprocal rank fusion, then optional query expansion (pseudo-relevance feedback validated against the corpus),
 * citation-graph boosting, personalised PageRank over the candidates' similarity graph, and MMR diversification.
 */
export class SearchService {
  private readonly frequencies = new Map<string, Promise<DocumentFrequencies>>();
  private sizes: { papers: number; chunks: number; at: number } | undefined;

  constructor(
    private readonly executor: GraphExecutor,
    private readonly embedder: () => Promise<Embedder>,
    private readonly defaults: SearchOptions,
  ) {}

  /**
   * Expansion candidates from the LLM: the vocabulary the answering paper would use, never the answer itself.
   * Returns null when no LLM is configured or it fails, so that pseudo-relevance feedback is used instead.
   */
  private async llmExpansion(ctx: RequestContext, query: string, max: number): Promise<string[] | null> {
    if (!ctx.llm) return null;
    try {
      const result = await ctx.llm.chat(expansionPrompt(query, max), { json: true });
      const terms = parseJsonObject(result.text).terms;
      return Array.isArray(terms) ? terms.map(String).flatMap((term) => contentTerms(term)) : null;
    } catch {
      return null;
    }
  }

  get defaultOptions(): SearchOptions {
    return this.defaults;
  }

  async search(
    ctx: RequestContext,
    query: string,
    first: number,
    filter?: PaperFilter | null,
    overrides?: Partial<SearchOptions>,
  ): Promise<SearchResponse> {
    checkFirst(first);
    const { ranked, trace, vector, options } = await this.rank(
      ctx,
      query,
      first,
      filter,
      resolveOptions(this.defaults, overrides),
    );
    const timings = trace.timings;
    const top = ranked.slice(0, first);
    const started = process.hrtime.bigint();
    const [papers, passages] = await Promise.all([
      this.papers(top.map((c) => c.id)),
      options.passages > 0 && vector
        ? this.passages(
            top.map((c) => c.id),
            vector,
            options.passages,
          )
        : Promise.resolve(new Map<string, Passage[]>()),
    ]);
    timings.hydrateMs = elapsed(started);

    const results: SearchResult[] = [];
    top.forEach((candidate, index) => {
      const paper = papers.get(candidate.id);
      if (!paper) return;
      const sparse = candidate.ranks.sparse;
      const dense = candidate.ranks.dense;
      results.push({
        paper,
        rank: index + 1,
        score: candidate.score,
        passages: passages.get(candidate.id) ?? [],
        trace: {
          sparse: sparse ? { rank: sparse.rank, score: sparse.score ?? 0 } : null,
          dense: dense ? { rank: dense.rank, score: dense.score ?? 0 } : null,
          expanded: trace.expansionTerms.length > 0 && sparse ? { rank: sparse.rank, score: sparse.score ?? 0 } : null,
          fusedScore: candidate.fusedScore,
          fusedRank: candidate.fusedRank,
          citation: candidate.citation,
          pagerank: candidate.pagerank,
          finalScore: candidate.score,
          moves: candidate.moves,
        },
      });
    });
    return { results, trace };
  }

  /**
   * Every paper of `filter` the retrievers reach, in the order screening would read them: the same retrievers,
   * fusion and graph stages as `search`, with candidate lists as deep as `depth` (the size of a review, say) and no
   * hydration. Used by `citegraph eval` for the screening measures; not exposed over GraphQL.
   */
  async screeningOrder(
    ctx: RequestContext,
    query: string,
    depth: number,
    filter: PaperFilter | null,
    overrides?: Partial<SearchOptions>,
  ): Promise<string[]> {
    const bounded = Math.min(Math.max(1, Math.floor(depth)), 50_000);
    // Deeper than the retrieval setting allows a request: an evaluation reads whole reviews.
    const options = { ...resolveOptions(this.defaults, overrides), candidates: bounded, passages: 0 };
    const { ranked } = await this.rank(ctx, query, bounded, filter, options);
    return ranked.map((candidate) => candidate.id);
  }

  private async rank(
    ctx: RequestContext,
    query: string,
    first: number,
    filter: PaperFilter | null | undefined,
    options: SearchOptions,
  ): Promise<{ ranked: Candidate[]; trace: SearchTrace; vector: Float32Array | null; options: SearchOptions }> {
    if (query.length > 10_000) throw badInput('the query is longer than 10,000 characters');
    const trace = emptyTrace(query, options);
    const timings = trace.timings;
    const depth = Math.max(options.candidates, first);
    const params = paperFilterParams(filter);

    let luceneQuery: string | null = null;
    if (options.sparse)
      luceneQuery = buildLuceneQuery(query); // validates the text early: empty → BAD_USER_INPUT
    else if (!/[\p{L}\p{N}]/u.test(query)) throw badInput('the query is empty');

    let started = process.hrtime.bigint();
    const vector =
      options.dense || options.pagerank || options.mmr || options.passages > 0 ? await this.embedQuery(query) : null;
    timings.embedMs = elapsed(started);

    const lists: RankedList[] = [];
    if (options.sparse && luceneQuery) {
      started = process.hrtime.bigint();
      const sparseHits = await this.sparse(luceneQuery, depth, params);
      timings.sparseMs = elapsed(started);
      trace.luceneQuery = luceneQuery;
      trace.counts.sparse = sparseHits.length;
      lists.push({
        name: 'sparse',
        weight: options.sparseWeight,
        ids: sparseHits.map((hit) => hit.paperId),
        scores: sparseHits.map((hit) => hit.score),
      });
    }
    if (options.dense && vector) {
      started = process.hrtime.bigint();
      const denseHits = await this.dense(vector, depth, params, isFiltered(filter), options.aggregation);
      timings.denseMs = elapsed(started);
      trace.counts.dense = denseHits.length;
      lists.push({
        name: 'dense',
        weight: options.denseWeight,
        ids: denseHits.map((hit) => hit.paperId),
        scores: denseHits.map((hit) => hit.score),
      });
    }

    if (options.expansion && options.sparse && luceneQuery) {
      started = process.hrtime.bigint();
      const frequencies = await this.documentFrequencies(params.collections);
      let candidates = await this.llmExpansion(ctx, query, options.expansionTerms * 2);
      trace.expansionSource = candidates ? 'llm' : 'feedback';
      if (!candidates) {
        const firstPass = weightedRrf(lists, options.rrfK)
          .slice(0, options.feedbackDocs)
          .map((item) => item.id);
        candidates = feedbackTerms(query, await this.paperTexts(firstPass), frequencies, options.expansionTerms * 2);
      }
      const chosen = validateTerms(candidates, frequencies, options.expansionTau).slice(0, options.expansionTerms);
      trace.expansionCandidates = candidates;
      trace.expansionTerms = chosen;
      if (chosen.length > 0) {
        const expandedQuery = buildLuceneQuery(query, chosen, options.expansionWeight);
        const expandedHits = await this.sparse(expandedQuery, depth, params);
        trace.luceneQuery = expandedQuery;
        // The expanded query replaces the plain sparse list: BM25(q) + w·BM25(q_exp) in one Lucene query.
        const index = lists.findIndex((list) => list.name === 'sparse');
        lists[index] = {
          name: 'sparse',
          weight: options.sparseWeight,
          ids: expandedHits.map((hit) => hit.paperId),
          scores: expandedHits.map((hit) => hit.score),
        };
      }
      timings.expansionMs = elapsed(started);
    }

    started = process.hrtime.bigint();
    const fused = weightedRrf(lists, options.rrfK);
    timings.fusionMs = elapsed(started);
    trace.counts.fused = fused.length;
    let ranked: Candidate[] = fused.map((item, index) => ({
      id: item.id,
      score: item.score,
      fusedScore: item.score,
      fusedRank: index + 1,
      ranks: item.ranks,
      citation: null,
      pagerank: null,
      moves: [],
    }));

    const reorder = (stage: string, next: Candidate[]) => {
      const before = new Map(ranked.map((candidate, index) => [candidate.id, index + 1]));
      next.forEach((candidate, index) => {
        const from = before.get(candidate.id)!;
        if (from !== index + 1) candidate.moves.push({ stage, from, to: index + 1 });
      });
      ranked = next;
    };

    if (options.citation && ranked.length > 1) {
      started = process.hrtime.bigint();
      reorder('citation', await citationBoost(this.executor, ranked, options));
      timings.citationMs = elapsed(started);
    }

    let vectors: Map<string, Float32Array> | undefined;
    if ((options.pagerank || options.mmr) && vector && ranked.length > 1) {
      started = process.hrtime.bigint();
      vectors = await this.paperVectors(
        ranked.slice(0, Math.max(options.rerankDepth, options.mmr ? options.mmrK * 3 : 0)).map((c) => c.id),
      );
      timings.vectorsMs = elapsed(started);
    }
    if (options.pagerank && vector && vectors && ranked.length > 1) {
      started = process.hrtime.bigint();
      reorder('pagerank', pagerankRerank(ranked, vectors, vector, options));
      timings.pagerankMs = elapsed(started);
    }
    if (options.mmr && vectors && ranked.length > 1) {
      started = process.hrtime.bigint();
      const pool = ranked.slice(0, Math.max(options.mmrK * 3, options.mmrK));
      const order = mmr(
        pool.map((c) => ({ id: c.id, score: c.score })),
        vectors,
        options.mmrLambda,
        options.mmrK,
      );
      const byId = new Map(pool.map((c) => [c.id, c]));
      reorder('mmr', [...order.map((id) => byId.get(id)!), ...ranked.slice(pool.length)]);
      timings.mmrMs = elapsed(started);
    }

    return { ranked, trace, vector, options };
  }

  /** Embeds a query with the same model as the chunks. */
  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await (await this.embedder()).embed([query]);
    return vector!;
  }

  /** The `k` full papers nearest a vector, unfiltered, each with the cosine of its nearest chunk. */
  async nearestPapers(vector: Float32Array, k: number): Promise<Array<{ paperId: string; cosine: number }>> {
    // The index scores cosine as (1 + cosine) / 2.
    const rows = await this.dense(vector, k, paperFilterParams(null), false, 'max');
    return rows.map((row) => ({ paperId: row.paperId, cosine: 2 * row.score - 1 }));
  }

  /** How many chunks the vector index holds (cached for a minute). */
  async chunkCount(): Promise<number> {
    return (await this.indexSizes()).chunks;
  }

  /** Paper and chunk counts, cached for a minute: once the over-fetch reaches them the index has given everything. */
  private async indexSizes(): Promise<{ papers: number; chunks: number }> {
    if (!this.sizes || Date.now() - this.sizes.at > 60_000) {
      const [row] = await this.executor.read<{ papers: number; chunks: number }>(queries().indexSizes({}));
      this.sizes = { papers: row?.papers ?? 0, chunks: row?.chunks ?? 0, at: Date.now() };
    }
    return this.sizes;
  }

  private async sparse(
    luceneQuery: string,
    k: number,
    params: PaperFilterParams,
  ): Promise<Array<{ paperId: string; score: number }>> {
    const narrowed = Object.values(params).some((value) => value !== null);
    const { papers } = await this.indexSizes();
    // Filters apply after Lucene ranks the whole index: over-fetch, and fetch more while filters leave too few.
    let limit = narrowed ? Math.min(Math.max(k * 5, 500), Math.max(papers, k)) : k;
    for (;;) {
      const rows = await this.executor.read<{ paperId: string; score: number }>(
        queries().sparsePapers({ query: luceneQuery, k, limit, ...params }),
      );
      if (rows.length >= k || !narrowed || limit >= papers) return rows;
      limit = Math.min(limit * 4, papers);
    }
  }

  private async dense(
    vector: Float32Array,
    k: number,
    params: PaperFilterParams,
    narrowed: boolean,
    aggregation: 'max' | 'sum',
  ): Promise<Array<{ paperId: string; score: number }>> {
    // Several chunks per paper: ask for more chunks than papers wanted.
    const chunkK = k * 3;
    const { chunks } = await this.indexSizes();
    const MAX_APPROXIMATE = 10_000;
    let limit = narrowed ? Math.min(Math.max(chunkK * 4, 1000), Math.max(chunks, chunkK)) : chunkK;
    let rows: Array<{ chunkId: string; paperId: string; score: number }> = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      rows = await this.executor.read(
        queries().denseChunks({
          vector: Array.from(vector),
          k: chunkK,
          limit: Math.min(limit, MAX_APPROXIMATE),
          ...params,
        }),
      );
      if (new Set(rows.map((row) => row.paperId)).size >= k || !narrowed || limit >= Math.min(chunks, MAX_APPROXIMATE))
        break;
      limit = Math.min(limit * 4, chunks);
    }
    // Narrow filters over a large index: rank the filtered chunks exactly instead.
    if (narrowed && limit < chunks && new Set(rows.map((row) => row.paperId)).size < k) {
      rows = await this.executor.read(queries().denseChunksExact({ vector: Array.from(vector), k: chunkK, ...params }));
    }
    return aggregateChunks(rows, aggregation).slice(0, k);
  }

  private async papers(ids: string[]): Promise<Map<string, PaperRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids }));
    return new Map(rows.map((row) => [row.paper.id, row.paper]));
  }

  private async paperTexts(ids: string[]): Promise<string[]> {
    const papers = await this.papers(ids);
    return ids
      .map((id) => papers.get(id))
      .filter(Boolean)
      .map((paper) => `${paper!.title ?? ''} ${paper!.abstract ?? ''}`);
  }

  /** The best passages of given papers for a query vector. */
  async passages(ids: string[], vector: Float32Array, perPaper: number): Promise<Map<string, Passage[]>> {
    const rows = await this.executor.read<{ paperId: string; passages: Passage[] }>(
      queries().paperPassages({ paperIds: ids, vector: Array.from(vector), perPaper }),
    );
    return new Map(rows.map((row) => [row.paperId, row.passages]));
  }

  /** Paper vectors: the normalised mean of each paper's chunk embeddings. */
  async paperVectors(ids: string[]): Promise<Map<string, Float32Array>> {
    const rows = await this.executor.read<{ paperId: string; embedding: number[] }>(
      queries().paperVectors({ paperIds: ids }),
    );
    const sums = new Map<string, Float32Array>();
    for (const row of rows) {
      const sum = sums.get(row.paperId) ?? new Float32Array(row.embedding.length);
      row.embedding.forEach((value, index) => {
        sum[index]! += value;
      });
      sums.set(row.paperId, sum);
    }
    for (const sum of sums.values()) {
      const norm = Math.hypot(...sum) || 1;
      for (let i = 0; i < sum.length; i += 1) sum[i]! /= norm;
    }
    return sums;
  }

  /** Document frequencies per collection set, computed once from the graph and kept in memory. */
  async documentFrequencies(collections: string[] | null): Promise<DocumentFrequencies> {
    const key = collections ? [...collections].sort().join('\u0000') : '*';
    let pending = this.frequencies.get(key);
    if (!pending) {
      pending = readDocumentFrequencies(this.executor, collections);
      this.frequencies.set(key, pending);
    }
    return pending;
  }

  /** Forget cached corpus statistics (after an ingest). */
  invalidate(): void {
    this.frequencies.clear();
  }
}
