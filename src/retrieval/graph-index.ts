import type { PaperRow } from '../domain';
import { MODEL_VECTORS, type VectorField } from '../embedding/embedding-space';
import type { GraphExecutor } from '../graph/executor';
import { type PaperFilterParams, paperFilterParams, queries } from '../graph/query-registry';
import { readDocumentFrequencies } from './corpus-statistics';
import type { DocumentFrequencies } from './expansion';
import { aggregateChunks } from './fusion';
import type { Passage } from './search-types';

/**
 * The graph's search indexes as retrieval reads them: BM25 over papers and the chunk vector index (over-fetching
 * while filters leave too few, exact cosine when a filter is narrow), papers and passages by id, paper vectors, and
 * the corpus statistics query expansion validates against (cached per collection set).
 */
export class GraphIndex {
  private readonly frequencies = new Map<string, Promise<DocumentFrequencies>>();
  private sizes: { papers: number; chunks: number; at: number } | undefined;
  private companion: { complete: boolean; at: number } | undefined;

  constructor(private readonly executor: GraphExecutor) {}

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
  async indexSizes(): Promise<{ papers: number; chunks: number }> {
    if (!this.sizes || Date.now() - this.sizes.at > 60_000) {
      const [row] = await this.executor.read<{ papers: number; chunks: number }>(queries().indexSizes({}));
      this.sizes = { papers: row?.papers ?? 0, chunks: row?.chunks ?? 0, at: Date.now() };
    }
    return this.sizes;
  }

  /**
   * Whether every chunk with the model's vector has the companion model's too: a scan of the chunks (60 ms over the
   * bench graph's 28,910), read once, then again in the background when a minute old, so that no search waits for it
   * after the first; forgotten after an ingest.
   */
  async companionComplete(): Promise<boolean> {
    const read = async (): Promise<boolean> => {
      const [row] = await this.executor.read<{ missing: number }>(queries().countCompanionPending({}));
      const complete = (row?.missing ?? 1) === 0;
      this.companion = { complete, at: Date.now() };
      return complete;
    };
    if (!this.companion) return read();
    if (Date.now() - this.companion.at > 60_000) {
      this.companion.at = Date.now(); // one refresh at a time
      read().catch(() => undefined); // a failed read keeps the last answer until the next refresh
    }
    return this.companion.complete;
  }

  async sparse(
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

  async dense(
    vector: Float32Array,
    k: number,
    params: PaperFilterParams,
    narrowed: boolean,
    aggregation: 'max' | 'sum',
    field: VectorField = MODEL_VECTORS,
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
          index: field.index,
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
      rows = await this.executor.read(
        queries().denseChunksExact({ property: field.property, vector: Array.from(vector), k: chunkK, ...params }),
      );
    }
    return aggregateChunks(rows, aggregation).slice(0, k);
  }

  async papers(ids: string[]): Promise<Map<string, PaperRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids }));
    return new Map(rows.map((row) => [row.paper.id, row.paper]));
  }

  async paperTexts(ids: string[]): Promise<string[]> {
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
    this.companion = undefined;
  }
}
