import DataLoader from 'dataloader';
import type {
  Authorship,
  AuthorProfile,
  CatalogService,
  PaperDocumentRow,
  PaperTopic,
} from '../catalog/catalog-service';
import type { ChunkRow, PaperRow, VenueRow } from '../domain';
import { MAX_PAGE } from '../paging';

/** Most chunks `Paper.chunks` lists. */
export const MAX_CHUNKS_PER_PAPER = 1000;

/**
 * Per-request batching of the fields every list of papers or authors asks for: one query for the authors of a whole
 * page of papers instead of one per paper (DataLoader). Made fresh for each request, so nothing is cached across.
 */
export interface Loaders {
  readonly authorsOfPaper: DataLoader<string, Authorship[]>;
  readonly venueOfPaper: DataLoader<string, VenueRow | null>;
  readonly topicsOfPaper: DataLoader<string, PaperTopic[]>;
  readonly chunksOfPaper: DataLoader<string, ChunkRow[]>;
  readonly documentOfPaper: DataLoader<string, PaperDocumentRow | null>;
  readonly author: DataLoader<string, AuthorProfile | null>;
  readonly paper: DataLoader<string, PaperRow | null>;
}

function batch<V>(read: (ids: readonly string[]) => Promise<Map<string, V>>, missing: V) {
  return async (ids: readonly string[]): Promise<V[]> => {
    const found = await read(ids);
    return ids.map((id) => found.get(id) ?? missing);
  };
}

export function createLoaders(catalog: CatalogService): Loaders {
  return {
    authorsOfPaper: new DataLoader(batch((ids) => catalog.authorsOfPapers(ids), [])),
    venueOfPaper: new DataLoader(batch<VenueRow | null>((ids) => catalog.venuesOfPapers(ids), null)),
    topicsOfPaper: new DataLoader(batch((ids) => catalog.topicsOfPapers(ids, MAX_PAGE), [])),
    chunksOfPaper: new DataLoader(batch((ids) => catalog.chunksOfPapers(ids, MAX_CHUNKS_PER_PAPER), [])),
    documentOfPaper: new DataLoader(batch<PaperDocumentRow | null>((ids) => catalog.documentsOfPapers(ids), null)),
    author: new DataLoader(batch<AuthorProfile | null>((ids) => catalog.authorsByIds(ids), null)),
    paper: new DataLoader(
      batch<PaperRow | null>(
        async (ids) => new Map((await catalog.papersByIds(ids)).map((paper) => [paper.id, paper])),
        null,
      ),
    ),
  };
}
