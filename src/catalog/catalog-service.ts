import type {
  AuthorRow,
  ChunkRow,
  EvidencePaper,
  InstitutionRow,
  PaperFilter,
  PaperRow,
  PaperSort,
  TopicRow,
  VenueRow,
} from '../domain';
import { pagesOf } from '../documents/document-text';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { type CompiledQuery, isFiltered, paperFilterParams, paperSortParams, queries } from '../graph/query-registry';
import { MAX_PAGE, type PageRequest } from '../paging';
import { closestNames, filterTextQuery, graphId, nameQuery, normaliseDoi } from '../text';

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

/** What the sufficiency score and citations need of a paper, with its citation counts. */
export interface EvidencePaperRow extends EvidencePaper {
  citedByCount: number;
  internalCitations: number;
}

/** Reads papers, authors and counts: the catalogue part of the API and the metadata the pipeline cites. */
/** Full-text hits read before a collection filter when looking for papers that mention given phrases. */
const MENTIONING_SCAN = 20_000;
/** Longest text a lookup by name takes (names are short; a longer text is a mistake or an attack). */
const MAX_NAME_SEARCH = 300;
/** How far apart (in positions, as Lucene's phrase slop) the words of one phrase may be for `near`. */
const NEAR_SLOP = 12;

export class CatalogService {
  constructor(private readonly executor: GraphExecutor) {}

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
    const [pending] = await this.executor.read<{ missing: number }>(queries().countChunksMissingEmbedding({}));
    return pending?.missing ?? 0;
  }

  /** Topics by name (full-text over names, best match first), with their numbers of full papers. */
  topicsNamed(text: string, limit: number): Promise<Array<{ topic: TopicRow; score: number; papers: number }>> {
    return this.named(text, limit, (params) => queries().topicsNamed(params));
  }

  /** Identified author records by name, best match first, with the paper count of the person they belong to. */
  authorsNamed(
    text: string,
    limit: number,
  ): Promise<Array<{ author: AuthorRow; score: number; papers: number; institutions: InstitutionRow[] }>> {
    return this.named(text, limit, (params) => queries().authorsNamed(params));
  }

  /** Ids of venues by name, best match first. */
  async venueIdsNamed(text: string, limit: number): Promise<string[]> {
    const rows = await this.named<{ id: string }>(text, limit, (params) => queries().venuesNamed(params));
    return rows.map((row) => row.id);
  }

  /** Institutions by name, best match first, with the number of their authors' full papers. */
  institutionsNamed(
    text: string,
    limit: number,
  ): Promise<Array<{ institution: InstitutionRow; score: number; papers: number }>> {
    return this.named(text, limit, (params) => queries().institutionsNamed(params));
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

  /**
   * What a filter names that the graph does not hold, each with the closest known names for a collection: the misses
   * a user should be told of instead of an empty answer. Reads nothing when the filter names nothing.
   */
  async unknownFilterValues(filter: PaperFilter): Promise<string[]> {
    const named = {
      collections: filter.collections?.length ? [...filter.collections] : null,
      topics: filter.topics?.length ? [...filter.topics] : null,
      authors: filter.authors?.length ? [...filter.authors] : null,
      venues: filter.venues?.length ? [...filter.venues] : null,
      institutions: filter.institutions?.length ? [...filter.institutions] : null,
    };
    if (Object.values(named).every((value) => value === null)) return [];
    const [row] = await this.executor.read<Record<keyof typeof named, string[]>>(queries().unknownFilterValues(named));
    if (!row) return [];
    const messages: string[] = [];
    if (row.collections.length > 0) {
      const known = (await this.collections()).map((c) => c.collection);
      for (const name of row.collections) {
        const close = closestNames(name, known);
        messages.push(
          `filter.collections: no collection "${name}"${close.length > 0 ? `; closest: ${close.join(', ')}` : ''}`,
        );
      }
    }
    const kinds = { topics: 'topic', authors: 'author', venues: 'venue', institutions: 'institution' } as const;
    for (const [field, kind] of Object.entries(kinds) as Array<[keyof typeof kinds, string]>) {
      for (const id of row[field]) messages.push(`filter.${field}: no ${kind} with id ${id}`);
    }
    return messages;
  }

  /**
   * Full papers whose title or abstract holds every content word of the text (the English analyser stems both), best
   * first, at most `limit`; `more` when the text matches more than that.
   */
  async textMatches(text: string, limit: number): Promise<{ scores: Map<string, number>; more: boolean }> {
    const query = filterTextQuery(text);
    if (!query)
      throw badInput(`filter.text needs a word to look for, got "${text.slice(0, 80)}"`, { argument: 'filter.text' });
    const rows = await this.executor.read<{ id: string; score: number }>(
      queries().papersMatchingText({ query, limit: limit + 1 }),
    );
    return { scores: new Map(rows.slice(0, limit).map((row) => [row.id, row.score])), more: rows.length > limit };
  }

  private async named<T extends object>(
    text: string,
    limit: number,
    query: (params: { query: string; scan: number; limit: number }) => CompiledQuery,
  ): Promise<T[]> {
    if (text.length > MAX_NAME_SEARCH)
      throw badInput(`search is longer than ${MAX_NAME_SEARCH} characters`, { argument: 'search' });
    const lucene = nameQuery(text);
    if (!lucene) throw badInput(`search needs a word to look for, got "${text.slice(0, 80)}"`, { argument: 'search' });
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
      throw badInput(`first must be an integer in [1, ${MAX_PAGE}], got ${limit}`, { argument: 'first' });
    // Ranked by Lucene, then re-ordered by counts among equal scores: read more hits than asked for.
    return this.executor.read<T>(query({ query: lucene, scan: Math.max(limit * 5, 100), limit }));
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

  /**
   * Papers whose title or abstract (or, with `inTitle`, whose title) mentions every one of the concepts, within the
   * collections, best matches first; at most `limit`. A concept is a list of forms (each a list of plain words, all
   * required; the index stems), any one of which names it.
   */
  async papersMentioning(
    phrases: ReadonlyArray<ReadonlyArray<readonly string[]>>,
    collections: readonly string[] | null,
    limit: number,
    options: { inTitle?: boolean; near?: boolean } = {},
  ): Promise<string[]> {
    const field = options.inTitle ? 'title:' : '';
    // near: the words of a phrase within a dozen positions of each other (a sloppy phrase), not anywhere in the text.
    const form = (words: readonly string[]) =>
      options.near && words.length > 1
        ? `${field}"${words.join(' ')}"~${NEAR_SLOP}`
        : `${field}(${words.map((word) => `+${word}`).join(' ')})`;
    // Each required phrase is one of its forms (a concept's words, or the acronym the question defined for it).
    const clauses = phrases
      .map((forms) =>
        forms.map((words) => words.filter((word) => /^[\p{L}\p{N}]+$/u.test(word))).filter((words) => words.length > 0),
      )
      .filter((forms) => forms.length > 0)
      .map((forms) => (forms.length === 1 ? `+${form(forms[0]!)}` : `+(${forms.map(form).join(' ')})`));
    if (clauses.length === 0) return [];
    const rows = await this.executor.read<{ id: string }>(
      queries().papersMentioning({
        query: [...new Set(clauses)].join(' '),
        collections: collections ? [...collections] : null,
        limit,
        // Every hit when a collection filter follows (Lucene's limit comes first); just enough otherwise.
        scan: collections ? MENTIONING_SCAN : limit,
      }),
    );
    return rows.map((row) => row.id);
  }

  /** Title and abstract of each paper, one text per id. */
  async paperTexts(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ id: string; text: string }>(queries().paperTexts({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.id, row.text]));
  }

  /** Citations between a paper of `a` and a paper of `b`, either direction: at most `limit` pairs (a's id, b's id). */
  async citationLinks(a: readonly string[], b: readonly string[], limit = 1): Promise<Array<{ a: string; b: string }>> {
    if (a.length === 0 || b.length === 0) return [];
    return this.executor.read<{ a: string; b: string }>(queries().citationLink({ a: [...a], b: [...b], limit }));
  }

  /** The metadata answers cite and the sufficiency score weighs, for papers behind evidence. */
  async evidencePapers(ids: readonly string[]): Promise<Map<string, EvidencePaperRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<EvidencePaperRow>(queries().evidencePapers({ ids: [...ids] }));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The stored embeddings of chunks (computed at ingest), so comparing passages needs no model run. */
  async chunkEmbeddings(ids: readonly string[]): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ id: string; embedding: number[] }>(
      queries().chunkEmbeddings({ ids: [...ids] }),
    );
    return new Map(rows.map((row) => [row.id, Float32Array.from(row.embedding)]));
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
  };
}
