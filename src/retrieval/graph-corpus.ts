import type { EvidencePaper, PaperFilter } from '../domain';
import type { RequestContext } from '../request-context';
import type { Corpus } from './corpus';
import type { SearchService } from './search-service';
import type { Passage, SearchOptions, SearchResponse } from './search-types';

/** The shared graph as a corpus: hybrid search over Neo4j, passages by vector, citation metadata from the catalogue. */
export class GraphCorpus implements Corpus {
  readonly kind = 'graph' as const;

  constructor(
    private readonly searchService: SearchService,
    private readonly papers: (ids: readonly string[]) => Promise<Map<string, EvidencePaper>>,
  ) {}

  search(
    ctx: RequestContext,
    query: string,
    first: number,
    filter: PaperFilter | null | undefined,
    options: SearchOptions,
  ): Promise<SearchResponse> {
    return this.searchService.search(ctx, query, first, filter, options);
  }

  passages(ids: readonly string[], vector: Float32Array, perPaper: number): Promise<Map<string, Passage[]>> {
    return this.searchService.passages([...ids], vector, perPaper);
  }

  evidencePapers(ids: readonly string[]): Promise<Map<string, EvidencePaper>> {
    return this.papers(ids);
  }
}
