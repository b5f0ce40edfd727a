import type { GraphExecutor } from '../graph/executor';
import { type CompiledQuery, isFiltered, paperFilterParams, paperSortParams, queries } from '../graph/query-registry';
import { type LazySlice, MAX_PAGE, type PageRequest, type Slice } from '../paging';
import type { AuthorRow, PaperFilter, PaperRow, PaperSort, TopicRow, VenueRow } from '../domain';
import type { SearchService } from '../retrieval/search-service';
import { citationMetrics, wholeNumber } from './analytics-math';
import { People } from './people';
import { TopicSets } from './topic-sets';
import { Trends } from './trends';

/** A paper with its citation counts and the one it was ranked by (topPapers). */
export interface ScoredPaperRow {
  paper: PaperRow;
  internal: number;
  global: number;
  score: number;
}

/** A field the filtered papers can be grouped by. */
export type GroupField = 'YEAR' | 'TYPE' | 'COLLECTION' | 'TOPIC' | 'VENUE' | 'AUTHOR' | 'INSTITUTION' | 'COUNTRY';

export type CitationBasis = 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS';
/** What ranks authors: their number of papers or their papers' citations. */
export type AuthorRanking = 'PAPERS' | CitationBasis;

/** A ranked group of papers (a venue, an institution, an author) and a few of its papers. */
export interface PaperGroup {
  id: string;
  name: string | null;
  count: number;
  paperIds: string[];
}

/** Most people a collaboration network of the ask pipeline holds (the API's network has its own cap, MAX_NETWORK_NODES). */
export const MAX_COLLABORATION_NODES = 200;

/** Bibliometric and trend queries over the graph. */
export class AnalyticsService {
  /** Every paper on a topic phrase (see TopicSet). */
  readonly topics: TopicSets;
  /** The people behind author records (see Person). */
  readonly people: People;
  /** Papers per year: topics, topic phrases, emerging topics, the years the graph covers. */
  readonly trends: Trends;

  constructor(
    private readonly executor: GraphExecutor,
    search: SearchService,
  ) {
    this.topics = new TopicSets(executor, search);
    this.people = new People(executor);
    this.trends = new Trends(executor, this.topics);
  }

  private async slice<T>(query: CompiledQuery, page: PageRequest): Promise<Slice<T>> {
    const [row] = await this.executor.read<{ total: number; items: T[] }>(query);
    return { total: row?.total ?? 0, items: row?.items ?? [], ...page };
  }

  authorWorks(
    id: string,
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    sort: PaperSort | null = null,
  ): Promise<Slice<PaperRow>> {
    return this.papersOf('authorWorks', id, filter, page, sort);
  }

  /** A page of the papers of an author or a topic, filtered and sorted. */
  private papersOf(
    query: 'authorWorks' | 'topicPapers',
    id: string,
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    sort: PaperSort | null,
  ): Promise<Slice<PaperRow>> {
    return this.slice(queries()[query]({ id, ...paperFilterParams(filter), ...paperSortParams(sort), ...page }), page);
  }

  authorCoauthors(
    id: string,
    filter: PaperFilter | null | undefined,
    page: PageRequest,
  ): Promise<Slice<{ author: AuthorRow; joint: number }>> {
    return this.slice(queries().authorCoauthors({ id, ...paperFilterParams(filter), ...page }), page);
  }

  async authorMetrics(id: string, filter?: PaperFilter | null) {
    const [row] = await this.executor.read<{
      internal: number[];
      global: number[];
      firstYear: number | null;
      lastYear: number | null;
    }>(queries().authorMetrics({ id, ...paperFilterParams(filter) }));
    return citationMetrics(row);
  }

  authorTopics(id: string, first: number, minLevel: number | null) {
    if (minLevel !== null) wholeNumber(minLevel, 'minLevel', 0, 10);
    return this.executor.read<{ topic: TopicRow; papers: number; weight: number }>(
      queries().authorTopics({ id, limit: Math.min(first, MAX_PAGE), minLevel }),
    );
  }

  /** Full papers citing a paper, newest first unless a sort is given (no text filter here: no RELEVANCE). */
  paperCitedBy(id: string, page: PageRequest, sort: PaperSort | null = null): Promise<Slice<PaperRow>> {
    return this.slice(queries().paperCitedBy({ id, ...page, ...paperSortParams(sort), textScores: null }), page);
  }

  /** What a paper cites, full papers first and newest first unless a sort is given. */
  paperReferences(id: string, page: PageRequest, sort: PaperSort | null = null): Promise<Slice<PaperRow>> {
    return this.slice(queries().paperReferences({ id, ...page, ...paperSortParams(sort), textScores: null }), page);
  }

  paperCocited(id: string, page: PageRequest): Promise<Slice<{ paper: PaperRow; count: number }>> {
    return this.slice(queries().paperCocited({ id, ...page }), page);
  }

  paperCoupled(id: string, page: PageRequest): Promise<Slice<{ paper: PaperRow; count: number }>> {
    return this.slice(queries().paperCoupled({ id, ...page }), page);
  }

  /**
   * Related papers by the citation graph: co-citation counts fully, coupling by half (sharing references is weaker
   * evidence of relatedness than being cited together), a direct citation either way counts one.
   */
  async paperRelated(
    id: string,
    first: number,
  ): Promise<Array<{ paper: PaperRow; score: number; cocited: number; coupled: number; direct: boolean }>> {
    const page = { skip: 0, limit: 50 };
    const [cocited, coupled, citedBy, references] = await Promise.all([
      this.paperCocited(id, page),
      this.paperCoupled(id, page),
      this.paperCitedBy(id, page),
      this.paperReferences(id, { skip: 0, limit: 200 }),
    ]);
    const related = new Map<
      string,
      { paper: PaperRow; score: number; cocited: number; coupled: number; direct: boolean }
    >();
    const entry = (paper: PaperRow) => {
      let current = related.get(paper.id);
      if (!current) {
        current = { paper, score: 0, cocited: 0, coupled: 0, direct: false };
        related.set(paper.id, current);
      }
      return current;
    };
    for (const row of cocited.items) if (!row.paper.stub) Object.assign(entry(row.paper), { cocited: row.count });
    for (const row of coupled.items) Object.assign(entry(row.paper), { coupled: row.count });
    for (const paper of [...citedBy.items, ...references.items.filter((p) => !p.stub)]) entry(paper).direct = true;
    for (const value of related.values()) value.score = value.cocited + 0.5 * value.coupled + (value.direct ? 1 : 0);
    return [...related.values()]
      .sort((a, b) => b.score - a.score || (a.paper.id < b.paper.id ? -1 : 1))
      .slice(0, Math.min(first, MAX_PAGE));
  }

  /** The filtered full papers counted per value of one field (OpenAlex's group_by), with the papers lacking one. */
  async groupBy(
    field: GroupField,
    filter: PaperFilter | null | undefined,
    options: { byKey: boolean; limit: number },
  ): Promise<{
    papers: number;
    unknown: number;
    totalGroups: number;
    groups: Array<{ key: string; label: string | null; count: number }>;
  }> {
    const [row] = await this.executor.read<{
      papers: number;
      unknown: number;
      totalGroups: number;
      groups: Array<{ key: string; label: string | null; count: number }>;
    }>(queries().groupBy({ field, byKey: options.byKey, limit: options.limit, ...paperFilterParams(filter) }));
    return row ?? { papers: 0, unknown: 0, totalGroups: 0, groups: [] };
  }

  async topic(id: string): Promise<(TopicRow & { paperCount: number }) | null> {
    const [row] = await this.executor.read<{ topic: TopicRow; paperCount: number }>(queries().topicById({ id }));
    return row ? { ...row.topic, paperCount: row.paperCount } : null;
  }

  topicPapers(
    id: string,
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    sort: PaperSort | null = null,
  ): Promise<Slice<PaperRow>> {
    return this.papersOf('topicPapers', id, filter, page, sort);
  }

  /**
   * Most cited full papers in the filter. With no filter the page is read from the top of a citation index
   * (analytics/top-papers-all) and the total is counted only when asked; when the page reaches papers without a score
   * (ties at zero), every paper is ranked as with a filter.
   */
  async topPapers(
    filter: PaperFilter | null | undefined,
    by: CitationBasis,
    page: PageRequest,
  ): Promise<Slice<ScoredPaperRow> | LazySlice<ScoredPaperRow>> {
    if (!isFiltered(filter) && page.limit > 0) {
      const rows = await this.executor.read<ScoredPaperRow>(
        queries().topPapersAll({ by, skip: page.skip, limit: page.limit + 1 }),
      );
      if (rows.length > 0) {
        return {
          items: rows.slice(0, page.limit),
          skip: page.skip,
          limit: page.limit,
          hasNextPage: rows.length > page.limit,
          total: async () => {
            const [row] = await this.executor.read<{ total: number }>(queries().papersCountAll({}));
            return row?.total ?? 0;
          },
        };
      }
    }
    return this.slice<ScoredPaperRow>(queries().topPapers({ by, ...paperFilterParams(filter), ...page }), page);
  }

  topAuthors(filter: PaperFilter | null | undefined, by: AuthorRanking, page: PageRequest) {
    return this.slice<{ author: AuthorRow; papers: number; score: number; citations: number }>(
      // With no filter the stored per-person totals answer without recounting every authorship.
      isFiltered(filter)
        ? queries().topAuthors({ by, ...paperFilterParams(filter), ...page })
        : queries().topAuthorsAll({ by, ...page }),
      page,
    );
  }

  venueStats(filter: PaperFilter | null | undefined, page: PageRequest) {
    return this.slice<{
      venue: VenueRow;
      papers: number;
      globalCitations: number;
      internalCitations: number;
      firstYear: number;
      lastYear: number;
    }>(
      // With no filter the totals stored on each venue answer without reading every paper.
      isFiltered(filter)
        ? queries().venueStats({ ...paperFilterParams(filter), ...page })
        : queries().venueStatsAll({ ...page }),
      page,
    );
  }

  /** Papers per year among the papers a text query retrieves (hybrid search, up to `depth` papers). */

  /**
   * The paper a study's name means ("NOR-SWITCH", "HAVEN 4"): of the full papers holding the name as written with word
   * boundaries, one whose title holds it before one whose abstract does, then the most cited inside the graph (the
   * trial's main report rather than a later paper about it). Null when none holds it.
   */
  async paperNamed(name: string, filter?: PaperFilter | null): Promise<string | null> {
    const [word] = name.split(/\s+/);
    const rows = await this.executor.read<{ id: string; title: string | null; abstract: string | null }>(
      queries().papersNaming({ name: word!, limit: 200, ...paperFilterParams(filter) }),
    );
    const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&').replace(/ /g, '\\s+');
    const holds = new RegExp(`(?<![A-Za-z0-9-])${escaped}(?![A-Za-z0-9-]|\\s*\\d)`);
    return (
      rows.find((row) => holds.test(row.title ?? ''))?.id ??
      rows.find((row) => holds.test(row.abstract ?? ''))?.id ??
      null
    );
  }

  /** Venues of the given papers, by how many of them each published. */
  venuesOfPapers(ids: readonly string[], limit: number): Promise<PaperGroup[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.executor.read(queries().venuesOfPapers({ ids: [...ids], limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Institutions of the identified authors of the given papers, by how many of the papers each appears on. */
  institutionsOfPapers(ids: readonly string[], limit: number): Promise<PaperGroup[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.executor.read(queries().institutionsOfPapers({ ids: [...ids], limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Countries (ISO codes) of the institutions of the given papers' authors, by how many of the papers each is on. */
  countriesOfPapers(ids: readonly string[], limit: number): Promise<PaperGroup[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.executor.read(queries().countriesOfPapers({ ids: [...ids], limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Venues whose name contains the text, largest first. */
  venuesByName(name: string, limit: number): Promise<Array<{ id: string; name: string; papers: number }>> {
    return this.executor.read(queries().venuesByName({ name, limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Identified authors of the given papers, by how many of them each wrote (with a few of their papers). */
  authorsOfPapers(
    ids: readonly string[],
    limit: number,
    by: 'papers' | 'global' | 'internal' = 'papers',
  ): Promise<
    Array<{
      id: string;
      name: string;
      orcid: string | null;
      count: number;
      paperIds: string[];
      globalCitations: number;
      internalCitations: number;
    }>
  > {
    if (ids.length === 0) return Promise.resolve([]);
    return this.executor.read(queries().authorsOfPapers({ ids: [...ids], limit: Math.min(limit, MAX_PAGE), by }));
  }

  /** Co-authorship network of the most productive identified authors: nodes and weighted edges, bounded. */
  async collaborationNetwork(filter: PaperFilter | null | undefined, limit: number, minJoint: number) {
    wholeNumber(limit, 'limit', 1, Number.MAX_SAFE_INTEGER);
    wholeNumber(minJoint, 'minJointPapers', 1, 1_000_000);
    const params = paperFilterParams(filter);
    const nodes = await this.executor.read<{ author: AuthorRow; papers: number; person: string; ids: string[] }>(
      isFiltered(filter)
        ? queries().collaborationNodes({ ...params, limit: Math.min(limit, MAX_COLLABORATION_NODES) })
        : queries().collaborationNodesAll({ limit: Math.min(limit, MAX_COLLABORATION_NODES) }),
    );
    // Edges come keyed by person (ORCID, else record id); a node is shown by its representative record.
    const shownAs = new Map(nodes.map((node) => [node.person, node.author.id]));
    const records = nodes.flatMap((node) => node.ids);
    const edges =
      nodes.length < 2
        ? []
        : (
            await this.executor.read<{ source: string; target: string; joint: number }>(
              queries().collaborationEdges({
                ...params,
                authorIds: records,
                minJoint: Math.max(1, minJoint),
                maxEdges: 5000,
              }),
            )
          ).flatMap((edge) => {
            const source = shownAs.get(edge.source);
            const target = shownAs.get(edge.target);
            return source && target ? [{ source, target, joint: edge.joint }] : [];
          });
    return {
      nodes: nodes.map((node) => ({
        id: node.author.id,
        name: node.author.name ?? node.author.id,
        orcid: node.author.orcid ?? null,
        papers: node.papers,
        records: node.ids,
      })),
      edges,
    };
  }
}
