import { type Embedder, meanVector } from '../embedding/embedder';
import { COMPANION_VECTORS } from '../embedding/embedding-space';
import { similarityScale, type SimilarityScale } from '../embedding/similarity-scale';
import type { SpladeEncoder } from '../embedding/splade';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { isFiltered, paperFilterParams } from '../graph/query-registry';
import type { PaperFilter } from '../domain';
import { type DocumentFrequencies, feedbackTerms, validateTerms } from './expansion';
import { rankedList, weightedRrf, type RankedList } from './fusion';
import { buildLuceneQuery } from './query-text';
import { mmr } from './rerank';
import { parseJsonObject } from '../generation/llm';
import { expansionPrompt, hydePrompt } from '../generation/prompts';
import type { RequestContext } from '../request-context';
import { contentTerms } from '../text';
import {
  type Candidate,
  checkFirst,
  checkQueryText,
  elapsed,
  emptyTrace,
  type Passage,
  resolveOptions,
  type SearchOptions,
  type SearchResponse,
  type SearchResult,
  type SearchTrace,
} from './search-types';
import { GraphIndex } from './graph-index';
import { citationBoost, pagerankRerank } from './graph-rerank';

/**
 * The SPLADE list's weights (src/embedding/splade.ts, queryTerms): the least weight of a query word the model weighs
 * at nothing, and the share of its activation an implied word gets. Set once, not tuned (bench:fusion ablates the list).
 */
const SPLADE_FLOOR = 0.3;
const SPLADE_EXPANSION_WEIGHT = 0.3;

/** A second embedding model whose chunk vectors are a second dense list (CITEGRAPH_COMPANION_MODEL). */
export interface CompanionModel {
  readonly model: string;
  /** Its embedder; loading it fails when the graph's companion vectors are another model's. */
  readonly embedder: () => Promise<Embedder>;
}

/**
 * Hybrid retrieval over the graph's indexes: BM25 over papers and dense search over chunks (with a companion model, a
 * second dense list from its vectors), fused by weighted reciprocal rank fusion, then optional query expansion (pseudo-relevance feedback validated against the corpus),
 * citation-graph boosting, personalised PageRank over the candidates' similarity graph, and MMR diversification.
 */
export class SearchService {
  private readonly index: GraphIndex;

  constructor(
    private readonly executor: GraphExecutor,
    private readonly embedder: () => Promise<Embedder>,
    private readonly defaults: SearchOptions,
    private readonly companion: CompanionModel | null = null,
    private readonly splade: (() => Promise<SpladeEncoder>) | null = null,
  ) {
    this.index = new GraphIndex(executor);
  }

  /**
   * The dense query of HyDE (Gao et al. 2023, "Precise Zero-Shot Dense Retrieval without Relevance Labels"): the LLM
   * writes a passage as if it answered the query; the normalised mean of the passage's embedding and the query's is
   * searched with, so a passage the model gets wrong moves the query without replacing it. Null (and the trace says
   * why) without an LLM or when it fails.
   */
  private async hydeVector(
    ctx: RequestContext,
    query: string,
    queryVector: Float32Array,
    trace: SearchTrace,
  ): Promise<Float32Array | null> {
    if (!ctx.llm) {
      trace.hyde = { passage: null, skipped: 'no LLM is configured' };
      return null;
    }
    const started = process.hrtime.bigint();
    let passage: string;
    try {
      passage = (await ctx.llm.chat(hydePrompt(query), { maxTokens: 160 })).text.trim();
    } catch (error) {
      trace.hyde = { passage: null, skipped: `the LLM failed: ${(error as Error).message}` };
      return null;
    }
    trace.timings.hydeMs = elapsed(started);
    if (contentTerms(passage).length < 3) {
      trace.hyde = { passage, skipped: 'the LLM wrote no passage' };
      return null;
    }
    const [passageVector] = await (await this.embedder()).embed([passage], 'passage');
    const mean = meanVector([queryVector, passageVector!]);
    trace.hyde = { passage, skipped: mean ? null : "the passage's vector cancels the query's" };
    return mean;
  }

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
      this.index.papers(top.map((c) => c.id)),
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
      // Its rank and score in one retriever's list, or null when that list did not find it.
      const hit = (list: string) => {
        const entry = candidate.ranks[list];
        return entry ? { rank: entry.rank, score: entry.score ?? 0 } : null;
      };
      const sparse = hit('sparse');
      results.push({
        paper,
        rank: index + 1,
        score: candidate.score,
        passages: passages.get(candidate.id) ?? [],
        trace: {
          sparse,
          dense: hit('dense'),
          companion: hit('companion'),
          splade: hit('splade'),
          expanded: trace.expansionTerms.length > 0 ? sparse : null,
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
    else checkQueryText(query);

    // The companion model embeds the query on its own thread while the model does.
    const companionVector = options.dense ? this.companionQuery(query, trace, options.companion) : null;
    // Awaited below; should the model's own embedding fail first, its failure is not left unhandled.
    companionVector?.catch(() => undefined);
    const spladeQuery = options.splade ? this.spladeQuery(query, trace, options.spladeTerms) : null;
    spladeQuery?.catch(() => undefined);
    let started = process.hrtime.bigint();
    const vector =
      options.dense || options.pagerank || options.mmr || options.passages > 0 ? await this.embedQuery(query) : null;
    timings.embedMs = elapsed(started);

    const lists: RankedList[] = [];
    if (options.sparse && luceneQuery) {
      started = process.hrtime.bigint();
      const sparseHits = await this.index.sparse(luceneQuery, depth, params);
      timings.sparseMs = elapsed(started);
      trace.luceneQuery = luceneQuery;
      trace.counts.sparse = sparseHits.length;
      lists.push(rankedList('sparse', options.sparseWeight, sparseHits));
    }
    if (options.dense && vector) {
      const companion = await companionVector;
      // The dense weight is split evenly between the two models' lists.
      const weight = companion ? options.denseWeight / 2 : options.denseWeight;
      started = process.hrtime.bigint();
      // The two vector indexes are read side by side.
      const denseVector = (options.hyde ? await this.hydeVector(ctx, query, vector, trace) : null) ?? vector;
      const [denseHits, companionHits] = await Promise.all([
        this.index.dense(denseVector, depth, params, isFiltered(filter), options.aggregation),
        companion
          ? this.index.dense(companion, depth, params, isFiltered(filter), options.aggregation, COMPANION_VECTORS)
          : null,
      ]);
      timings.denseMs = elapsed(started);
      trace.counts.dense = denseHits.length;
      lists.push(rankedList('dense', weight, denseHits));
      if (companionHits) {
        trace.counts.companion = companionHits.length;
        lists.push(rankedList('companion', weight, companionHits));
      }
    }

    const spladeLucene = await spladeQuery;
    if (spladeLucene) {
      started = process.hrtime.bigint();
      const spladeHits = await this.index.sparse(spladeLucene, depth, params);
      timings.spladeMs = elapsed(started);
      trace.counts.splade = spladeHits.length;
      lists.push(rankedList('splade', options.spladeWeight, spladeHits));
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
        candidates = feedbackTerms(
          query,
          await this.index.paperTexts(firstPass),
          frequencies,
          options.expansionTerms * 2,
        );
      }
      const chosen = validateTerms(candidates, frequencies, options.expansionTau).slice(0, options.expansionTerms);
      trace.expansionCandidates = candidates;
      trace.expansionTerms = chosen;
      if (chosen.length > 0) {
        const expandedQuery = buildLuceneQuery(query, chosen, options.expansionWeight);
        const expandedHits = await this.index.sparse(expandedQuery, depth, params);
        trace.luceneQuery = expandedQuery;
        // The expanded query replaces the plain sparse list: BM25(q) + w·BM25(q_exp) in one Lucene query.
        const index = lists.findIndex((list) => list.name === 'sparse');
        lists[index] = rankedList('sparse', options.sparseWeight, expandedHits);
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

  /**
   * The query embedded by the companion model, or null when there is none or its list cannot be fused (its vectors
   * are another model's, or do not cover every chunk yet); the trace says which.
   */
  private async companionQuery(query: string, trace: SearchTrace, wanted: boolean): Promise<Float32Array | null> {
    if (!this.companion) return null;
    const note = (skipped: string | null) => {
      trace.companion = { model: this.companion!.model, fused: skipped === null, skipped };
    };
    if (!wanted) {
      note('the search asked for none (companion: false)');
      return null;
    }
    if (!(await this.index.companionComplete())) {
      note(`some chunks have no ${this.companion.model} vector yet: run \`citegraph embed\``);
      return null;
    }
    const started = process.hrtime.bigint();
    let embedder: Embedder;
    try {
      embedder = await this.companion.embedder();
    } catch (error) {
      note(error instanceof Error ? error.message : String(error));
      return null;
    }
    const [vector] = await embedder.embed([query], 'query');
    trace.timings.companionEmbedMs = elapsed(started);
    note(null);
    return vector!;
  }

  /**
   * The query's SPLADE terms as a Lucene query, each boosted by its weight (its own words weighed by the model, then
   * words it implies at a fraction of theirs; every term is plain lower-case letters or digits, so nothing can be
   * injected), or null when the model cannot be loaded or finds no term; the trace says which.
   */
  private async spladeQuery(query: string, trace: SearchTrace, limit: number): Promise<string | null> {
    const skip = (reason: string) => {
      trace.splade = { terms: [], skipped: reason };
      return null;
    };
    if (!this.splade) return skip('this service has no SPLADE model');
    const started = process.hrtime.bigint();
    let encoder: SpladeEncoder;
    try {
      encoder = await this.splade();
    } catch (error) {
      return skip(error instanceof Error ? error.message : String(error));
    }
    const terms = await encoder.queryTerms(query, [...new Set(contentTerms(query))], {
      limit,
      floor: SPLADE_FLOOR,
      expansionWeight: SPLADE_EXPANSION_WEIGHT,
    });
    trace.timings.spladeEncodeMs = elapsed(started);
    if (terms.length === 0) return skip('the query has no SPLADE terms');
    trace.splade = {
      terms: terms.map(({ term, weight }) => ({ term, weight: Number(weight.toFixed(3)) })),
      skipped: null,
    };
    return terms.map(({ term, weight }) => `${term}^${weight.toFixed(3)}`).join(' ');
  }

  /** The served model's cosines on MiniLM's scale (src/embedding/similarity-scale.ts), for thresholds. */
  async similarityScale(): Promise<SimilarityScale> {
    return similarityScale((await this.embedder()).modelName);
  }

  /** Embeds a query with the same model as the chunks. */
  async embedQuery(query: string): Promise<Float32Array> {
    const [vector] = await (await this.embedder()).embed([query], 'query');
    return vector!;
  }

  /** The `k` full papers nearest a vector, unfiltered, each with the cosine of its nearest chunk. */
  nearestPapers(vector: Float32Array, k: number): Promise<Array<{ paperId: string; cosine: number }>> {
    return this.index.nearestPapers(vector, k);
  }

  /** How many chunks the vector index holds (cached for a minute). */
  chunkCount(): Promise<number> {
    return this.index.chunkCount();
  }

  /** The best passages of given papers for a query vector. */
  passages(ids: string[], vector: Float32Array, perPaper: number): Promise<Map<string, Passage[]>> {
    return this.index.passages(ids, vector, perPaper);
  }

  /** Paper vectors: the normalised mean of each paper's chunk embeddings. */
  paperVectors(ids: string[]): Promise<Map<string, Float32Array>> {
    return this.index.paperVectors(ids);
  }

  /** Document frequencies per collection set, computed once from the graph and kept in memory. */
  documentFrequencies(collections: string[] | null): Promise<DocumentFrequencies> {
    return this.index.documentFrequencies(collections);
  }

  /** Forget cached corpus statistics (after an ingest). */
  invalidate(): void {
    this.index.invalidate();
  }
}
