import type { EvidencePaper, PaperRow } from '../domain';
import { cosine } from '../embedding/embedder';
import { weightedRrf } from '../retrieval/fusion';
import type { Passage } from '../retrieval/search-types';
import { contentTerms, stem } from '../text';

/** A chunk of a set document as the set search ranks it: text, offsets into the document, pages, embedding. */
export interface SetChunkRow extends Pick<
  Passage,
  'text' | 'start' | 'end' | 'ordinal' | 'section' | 'pageStart' | 'pageEnd'
> {
  id: string;
  documentId: string;
  sectionKind: string | null;
  embedding: number[] | null;
}

/** What a result or a citation shows of a set document. */
export interface SetDocumentRow {
  id: string;
  setId: string;
  documentName: string;
  documentFormat: string;
  title: string | null;
  year: number | null;
  doi: string | null;
  documentAuthors: string[] | null;
  pageCount: number | null;
  abstract: string | null;
}

/** How one retriever ranked a set document: 1-based rank and raw score. */
export interface SetRank {
  rank: number;
  score: number;
}

export interface SetHit {
  documentId: string;
  /** Weighted reciprocal rank fusion of the two retrievers, the same formula as the shared search. */
  score: number;
  sparse: SetRank | null;
  dense: SetRank | null;
}

export interface SetRankOptions {
  sparse: boolean;
  dense: boolean;
  sparseWeight: number;
  denseWeight: number;
  rrfK: number;
}

/** The source a set document's citations and results name. */
export const SET_SOURCE = 'document-set';

/** Okapi BM25 parameters, as Lucene's defaults. */
const K1 = 1.2;
const B = 0.75;

const analyse = (text: string): string[] => contentTerms(text).map(stem);

/**
 * One request's view of private document sets: their chunks held in memory (a set is small, capped by settings) and
 * ranked there, so nothing of a set ever enters the shared full-text or vector indexes. Sparse ranking is BM25 over the
 * chunks (a document scores by its best chunk), dense ranking the exact cosine of the chunk embeddings; the two are
 * fused by weighted reciprocal rank fusion as the shared search does.
 */
export class SetCorpus {
  private readonly termCounts: Array<Map<string, number>>;
  private readonly lengths: number[];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;
  private readonly vectors: Array<Float32Array | null>;

  constructor(
    readonly setIds: readonly string[],
    readonly documents: ReadonlyMap<string, SetDocumentRow>,
    readonly chunks: readonly SetChunkRow[],
  ) {
    this.termCounts = chunks.map((chunk) => {
      const counts = new Map<string, number>();
      const title = documents.get(chunk.documentId)?.title ?? '';
      for (const term of analyse(`${title} ${chunk.text}`)) counts.set(term, (counts.get(term) ?? 0) + 1);
      return counts;
    });
    this.lengths = this.termCounts.map((counts) => [...counts.values()].reduce((sum, n) => sum + n, 0));
    for (const counts of this.termCounts)
      for (const term of counts.keys()) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    this.averageLength = this.lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, this.lengths.length);
    this.vectors = chunks.map((chunk) => (chunk.embedding ? Float32Array.from(chunk.embedding) : null));
  }

  get size(): number {
    return this.documents.size;
  }

  has(documentId: string): boolean {
    return this.documents.has(documentId);
  }

  /** BM25 of every chunk that shares a term with the query, by chunk index. */
  private bm25(query: string): Map<number, number> {
    const scores = new Map<number, number>();
    const n = this.chunks.length;
    for (const term of new Set(analyse(query))) {
      const df = this.documentFrequency.get(term) ?? 0;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      this.termCounts.forEach((counts, index) => {
        const tf = counts.get(term) ?? 0;
        if (tf === 0) return;
        const norm = tf + K1 * (1 - B + (B * this.lengths[index]!) / (this.averageLength || 1));
        scores.set(index, (scores.get(index) ?? 0) + (idf * tf * (K1 + 1)) / norm);
      });
    }
    return scores;
  }

  /** Documents by their best chunk score, best first (ties by id). */
  private byDocument(scores: Map<number, number>): Array<{ id: string; score: number }> {
    const best = new Map<string, number>();
    for (const [index, score] of scores) {
      const id = this.chunks[index]!.documentId;
      best.set(id, Math.max(best.get(id) ?? -Infinity, score));
    }
    return [...best.entries()]
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /** The set documents for a query, best first: BM25 and cosine each rank them, weighted RRF fuses the two. */
  rank(query: string, vector: Float32Array | null, options: SetRankOptions, first: number): SetHit[] {
    const lists = [];
    if (options.sparse) {
      const sparse = this.byDocument(this.bm25(query));
      lists.push({
        name: 'sparse',
        weight: options.sparseWeight,
        ids: sparse.map((d) => d.id),
        scores: sparse.map((d) => d.score),
      });
    }
    if (options.dense && vector) {
      const cosines = new Map<number, number>();
      this.vectors.forEach((v, index) => {
        if (v) cosines.set(index, cosine(v, vector));
      });
      const dense = this.byDocument(cosines);
      lists.push({
        name: 'dense',
        weight: options.denseWeight,
        ids: dense.map((d) => d.id),
        scores: dense.map((d) => d.score),
      });
    }
    return weightedRrf(lists, options.rrfK)
      .slice(0, first)
      .map((item) => ({
        documentId: item.id,
        score: item.score,
        sparse: item.ranks.sparse ? { rank: item.ranks.sparse.rank, score: item.ranks.sparse.score ?? 0 } : null,
        dense: item.ranks.dense ? { rank: item.ranks.dense.rank, score: item.ranks.dense.score ?? 0 } : null,
      }));
  }

  /**
   * The best passages of set documents for a query vector; scores are cosines normalised to [0, 1] as Neo4j reports
   * them for the shared graph's passages.
   */
  passages(documentIds: readonly string[], vector: Float32Array, perDocument: number): Map<string, Passage[]> {
    const wanted = new Set(documentIds);
    const byDocument = new Map<string, Passage[]>();
    this.chunks.forEach((chunk, index) => {
      if (!wanted.has(chunk.documentId)) return;
      const v = this.vectors[index];
      const list = byDocument.get(chunk.documentId) ?? [];
      list.push({
        chunkId: chunk.id,
        text: chunk.text,
        start: chunk.start,
        end: chunk.end,
        ordinal: chunk.ordinal,
        section: chunk.section,
        sectionKind: chunk.sectionKind,
        field: 'text',
        pageStart: chunk.pageStart,
        pageEnd: chunk.pageEnd,
        score: v ? (cosine(v, vector) + 1) / 2 : 0,
      });
      byDocument.set(chunk.documentId, list);
    });
    for (const [id, list] of byDocument) {
      byDocument.set(id, list.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal).slice(0, perDocument));
    }
    return byDocument;
  }

  /** A set document as a search result's paper: no graph metadata, `source: document-set`. */
  paperRow(documentId: string): PaperRow | null {
    const doc = this.documents.get(documentId);
    if (!doc) return null;
    return {
      id: doc.id,
      stub: false,
      doi: doc.doi,
      title: doc.title ?? doc.documentName,
      abstract: doc.abstract,
      year: doc.year,
      type: 'document',
      source: SET_SOURCE,
      collections: [],
      citedByCount: 0,
      isRetracted: false,
    };
  }

  /** A set document as the paper of a piece of evidence. */
  evidencePaper(documentId: string): EvidencePaper | null {
    const doc = this.documents.get(documentId);
    if (!doc) return null;
    return {
      id: doc.id,
      title: doc.title ?? doc.documentName,
      year: doc.year,
      doi: doc.doi,
      venue: null,
      authors: doc.documentAuthors?.length ?? null,
      source: SET_SOURCE,
      fetchedAt: null,
    };
  }
}
