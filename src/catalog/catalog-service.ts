import type {
  AuthorRow,
  ChunkRow,
  InstitutionRow,
  PaperFilter,
  PaperRow,
  PaperSort,
  TopicRow,
  VenueRow,
} from '../domain';
import { pagesOf } from '../documents/document-text';
import { MODEL_VECTORS } from '../embedding/embedding-space';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { isFiltered, paperFilterParams, paperSortParams, queries } from '../graph/query-registry';
import { MAX_PAGE, type PageRequest } from '../paging';
import { graphId, normaliseDoi } from '../text';
import { EvidenceReads } from './evidence-reads';
import { NameLookup } from './name-lookup';

/** A page of a list whose size is counted only when a client asks for it. */
export interface LazyPage<T> {
  items: T[];
  skip: number;
  hasNextPage: boolean;
  totalCount: () => Promise<number>;
}

/** An author of a paper: who, and where in the author list. */
export interface Authorship {
  author: AuthorRow;
  /** first, middle or last, as the source reports it. */
  position: string;
  /** 0-based place in the author list. */
  order: number;
}

/** A topic of a paper with the strength of the assignment. */
export interface PaperTopic {
  topic: TopicRow;
  score: number;
}

/** An author with institutions and number of papers. */
export interface AuthorProfile {
  author: AuthorRow;
  institutions: InstitutionRow[];
  paperCount: number;
}

/** Reads papers, authors and counts: the catalogue part of the API and the metadata the pipeline cites. */
export class CatalogService {
  /** Lookups by name, and the check of the names a filter gives (see NameLookup). */
  readonly names: NameLookup;
  /** What the ask pipeline reads to connect concepts and cite papers (see EvidenceReads). */
  readonly evidence: EvidenceReads;

  constructor(private readonly executor: GraphExecutor) {
    this.names = new NameLookup(executor, () => this.collections());
    this.evidence = new EvidenceReads(executor);
  }

  async health(): Promise<{ name: string; version: string; edition: string }> {
    const rows = await this.executor.read<{ name: string; version: string; edition: string }>(queries().health({}));
    return rows[0] ?? { name: 'unknown', version: 'unknown', edition: 'unknown' };
  }

  /** Papers per collection (without the counts over the whole graph that `stats` adds). */
  collections(): Promise<Array<{ collection: string; papers: number }>> {
    return this.executor.read<{ collection: string; papers: number }>(queries().collectionStats({}));
  }

  async stats(): Promise<{
    counts: Record<string, number>;
    collections: Array<{ collection: string; papers: number }>;
  }> {
    const [counts] = await this.executor.read<Record<string, number>>(queries().stats({}));
    return { counts: counts ?? {}, collections: await this.collections() };
  }

  /** Chunks waiting for `citegraph embed` (ingested with deferred embedding, or bulk-loaded): a scan of every chunk. */
  async pendingChunks(): Promise<number> {
    const [pending] = await this.executor.read<{ missing: number }>(
      queries().countChunksMissingEmbedding({ property: MODEL_VECTORS.property }),
    );
    return pending?.missing ?? 0;
  }

  /** Chunks with the model's vector and none of the companion model's: a scan of every chunk. */
  async pendingCompanionChunks(): Promise<number> {
    const [pending] = await this.executor.read<{ missing: number }>(queries().countCompanionPending({}));
    return pending?.missing ?? 0;
  }

  async venueById(id: string): Promise<{ venue: VenueRow; papers: number } | null> {
    const [row] = await this.executor.read<{ venue: VenueRow; papers: number }>(
      queries().venueById({ id: graphId(id) }),
    );
    return row ?? null;
  }

  async institutionById(id: string): Promise<{ institution: InstitutionRow; papers: number } | null> {
    const [row] = await this.executor.read<{ institution: InstitutionRow; papers: number }>(
      queries().institutionById({ id: graphId(id) }),
    );
    return row ?? null;
  }

  async paperById(id: string): Promise<PaperRow | null> {
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().paperById({ id: graphId(id) }));
    return rows[0]?.paper ?? null;
  }

  async paperByDoi(doi: string): Promise<PaperRow | null> {
    const normal = normaliseDoi(doi);
    if (!normal) throw badInput(`not a DOI: ${doi.slice(0, 200)}`, { argument: 'doi' });
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().paperByDoi({ doi: normal }));
    return rows[0]?.paper ?? null;
  }

  /** Papers by id, in the order asked, missing ids left out. */
  async papersByIds(ids: readonly string[]): Promise<PaperRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids: [...ids] }));
    const byId = new Map(rows.map((row) => [row.paper.id, row.paper]));
    return ids.map((id) => byId.get(id)).filter((paper): paper is PaperRow => paper !== undefined);
  }

  /** Graph ids of papers known by these DOIs. */
  async paperIdsByDoi(dois: readonly string[]): Promise<Array<{ doi: string; id: string }>> {
    if (dois.length === 0) return [];
    return this.executor.read<{ doi: string; id: string }>(queries().papersByDoi({ dois: [...dois] }));
  }

  /** The authors of each paper, in author-list order (one query for many papers: the resolvers batch by it). */
  async authorsOfPapers(ids: readonly string[]): Promise<Map<string, Authorship[]>> {
    const out = new Map<string, Authorship[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await this.executor.read<Authorship & { paperId: string }>(queries().papersAuthors({ ids: [...ids] }));
    for (const { paperId, ...authorship } of rows) out.get(paperId)?.push(authorship);
    return out;
  }

  /** The venue of each paper (absent when it has none). */
  async venuesOfPapers(ids: readonly string[]): Promise<Map<string, VenueRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ paperId: string; venue: VenueRow }>(
      queries().papersVenues({ ids: [...ids] }),
    );
    return new Map(rows.map((row) => [row.paperId, row.venue]));
  }

  /** The topics of each paper, strongest first, at most `limit` each. */
  async topicsOfPapers(ids: readonly string[], limit = MAX_PAGE): Promise<Map<string, PaperTopic[]>> {
    const out = new Map<string, PaperTopic[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await this.executor.read<{ paperId: string; topics: PaperTopic[] }>(
      queries().papersTopics({ ids: [...ids], limit: Math.min(limit, MAX_PAGE) }),
    );
    for (const row of rows) out.set(row.paperId, row.topics);
    return out;
  }

  /** The chunks of each paper in reading order, at most `limit` each. */
  /** The documents behind papers' full texts (a paper without one is absent from the map). */
  async documentsOfPapers(ids: readonly string[]): Promise<Map<string, PaperDocumentRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<StoredDocumentRow>(queries().papersDocuments({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.id, documentRow(row)]));
  }

  async chunksOfPapers(ids: readonly string[], limit: number): Promise<Map<string, ChunkRow[]>> {
    const out = new Map<string, ChunkRow[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await this.executor.read<{ paperId: string; chunks: ChunkRow[] }>(
      queries().papersChunks({ ids: [...ids], limit }),
    );
    for (const row of rows) out.set(row.paperId, row.chunks);
    return out;
  }

  /** Authors by id with their institutions and number of papers. */
  async authorsByIds(ids: readonly string[]): Promise<Map<string, AuthorProfile>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<AuthorProfile>(queries().authorsByIds({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.author.id, row]));
  }

  async author(id: string): Promise<AuthorProfile | null> {
    return (await this.authorsByIds([id])).get(id) ?? null;
  }

  /**
   * Full papers in the filter, one offset page in the sort's order (by id without one, read in index order); the
   * total is counted on demand.
   */
  async papers(
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    sort: PaperSort | null = null,
  ): Promise<LazyPage<PaperRow>> {
    const params = paperFilterParams(filter);
    const window = { skip: page.skip, limit: page.limit + 1 };
    const rows = await this.executor.read<{ paper: PaperRow }>(
      sort
        ? queries().papersPageSorted({ ...params, ...paperSortParams(sort), ...window })
        : queries().papersPage({ ...params, ...window }),
    );
    return {
      items: rows.slice(0, page.limit).map((row) => row.paper),
      skip: page.skip,
      hasNextPage: rows.length > page.limit,
      totalCount: async () => {
        // With no filter, the count of full papers every write keeps.
        const [row] = await this.executor.read<{ total: number }>(
          isFiltered(filter) ? queries().papersCount(params) : queries().papersCountAll({}),
        );
        return row?.total ?? 0;
      },
    };
  }
}

/** A document as stored on its paper: parallel lists of pages and sections. */
export interface StoredDocumentRow {
  id: string;
  name: string;
  format: string;
  fullText: string;
  pageCount: number | null;
  pageStarts: number[];
  pageNumbers: number[];
  sectionTitles: string[];
  sectionKinds: string[];
  sectionStarts: number[];
  sectionEnds: number[];
  referenceEntries: number;
  arxiv: PaperDocumentRow['arxiv'];
}

export interface PaperDocumentRow {
  name: string;
  format: string;
  fullText: string;
  pageCount: number | null;
  sections: Array<{
    title: string;
    kind: string;
    start: number;
    end: number;
    pageStart: number | null;
    pageEnd: number | null;
  }>;
  referenceEntries: number;
  /** The arXiv stamp of a preprint's first page: identifier, version, category, date. */
  arxiv: { id: string; version: number | null; category: string | null; date: string | null } | null;
}

/** The stored parallel lists as one document with sections that know their pages. */
export function documentRow(row: StoredDocumentRow): PaperDocumentRow {
  const pages = row.pageStarts.map((start, index) => ({
    number: row.pageNumbers[index] ?? index + 1,
    start,
    end: row.pageStarts[index + 1] ?? row.fullText.length,
  }));
  return {
    name: row.name,
    format: row.format,
    fullText: row.fullText,
    pageCount: row.pageCount,
    sections: row.sectionTitles.map((title, index) => {
      const start = row.sectionStarts[index] ?? 0;
      const end = row.sectionEnds[index] ?? start;
      return { title, kind: row.sectionKinds[index] ?? 'other', start, end, ...pagesOf(pages, start, end) };
    }),
    referenceEntries: row.referenceEntries,
    arxiv: row.arxiv ?? null,
  };
}
