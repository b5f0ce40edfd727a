import type { EvidencePaper, PaperFilter } from '../domain';
import type { Corpus } from '../retrieval/corpus';
import type { RequestContext } from '../request-context';
import {
  checkQueryText,
  elapsed,
  emptyTrace,
  type Passage,
  type SearchOptions,
  type SearchResponse,
  type SearchResult,
} from '../retrieval/search-types';
import type { SetCorpus } from './set-corpus';

/**
 * A caller's private document sets as a corpus: their documents ranked in memory by BM25 and exact cosine, fused by
 * the same weighted RRF as the shared search (so scores compare with the graph's). Graph metadata filters do not
 * apply: set documents have none.
 */
export class DocumentsCorpus implements Corpus {
  readonly kind = 'documents' as const;

  constructor(
    readonly documents: SetCorpus,
    private readonly embedQuery: (text: string) => Promise<Float32Array>,
  ) {}

  /** How many documents the sets hold. */
  get size(): number {
    return this.documents.size;
  }

  async search(
    _ctx: RequestContext,
    query: string,
    first: number,
    _filter: PaperFilter | null | undefined,
    options: SearchOptions,
  ): Promise<SearchResponse> {
    checkQueryText(query);
    const started = process.hrtime.bigint();
    const vector = await this.embedQuery(query);
    const hits = this.documents.rank(query, vector, options, first);
    const passages =
      options.passages > 0
        ? this.documents.passages(
            hits.map((hit) => hit.documentId),
            vector,
            options.passages,
          )
        : new Map<string, Passage[]>();
    const results: SearchResult[] = hits.flatMap((hit, index) => {
      const paper = this.documents.paperRow(hit.documentId);
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
            companion: null,
            splade: null,
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
    const trace = emptyTrace(query, options);
    trace.timings.documentSetMs = elapsed(started);
    trace.counts.sparse = hits.filter((hit) => hit.sparse).length;
    trace.counts.dense = hits.filter((hit) => hit.dense).length;
    trace.counts.fused = hits.length;
    return { results, trace };
  }

  passages(ids: readonly string[], vector: Float32Array, perPaper: number): Promise<Map<string, Passage[]>> {
    return Promise.resolve(this.documents.passages(ids, vector, perPaper));
  }

  evidencePapers(ids: readonly string[]): Promise<Map<string, EvidencePaper>> {
    const papers = new Map(
      ids.flatMap((id) => {
        const paper = this.documents.evidencePaper(id);
        return paper ? [[id, paper] as const] : [];
      }),
    );
    return Promise.resolve(papers);
  }
}

/** The private documents of a search or an ask, and whether the shared graph is searched with them. */
export interface DocumentScope {
  readonly corpus: DocumentsCorpus;
  readonly withSharedGraph: boolean;
}

/** The corpora a search or an ask reads, in the order their results merge: the graph, the documents, or both. */
export function corporaOf(documents: DocumentScope | null | undefined, graph: Corpus): Corpus[] {
  if (!documents) return [graph];
  return documents.withSharedGraph ? [graph, documents.corpus] : [documents.corpus];
}
