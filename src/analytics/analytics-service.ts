import type { GraphExecutor } from '../graph/executor';
import { type CompiledQuery, paperFilterParams, queries } from '../graph/query-registry';
import { MAX_PAGE, type PageRequest, type Slice } from '../paging';
import { badInput } from '../errors';
import type { AuthorRow, PaperFilter, PaperRow, TopicRow, VenueRow } from '../domain';
import type { RequestContext } from '../request-context';
import type { SearchService } from '../retrieval/search-service';

export type CitationBasis = 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS';

/** Largest page of any bibliometric list, and largest year range, so that no request walks the whole graph. */
export const MAX_YEAR_SPAN = 200;
export const MAX_NETWORK_NODES = 200;

export function hIndex(citations: readonly number[]): number {
  const sorted = [...citations].sort((a, b) => b - a);
  let h = 0;
  while (h < sorted.length && sorted[h]! >= h + 1) h += 1;
  return h;
}

function checkYears(from: number, to: number): void {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to)
    throw badInput(`year range ${from}–${to} is not a range`);
  if (to - from > MAX_YEAR_SPAN) throw badInput(`year range ${from}–${to} spans more than ${MAX_YEAR_SPAN} years`);
}

export interface YearPoint {
  year: number;
  count: number;
  /** Relative change from the year before; null when that year had no paper. */
  growth: number | null;
}

/** Per-year counts over [from, to] with zero years filled in and year-on-year growth. */
export function yearSeries(
  rows: ReadonlyArray<{ year: number; count: number }>,
  from: number,
  to: number,
): YearPoint[] {
  const counts = new Map(rows.map((row) => [row.year, row.count]));
  const points: YearPoint[] = [];
  for (let year = from; year <= to; year += 1) {
    const count = counts.get(year) ?? 0;
    const previous = year > from ? points[points.length - 1]!.count : null;
    points.push({ year, count, growth: previous ? (count - previous) / previous : null });
  }
  return points;
}

/**
 * Compound annual growth between the first and the last year of a series that have papers; null when fewer than two
 * such years. A summary of how fast a topic grew that is not thrown by one odd year in the middle.
 */
export function compoundGrowth(points: readonly YearPoint[]): number | null {
  const nonZero = points.filter((point) => point.count > 0);
  if (nonZero.length < 2) return null;
  const first = nonZero[0]!;
  const last = nonZero[nonZero.length - 1]!;
  if (last.year === first.year) return null;
  return (last.count / first.count) ** (1 / (last.year - first.year)) - 1;
}

export interface EmergingTopic {
  topic: TopicRow;
  early: number;
  late: number;
  /** Papers per year in the late part over papers per year in the early part, add-one smoothed. */
  growth: number;
}

/** Ranks topics by smoothed growth of yearly rate from the early to the late part of the window. */
export function rankEmerging(
  rows: ReadonlyArray<{ topic: TopicRow; early: number; late: number }>,
  earlyYears: number,
  lateYears: number,
): EmergingTopic[] {
  return rows
    .map((row) => ({ ...row, growth: (row.late / lateYears + 1) / (row.early / earlyYears + 1) }))
    .sort((a, b) => b.growth - a.growth || b.late - a.late || (String(a.topic.id) < String(b.topic.id) ? -1 : 1));
}

/** Bibliometric and trend queries over the graph. */
export class AnalyticsService {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly search: SearchService,
  ) {}

  private async slice<T>(query: CompiledQuery, page: PageRequest): Promise<Slice<T>> {
    const [row] = await this.executor.read<{ total: number; items: T[] }>(query);
    return { total: row?.total ?? 0, items: row?.items ?? [], ...page };
  }

  authorWorks(id: string, filter: PaperFilter | null | undefined, page: PageRequest): Promise<Slice<PaperRow>> {
    return this.slice(queries().authorWorks({ id, ...paperFilterParams(filter), ...page }), page);
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
    const internal = row?.internal ?? [];
    const global = row?.global ?? [];
    return {
      works: internal.length,
      hIndexInternal: hIndex(internal),
      hIndexGlobal: hIndex(global),
      citationsInternal: internal.reduce((a, b) => a + b, 0),
      citationsGlobal: global.reduce((a, b) => a + b, 0),
      firstYear: row?.firstYear ?? null,
      lastYear: row?.lastYear ?? null,
    };
  }

  authorTopics(id: string, first: number, minLevel: number | null) {
    return this.executor.read<{ topic: TopicRow; papers: number; weight: number }>(
      queries().authorTopics({ id, limit: Math.min(first, MAX_PAGE), minLevel }),
    );
  }

  paperCitedBy(id: string, page: PageRequest): Promise<Slice<PaperRow>> {
    return this.slice(queries().paperCitedBy({ id, ...page }), page);
  }

  paperReferences(id: string, page: PageRequest): Promise<Slice<PaperRow>> {
    return this.slice(queries().paperReferences({ id, ...page }), page);
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

  async topic(id: string): Promise<(TopicRow & { paperCount: number }) | null> {
    const [row] = await this.executor.read<{ topic: TopicRow; paperCount: number }>(queries().topicById({ id }));
    return row ? { ...row.topic, paperCount: row.paperCount } : null;
  }

  topicPapers(id: string, filter: PaperFilter | null | undefined, page: PageRequest): Promise<Slice<PaperRow>> {
    return this.slice(queries().topicPapers({ id, ...paperFilterParams(filter), ...page }), page);
  }

  topPapers(filter: PaperFilter | null | undefined, by: CitationBasis, page: PageRequest) {
    return this.slice<{ paper: PaperRow; internal: number; global: number; score: number }>(
      queries().topPapers({ by, ...paperFilterParams(filter), ...page }),
      page,
    );
  }

  topAuthors(filter: PaperFilter | null | undefined, by: CitationBasis, page: PageRequest) {
    return this.slice<{ author: AuthorRow; papers: number; score: number }>(
      queries().topAuthors({ by, ...paperFilterParams(filter), ...page }),
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
    }>(queries().venueStats({ ...paperFilterParams(filter), ...page }), page);
  }

  /** Papers per year for each topic. */
  async topicTrends(topicIds: string[], from: number, to: number, filter?: PaperFilter | null) {
    checkYears(from, to);
    if (topicIds.length > 50) throw badInput('at most 50 topics per trend request');
    const params = paperFilterParams(filter);
    const rows = await this.executor.read<{ topicId: string; year: number; count: number }>(
      queries().topicYears({ ...params, topicIds, from, to }),
    );
    return topicIds.map((topicId) => {
      const points = yearSeries(
        rows.filter((row) => row.topicId === topicId),
        from,
        to,
      );
      return {
        key: topicId,
        topicId,
        points,
        total: points.reduce((sum, p) => sum + p.count, 0),
        cagr: compoundGrowth(points),
      };
    });
  }

  /** Papers per year among the papers a text query retrieves (hybrid search, up to `depth` papers). */
  async queryTrend(
    ctx: RequestContext,
    query: string,
    from: number,
    to: number,
    filter?: PaperFilter | null,
    depth = 200,
  ) {
    checkYears(from, to);
    const response = await this.search.search(
      ctx,
      query,
      Math.min(depth, 200),
      { ...filter, yearFrom: Math.max(from, filter?.yearFrom ?? from), yearTo: Math.min(to, filter?.yearTo ?? to) },
      { passages: 0 },
    );
    const ids = response.results.map((result) => result.paper.id);
    const rows = await this.executor.read<{ year: number; count: number }>(queries().papersYears({ ids, from, to }));
    const points = yearSeries(rows, from, to);
    return {
      key: query,
      topicId: null,
      points,
      total: points.reduce((sum, p) => sum + p.count, 0),
      cagr: compoundGrowth(points),
      paperIds: ids,
    };
  }

  /** Topics growing fastest between the two halves of [from, to], with at least `minSupport` papers in the later half. */
  async emergingTopics(
    from: number,
    to: number,
    options: { minSupport: number; first: number; minLevel: number | null; minScore?: number },
    filter?: PaperFilter | null,
  ) {
    checkYears(from, to);
    if (to === from) throw badInput('emerging topics need a window of at least two years');
    const split = from + Math.ceil((to - from + 1) / 2);
    const params = paperFilterParams(filter);
    const rows = await this.executor.read<{ topic: TopicRow; early: number; late: number }>(
      queries().emergingTopics({
        from,
        to,
        split,
        minSupport: options.minSupport,
        minScore: options.minScore ?? 0.3,
        minLevel: options.minLevel,
        ...params,
      }),
    );
    return rankEmerging(rows, split - from, to - split + 1).slice(0, Math.min(options.first, MAX_PAGE));
  }

  /** Identified authors whose name contains the given text, most productive first. */
  authorsByName(name: string, limit: number): Promise<Array<{ author: AuthorRow; papers: number }>> {
    return this.executor.read(queries().authorsByName({ name, limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Identified authors of the given papers, by how many of them each wrote (with a few of their papers). */
  authorsOfPapers(
    ids: readonly string[],
    limit: number,
  ): Promise<Array<{ id: string; name: string; count: number; paperIds: string[] }>> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.executor.read(queries().authorsOfPapers({ ids: [...ids], limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Co-authorship network of the most productive identified authors: nodes and weighted edges, bounded. */
  async collaborationNetwork(filter: PaperFilter | null | undefined, limit: number, minJoint: number) {
    if (!Number.isInteger(limit) || limit < 1) throw badInput('limit must be a positive integer');
    const params = paperFilterParams(filter);
    const nodes = await this.executor.read<{ author: AuthorRow; papers: number }>(
      queries().collaborationNodes({ ...params, limit: Math.min(limit, MAX_NETWORK_NODES) }),
    );
    const ids = nodes.map((node) => node.author.id);
    const edges =
      ids.length < 2
        ? []
        : await this.executor.read<{ source: string; target: string; joint: number }>(
            queries().collaborationEdges({
              ...params,
              authorIds: ids,
              minJoint: Math.max(1, minJoint),
              maxEdges: 5000,
            }),
          );
    return {
      nodes: nodes.map((node) => ({
        id: node.author.id,
        name: node.author.name ?? node.author.id,
        papers: node.papers,
      })),
      edges,
    };
  }
}
