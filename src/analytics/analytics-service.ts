import type { GraphExecutor } from '../graph/executor';
import { type CompiledQuery, isFiltered, paperFilterParams, paperSortParams, queries } from '../graph/query-registry';
import { STRONG_TOPIC_SCORE } from '../graph/schema';
import { type LazySlice, MAX_PAGE, type PageRequest, type Slice } from '../paging';
import { badInput } from '../errors';
import { contentTerms, stem } from '../text';
import { foldName, fullNameKey, nameFit, nameParts } from './person-names';
import type { AuthorRow, PaperFilter, PaperRow, PaperSort, TopicRow, VenueRow } from '../domain';

/** A paper with its citation counts and the one it was ranked by (topPapers). */
export interface ScoredPaperRow {
  paper: PaperRow;
  internal: number;
  global: number;
  score: number;
}

/** A field the filtered papers can be grouped by. */
export type GroupField = 'YEAR' | 'TYPE' | 'COLLECTION' | 'TOPIC' | 'VENUE' | 'AUTHOR' | 'INSTITUTION' | 'COUNTRY';
import type { SearchService } from '../retrieval/search-service';

export type CitationBasis = 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS';
/** What ranks authors: their number of papers or their papers' citations. */
export type AuthorRanking = 'PAPERS' | CitationBasis;

/** Most papers a topic set holds; a larger set is cut (and says so). */
export const TOPIC_SET_LIMIT = 5000;
/** Full-text hits a topic set reads before its filters (collections, years). */
export const TOPIC_SET_SCAN = 100_000;
/** Lowest concept score that puts a paper into the set of the concept's name. */
export const TOPIC_SET_MIN_CONCEPT_SCORE = 0.3;
/** How many words a concept's name may add to a topic phrase and still be part of the topic (a narrower concept). */
export const MAX_EXTRA_CONCEPT_WORDS = 2;
/**
 * How a topic set reaches the papers its words miss: the centroid of its seeds (the best word matches and the papers
 * nearest the phrase) and the cosine a paper's nearest chunk must reach to it. Chosen on the SYNERGY reviews with
 * labels (scripts/bench-topics: share of each review's included papers in the set, and its size against the review's
 * candidates) and checked on phrasings written apart from that choice.
 */
export const TOPIC_SIMILARITY = {
  /** Best word-matching papers among the seeds. */
  lexicalSeeds: 300,
  /** Papers nearest the phrase among the seeds. */
  nearestSeeds: 20,
  /** Cosine to the phrase a nearest paper needs to be a seed. */
  minNearestCosine: 0.4,
  /** Cosine to the centroid that puts a paper in. */
  minCosine: 0.5,
  /** Most chunks read from the vector index per set. */
  maxChunks: 20_000,
} as const;

/** A paper of a topic set, with what counting needs and why it is in. */
export interface TopicSetPaper {
  id: string;
  title: string | null;
  year: number | null;
  citedByCount: number;
  internalCitations: number;
  /** Its title or abstract holds every word of the phrase. */
  byWords?: boolean;
  /** It carries the concept named by the phrase. */
  byConcept?: boolean;
  /** Cosine of its nearest chunk to the topic's centroid, when that put it in (null otherwise). */
  similarity?: number | null;
}

/** Every paper relevant to a topic phrase by the rule in cypher/analytics/topic-set.cypher. */
export interface TopicSet {
  phrase: string;
  /** The graph's concepts the phrase names (their papers are in the set), most papers first. */
  concepts: Array<{ id: string; name: string }>;
  /** The rule in words, for answers ("title or abstract contains aspirin and stroke, or …"). */
  rule: string;
  papers: TopicSetPaper[];
  /** True when the set reached TOPIC_SET_LIMIT and was cut. */
  truncated: boolean;
}

/**
 * One person as answers name them: every author node sharing the ORCID of the best match is the same person; authors
 * of the same name without that ORCID are `namesakes` — possibly the same person, never silently merged or listed twice.
 */
export interface Person {
  name: string;
  orcid: string | null;
  ids: string[];
  papers: number;
  /** Records of a fitting name, without a conflicting ORCID, that share a co-author with the person: counted in. */
  linked: Array<{ ids: string[]; name: string; papers: number }>;
  namesakes: Array<{ id: string; name: string; papers: number }>;
}

/** Groups author rows into people: rows sharing an ORCID are one person (counts summed, first name kept). */
export function mergeByOrcid<T extends { id: string; name: string | null; orcid?: string | null; count: number }>(
  rows: readonly T[],
): Array<T & { ids: string[]; possiblySame: string[] }> {
  const people: Array<T & { ids: string[]; possiblySame: string[] }> = [];
  const byOrcid = new Map<string, T & { ids: string[]; possiblySame: string[] }>();
  for (const row of rows) {
    const existing = row.orcid ? byOrcid.get(row.orcid) : undefined;
    if (existing) {
      existing.ids.push(row.id);
      existing.count += row.count;
      continue;
    }
    const person = { ...row, ids: [row.id], possiblySame: [] as string[] };
    if (row.orcid) byOrcid.set(row.orcid, person);
    people.push(person);
  }
  people.sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  // Same name, no shared ORCID: flagged both ways.
  const key = (name: string | null) =>
    (name ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  for (const person of people) {
    person.possiblySame = people
      .filter((other) => other !== person && key(other.name) !== '' && key(other.name) === key(person.name))
      .map((other) => other.id);
  }
  return people;
}

/** A ranked group of papers (a venue, an institution, an author) and a few of its papers. */
export interface PaperGroup {
  id: string;
  name: string | null;
  count: number;
  paperIds: string[];
}

/** Largest page of any bibliometric list, and largest year range, so that no request walks the whole graph. */
export const MAX_YEAR_SPAN = 200;
/** Most people a collaboration network of the ask pipeline holds (the API's network has its own cap, MAX_NETWORK_NODES). */
export const MAX_COLLABORATION_NODES = 200;

/**
 * A Lucene query for papers holding most of the words: every word of one or two; otherwise any two thirds of them
 * (rounded up), as the alternatives "(+a +b +c) (+a +b +d) …", at most 64 of them (the first words kept when more).
 */
export function mostWordsQuery(words: readonly string[]): string {
  if (words.length <= 2) return words.map((word) => `+${word}`).join(' ');
  let pool = [...words];
  const need = (n: number) => Math.ceil((2 * n) / 3);
  while (combinations(pool.length, need(pool.length)) > 64) pool = pool.slice(0, -1);
  const groups: string[] = [];
  const pick = (start: number, chosen: string[]) => {
    if (chosen.length === need(pool.length)) {
      groups.push(`(${chosen.map((word) => `+${word}`).join(' ')})`);
      return;
    }
    for (let i = start; i < pool.length; i += 1) pick(i + 1, [...chosen, pool[i]!]);
  };
  pick(0, []);
  return groups.join(' ');
}

function combinations(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** The normalised mean of unit vectors (null when there are none). */
export function meanVector(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const sum = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < sum.length; i += 1) sum[i]! += vector[i]!;
  const norm = Math.hypot(...sum);
  if (norm === 0) return null;
  for (let i = 0; i < sum.length; i += 1) sum[i]! /= norm;
  return sum;
}

/** Works, h-indexes and citation totals from per-paper citation counts (inside the graph and global) and years. */
function citationMetrics(
  row: { internal: number[]; global: number[]; firstYear: number | null; lastYear: number | null } | undefined,
) {
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

export function hIndex(citations: readonly number[]): number {
  const sorted = [...citations].sort((a, b) => b - a);
  let h = 0;
  while (h < sorted.length && sorted[h]! >= h + 1) h += 1;
  return h;
}

/** Years a range may name at all. */
export const YEAR_BOUNDS = { min: 1000, max: 2200 } as const;

/** A whole number within bounds, or BAD_USER_INPUT naming the argument. */
function wholeNumber(value: number, argument: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badInput(`${argument} must be a whole number from ${min} to ${max}, got ${String(value).slice(0, 20)}`, {
      argument,
    });
  }
  return value;
}

function checkYears(from: number, to: number): void {
  wholeNumber(from, 'from', YEAR_BOUNDS.min, YEAR_BOUNDS.max);
  wholeNumber(to, 'to', YEAR_BOUNDS.min, YEAR_BOUNDS.max);
  if (from > to) throw badInput(`year range ${from}–${to} is not a range`, { argument: 'from' });
  if (to - from > MAX_YEAR_SPAN) throw badInput(`year range ${from}–${to} spans more than ${MAX_YEAR_SPAN} years`);
}

export interface YearPoint {
  year: number;
  count: number;
  /** Relative change from the year before; null when that year had no paper. */
  growth: number | null;
  /** The current calendar year or later: still being published and indexed, so its count is incomplete. */
  partial: boolean;
}

/** The last year whose papers are all out: the one before the current calendar year (UTC). */
export function lastCompleteYear(now: Date = new Date()): number {
  return now.getUTCFullYear() - 1;
}

/** Per-year counts over [from, to] with zero years filled in, year-on-year growth, and incomplete years marked. */
export function yearSeries(
  rows: ReadonlyArray<{ year: number; count: number }>,
  from: number,
  to: number,
  complete: number = lastCompleteYear(),
): YearPoint[] {
  const counts = new Map(rows.map((row) => [row.year, row.count]));
  const points: YearPoint[] = [];
  for (let year = from; year <= to; year += 1) {
    const count = counts.get(year) ?? 0;
    const previous = year > from ? points[points.length - 1]!.count : null;
    points.push({ year, count, growth: previous ? (count - previous) / previous : null, partial: year > complete });
  }
  return points;
}

/** Compound annual growth between smoothed endpoints, with the endpoints, so that the figure can be checked. */
export interface SmoothedGrowth {
  /** (late mean / early mean)^(1 / years between the windows' centres) − 1. */
  rate: number;
  early: { from: number; to: number; mean: number };
  late: { from: number; to: number; mean: number };
}

/** Years averaged at each end of a series for its growth. */
export const GROWTH_WINDOW = 3;

/** Fewest papers the early window must hold for a growth rate: from fewer, compounding says nothing. */
export const MIN_GROWTH_BASE = 3;

/**
 * Compound annual growth from smoothed endpoints, so that one odd year at either end does not decide it: over the
 * complete years (incomplete years left out) from the first year with papers, the mean count of the first three years
 * and of the last three (fewer in a series shorter than six years: half of it each), compounded over the years between
 * the two windows' centres. Zero years count. Null when fewer than two such years or when the early window holds fewer
 * than three papers (too thin a base to compound from); −1 when the late window is empty.
 */
export function smoothedGrowth(
  points: ReadonlyArray<{ year: number; count: number; partial?: boolean }>,
): SmoothedGrowth | null {
  const complete = points.filter((point) => point.partial !== true);
  const start = complete.findIndex((point) => point.count > 0);
  if (start < 0) return null;
  const series = complete.slice(start);
  if (series.length < 2) return null;
  const k = Math.min(GROWTH_WINDOW, Math.floor(series.length / 2));
  const window = (part: typeof series) => ({
    from: part[0]!.year,
    to: part[part.length - 1]!.year,
    mean: part.reduce((sum, point) => sum + point.count, 0) / part.length,
    centre: part.reduce((sum, point) => sum + point.year, 0) / part.length,
  });
  const early = window(series.slice(0, k));
  const late = window(series.slice(-k));
  const span = late.centre - early.centre;
  if (span <= 0 || early.mean * k < MIN_GROWTH_BASE) return null;
  return {
    rate: (late.mean / early.mean) ** (1 / span) - 1,
    early: { from: early.from, to: early.to, mean: early.mean },
    late: { from: late.from, to: late.to, mean: late.mean },
  };
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

  authorWorks(
    id: string,
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    sort: PaperSort | null = null,
  ): Promise<Slice<PaperRow>> {
    return this.slice(
      queries().authorWorks({ id, ...paperFilterParams(filter), ...paperSortParams(sort), ...page }),
      page,
    );
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
    return this.slice(
      queries().topicPapers({ id, ...paperFilterParams(filter), ...paperSortParams(sort), ...page }),
      page,
    );
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

  /** Papers per year for each topic. */
  async topicTrends(topicIds: string[], from: number, to: number, filter?: PaperFilter | null) {
    checkYears(from, to);
    if (topicIds.length > 50) throw badInput('at most 50 topics per trend request');
    const rows = await this.executor.read<{ topicId: string; year: number; count: number }>(
      // With no filter the yearly counts kept per topic answer without reading every paper of each topic.
      isFiltered(filter)
        ? queries().topicYears({ ...paperFilterParams(filter), topicIds, from, to })
        : queries().topicYearsAll({ topicIds, from, to }),
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
        cagr: smoothedGrowth(points)?.rate ?? null,
      };
    });
  }

  /** Papers per year among the papers a text query retrieves (hybrid search, up to `depth` papers). */
  /** Papers per year on a topic phrase, by the topic-set rule (`topicSet`), over [from, to]. */
  async queryTrend(query: string, from: number, to: number, filter?: PaperFilter | null) {
    checkYears(from, to);
    const set = await this.topicSet(query, {
      ...filter,
      yearFrom: Math.max(from, filter?.yearFrom ?? from),
      yearTo: Math.min(to, filter?.yearTo ?? to),
    });
    const ids = set.papers.map((paper) => paper.id);
    const rows = await this.executor.read<{ year: number; count: number }>(queries().papersYears({ ids, from, to }));
    const points = yearSeries(rows, from, to);
    return {
      key: query,
      topicId: null,
      points,
      total: points.reduce((sum, p) => sum + p.count, 0),
      cagr: smoothedGrowth(points)?.rate ?? null,
      paperIds: ids,
      rule: set.rule,
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
    wholeNumber(options.minSupport, 'minSupport', 1, 1_000_000);
    if (options.minLevel !== null) wholeNumber(options.minLevel, 'minLevel', 0, 10);
    if (to === from) throw badInput('emerging topics need a window of at least two years');
    const split = from + Math.ceil((to - from + 1) / 2);
    const minScore = options.minScore ?? STRONG_TOPIC_SCORE;
    const rows = await this.executor.read<{ topic: TopicRow; early: number; late: number }>(
      // With no filter, at the stored score, the yearly counts kept per topic answer without reading every paper.
      !isFiltered(filter) && minScore === STRONG_TOPIC_SCORE
        ? queries().emergingTopicsAll({ from, to, split, minSupport: options.minSupport, minLevel: options.minLevel })
        : queries().emergingTopics({
            from,
            to,
            split,
            minSupport: options.minSupport,
            minScore,
            minLevel: options.minLevel,
            ...paperFilterParams(filter),
          }),
    );
    return rankEmerging(rows, split - from, to - split + 1).slice(0, Math.min(options.first, MAX_PAGE));
  }

  /**
   * The papers on a topic: title or abstract contains every content word of the phrase (stemmed), or the paper
   * carries a concept named exactly the phrase (score ≥ 0.3). Every paper, not the top hits of a search.
   */
  async topicSet(phrase: string, filter?: PaperFilter | null): Promise<TopicSet> {
    const words = [...new Set(contentTerms(phrase))].slice(0, 12);
    if (words.length === 0) throw badInput(`the topic "${phrase.slice(0, 80)}" has no searchable words`);
    const query = words.map((word) => `+${word}`).join(' ');
    const lowered = phrase.toLowerCase().trim();
    const concepts = await this.conceptsNamed(words);
    const conceptIds = concepts.map((c) => c.id);
    const near = await this.papersNearTopic(phrase, words, lowered, conceptIds);
    const papers = await this.executor.read<TopicSetPaper>(
      queries().topicSet({
        query,
        phrase: lowered,
        minScore: TOPIC_SET_MIN_CONCEPT_SCORE,
        limit: TOPIC_SET_LIMIT,
        // Lucene's limit comes before the filters: read every hit, then keep TOPIC_SET_LIMIT of those that pass.
        scan: TOPIC_SET_SCAN,
        similar: near.papers,
        concepts: conceptIds,
        ...paperFilterParams(filter),
      }),
    );
    const conceptText =
      concepts.length > 0
        ? `${concepts.length > 1 ? 'one of the concepts' : 'the concept'} ${concepts.map((c) => `"${c.name}" (${c.id})`).join(', ')}`
        : `the concept "${phrase}"`;
    const wordRule = `title or abstract contains ${words.map((word) => `"${word}"`).join(' and ')} (any word form), or the paper carries ${conceptText}`;
    const byMeaning = papers.filter((paper) => !paper.byWords && !paper.byConcept).length;
    return {
      phrase,
      concepts,
      rule: near.unavailable
        ? `${wordRule}; papers close in meaning could not be added (${near.unavailable})`
        : `${wordRule}, or its text is close in meaning to those papers and to the phrase (cosine at least ${TOPIC_SIMILARITY.minCosine} to their centroid): ${papers.length - byMeaning} by words or concept, ${byMeaning} by meaning`,
      papers,
      truncated: papers.length >= TOPIC_SET_LIMIT || near.truncated,
    };
  }

  /**
   * The concepts a topic's words name: concept names holding every word of the phrase (as stems: "Muscle relaxant"
   * for "muscle relaxants") and at most MAX_EXTRA_CONCEPT_WORDS more, so a narrower concept belongs to the topic
   * ("Articular cartilage repair" to "cartilage repair") and a broader one ("Borderline personality disorder" for
   * "psychotherapy for borderline personality disorder") does not.
   */
  private async conceptsNamed(words: readonly string[]): Promise<Array<{ id: string; name: string }>> {
    const stems = [...new Set(words.map(stem))].filter((s) => /^[a-z0-9]+$/.test(s));
    if (stems.length === 0 || stems.length !== words.length) return [];
    const rows = await this.executor.read<{ id: string; name: string; papers: number }>(
      queries().topicConcepts({ query: stems.map((s) => `+${s}*`).join(' '), limit: 50 }),
    );
    return rows
      .filter((row) => {
        const named = new Set(contentTerms(row.name).map(stem));
        return stems.every((s) => named.has(s)) && named.size <= stems.length + MAX_EXTRA_CONCEPT_WORDS;
      })
      .filter((row) => row.papers > 0)
      .map((row) => ({ id: row.id, name: row.name }));
  }

  /**
   * The papers close in meaning to a topic: the centroid of its seeds (the best papers holding most of its words, the
   * concept's papers and the papers nearest the phrase), then every paper whose nearest chunk reaches TOPIC_SIMILARITY.minCosine to it.
   * Without the embedding model the set keeps its words and concepts and says why.
   */
  private async papersNearTopic(
    phrase: string,
    words: readonly string[],
    lowered: string,
    concepts: readonly string[],
  ): Promise<{ papers: Array<{ id: string; similarity: number }>; truncated: boolean; unavailable?: string }> {
    let vector: Float32Array;
    try {
      vector = await this.search.embedQuery(phrase);
    } catch (error) {
      return { papers: [], truncated: false, unavailable: (error as Error).message };
    }
    const [lexical, nearest] = await Promise.all([
      this.executor.read<{ id: string }>(
        queries().topicSeeds({
          query: mostWordsQuery(words),
          phrase: lowered,
          minScore: TOPIC_SET_MIN_CONCEPT_SCORE,
          limit: TOPIC_SIMILARITY.lexicalSeeds,
          scan: TOPIC_SET_SCAN,
          concepts: [...concepts],
        }),
      ),
      this.search.nearestPapers(vector, TOPIC_SIMILARITY.nearestSeeds),
    ]);
    // Without a paper holding most of the words or the concept, nothing anchors the meaning: the nearest papers of an
    // unknown subject are merely the least far.
    if (lexical.length === 0) return { papers: [], truncated: false };
    const close = nearest.filter((row) => row.cosine >= TOPIC_SIMILARITY.minNearestCosine);
    const seeds = [...new Set([...lexical.map((row) => row.id), ...close.map((row) => row.paperId)])];
    const centroid = meanVector([...(await this.search.paperVectors(seeds)).values()]);
    if (!centroid) return { papers: [], truncated: false };
    // The index gives chunks nearest first: read more while every chunk read still passes.
    const total = await this.search.chunkCount();
    for (let k = Math.min(total, 2000); ; k = Math.min(total, k * 4, TOPIC_SIMILARITY.maxChunks)) {
      if (k === 0) return { papers: [], truncated: false };
      const rows = await this.executor.read<{
        id: string | null;
        stub: boolean | null;
        similarity: number;
        chunks: number;
      }>(queries().topicSimilar({ vector: Array.from(centroid), k, minCosine: TOPIC_SIMILARITY.minCosine }));
      const passed = rows.reduce((sum, row) => sum + row.chunks, 0);
      const more = passed >= k && k < total;
      if (!more || k >= TOPIC_SIMILARITY.maxChunks) {
        const papers = rows
          .filter((row): row is typeof row & { id: string } => row.id !== null && row.stub === false)
          .map(({ id, similarity }) => ({ id, similarity }));
        return { papers, truncated: more };
      }
    }
  }

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

  /** The first and last publication year of the graph's full papers (null when it holds none with a year). */
  async coverageYears(): Promise<{ firstYear: number; lastYear: number } | null> {
    const [row] = await this.executor.read<{ firstYear: number | null; lastYear: number | null }>(
      queries().coverageYears({}),
    );
    return row && row.firstYear !== null && row.lastYear !== null
      ? { firstYear: row.firstYear, lastYear: row.lastYear }
      : null;
  }

  async yearsOfPapers(ids: readonly string[], from: number, to: number): Promise<YearPoint[]> {
    checkYears(from, to);
    const rows = await this.executor.read<{ year: number; count: number }>(
      queries().papersYears({ ids: [...ids], from, to }),
    );
    return yearSeries(rows, from, to);
  }

  /** The person a name means (see Person), or null when no identified author has that name. */
  async resolvePerson(name: string): Promise<Person | null> {
    const rows = await this.authorsFitting(name.trim());
    if (rows.length === 0) return null;
    // Records sharing an ORCID with a match are the same person even under another spelling ("M. Shima").
    const orcids = [...new Set(rows.map((row) => row.author.orcid).filter((orcid): orcid is string => !!orcid))];
    const sameOrcid = orcids.length
      ? await this.executor.read<{ id: string; name: string | null; orcid: string | null; count: number }>(
          queries().authorsByOrcid({ orcids }),
        )
      : [];
    const byId = new Map(
      rows.map((row) => [
        row.author.id,
        { id: row.author.id, name: row.author.name ?? null, orcid: row.author.orcid ?? null, count: row.papers },
      ]),
    );
    for (const row of sameOrcid) if (!byId.has(row.id)) byId.set(row.id, row);
    const people = mergeByOrcid([...byId.values()].sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)));
    const best = people[0]!;
    const linked = await this.linkedRecords(best, people.slice(1));
    const linkedIds = new Set(linked.flatMap((group) => group.ids));
    return {
      name: best.name ?? best.id,
      orcid: best.orcid ?? null,
      ids: [...best.ids, ...linkedIds],
      papers: best.count + linked.reduce((sum, group) => sum + group.count, 0),
      linked: linked.map((group) => ({ ids: group.ids, name: group.name ?? group.ids[0]!, papers: group.count })),
      // Every other record that fits the name as asked and is not counted in, so the answer can say whom it left out.
      namesakes: people
        .slice(1)
        .filter((other) => !other.ids.some((id) => linkedIds.has(id)))
        .map((other) => ({ id: other.id, name: other.name ?? other.id, papers: other.count })),
    };
  }

  /**
   * The other records of a fitting name that are the same person by evidence: no ORCID other than the person's, and
   * a co-author in common with the person as merged so far (record linkage by shared co-authors; repeated until no
   * record joins). A namesake with no co-author in common stays apart.
   */
  private async linkedRecords<G extends { ids: string[]; orcid?: string | null; name: string | null; count: number }>(
    best: G,
    others: readonly G[],
  ): Promise<G[]> {
    const candidates = others.filter((group) => !group.orcid || !best.orcid || group.orcid === best.orcid);
    if (candidates.length === 0) return [];
    const all = [...best.ids, ...candidates.flatMap((group) => group.ids)];
    const rows = await this.executor.read<{ id: string; coauthors: string[]; names: Array<string | null> }>(
      queries().coauthorIds({ ids: all }),
    );
    const records = new Set(all);
    const own = new Set([best.name, ...candidates.map((group) => group.name)].map((name) => fullNameKey(name ?? '')));
    // A co-author is one by id, or by full name (first given name and surname): records without an OpenAlex id
    // ("anon:…") have co-authors without one, so "Giuseppe Filardo" on such a paper is still a shared co-author.
    const coauthorsOf = new Map(
      rows.map((row) => [
        row.id,
        [
          ...row.coauthors.filter((id) => !records.has(id)),
          ...row.names.map((name) => fullNameKey(name ?? '')).filter((key) => key !== null && !own.has(key)),
        ] as string[],
      ]),
    );
    const circle = new Set(best.ids.flatMap((id) => coauthorsOf.get(id) ?? []));
    const linked: G[] = [];
    let pending = [...candidates];
    for (let changed = true; changed;) {
      changed = false;
      for (const group of pending) {
        const theirs = group.ids.flatMap((id) => coauthorsOf.get(id) ?? []);
        if (!theirs.some((id) => circle.has(id))) continue;
        linked.push(group);
        for (const id of theirs) circle.add(id);
        changed = true;
      }
      pending = pending.filter((group) => !linked.includes(group));
    }
    return linked;
  }

  /**
   * The author records a named person can be: those whose surname is the name's and whose first given name fits it
   * (equal, or an initial of it; "Marsha Linehan" finds "Marsha M. Linehan", "Kirschbaum C" finds "Clemens
   * Kirschbaum"), the best fit only; the records whose name contains the text as written when none fits.
   */
  private async authorsFitting(name: string): Promise<Array<{ author: AuthorRow; papers: number }>> {
    const asked = nameParts(name);
    const surname = asked?.surname.replace(/[^a-z0-9]/g, '') ?? '';
    if (!asked || surname.length < 2) return this.authorsByName(name, 50);
    const query = surname.length >= 5 ? `${surname} OR ${surname}~1` : surname;
    const rows = await this.executor.read<{ author: AuthorRow; papers: number }>(
      queries().authorsBySurname({ query, scan: 500 }),
    );
    const fits = rows.map((row) => {
      const stored = nameParts(row.author.name ?? '');
      return { row, fit: stored ? nameFit(asked, stored) : 0 };
    });
    const best = Math.max(0, ...fits.map((f) => f.fit));
    if (best === 0) return this.authorsByName(name, 50);
    return fits.filter((f) => f.fit === best).map((f) => f.row);
  }

  /** Metrics of one person over all of their author nodes (papers counted once). */
  async personMetrics(ids: readonly string[]) {
    const [row] = await this.executor.read<{
      internal: number[];
      global: number[];
      firstYear: number | null;
      lastYear: number | null;
      topPaperIds: string[];
    }>(queries().personMetrics({ ids: [...ids] }));
    return { ...citationMetrics(row), topPaperIds: row?.topPaperIds ?? [] };
  }

  /**
   * Author rows of a ranking as people: records sharing an ORCID are one person (mergeByOrcid), and so are records of
   * one full name without conflicting ORCIDs that share a co-author or an institution — the linkage rule by which a
   * named person is resolved — their counts added. A namesake with no such link stays apart, flagged `possiblySame`.
   */
  async peopleOf<
    T extends { id: string; name: string | null; orcid: string | null; count: number; paperIds: string[] },
  >(rows: readonly T[]): Promise<Array<T & { ids: string[]; possiblySame: string[] }>> {
    const people = mergeByOrcid(rows);
    const owner = new Map(people.flatMap((person) => person.ids.map((id) => [id, person] as const)));
    const pairs: string[][] = [];
    for (const person of people)
      for (const id of person.possiblySame) {
        const other = owner.get(id);
        if (other && person.id < other.id && !(person.orcid && other.orcid)) pairs.push([person.id, other.id]);
      }
    if (pairs.length === 0) return people;
    const evidence = await this.executor.read<{
      a: string;
      b: string;
      sharedCoauthors: number;
      sharedInstitutions: number;
    }>(queries().authorPairEvidence({ pairs: pairs.slice(0, 500) }));
    const into = new Map<(typeof people)[number], (typeof people)[number]>();
    const root = (person: (typeof people)[number]): (typeof people)[number] => {
      let at = person;
      while (into.has(at)) at = into.get(at)!;
      return at;
    };
    for (const pair of evidence) {
      if (pair.sharedCoauthors + pair.sharedInstitutions === 0) continue;
      const [a, b] = [root(owner.get(pair.a)!), root(owner.get(pair.b)!)];
      if (a === b || (a.orcid && b.orcid)) continue;
      const [keep, merged] = a.count >= b.count ? [a, b] : [b, a];
      keep.count += merged.count;
      keep.ids.push(...merged.ids);
      keep.orcid = keep.orcid ?? merged.orcid;
      keep.paperIds = [...new Set([...keep.paperIds, ...merged.paperIds])];
      into.set(merged, keep);
    }
    return people
      .filter((person) => !into.has(person))
      .map((person) => ({ ...person, possiblySame: person.possiblySame.filter((id) => !person.ids.includes(id)) }))
      .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id));
  }

  /** Identified co-authors of one person (all of their author nodes), merged by ORCID. */
  async personCoauthors(ids: readonly string[], limit: number) {
    const rows = await this.executor.read<{
      id: string;
      name: string | null;
      orcid: string | null;
      count: number;
      paperIds: string[];
    }>(queries().personCoauthors({ ids: [...ids], limit: Math.min(limit * 4, MAX_PAGE) }));
    // Co-author records of one name and no conflicting ORCID share a co-author — this person — so by the linkage rule
    // of resolvePerson they are one person: counted together, the records kept in `ids`.
    const people: Array<ReturnType<typeof mergeByOrcid<(typeof rows)[number]>>[number]> = [];
    const byName = new Map<string, (typeof people)[number]>();
    for (const coauthor of mergeByOrcid(rows)) {
      const key = coauthor.name
        ? foldName(coauthor.name)
            .replace(/[^a-z]+/g, ' ')
            .trim()
        : '';
      const into = key ? byName.get(key) : undefined;
      if (into && (!into.orcid || !coauthor.orcid || into.orcid === coauthor.orcid)) {
        into.count += coauthor.count;
        into.ids.push(...coauthor.ids);
        into.orcid = into.orcid ?? coauthor.orcid;
        into.paperIds = [...new Set([...into.paperIds, ...coauthor.paperIds])];
        into.possiblySame = into.possiblySame.filter((id) => !coauthor.ids.includes(id));
        continue;
      }
      const own = { ...coauthor, ids: [...coauthor.ids] };
      if (key) byName.set(key, own);
      people.push(own);
    }
    return people
      .map((person) => ({
        ...person,
        possiblySame: person.possiblySame.filter((id) => !person.ids.includes(id)),
      }))
      .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id))
      .slice(0, limit);
  }

  /** Venues whose name contains the text, largest first. */
  venuesByName(name: string, limit: number): Promise<Array<{ id: string; name: string; papers: number }>> {
    return this.executor.read(queries().venuesByName({ name, limit: Math.min(limit, MAX_PAGE) }));
  }

  /** Identified authors whose name contains the given text, most productive first. */
  authorsByName(name: string, limit: number): Promise<Array<{ author: AuthorRow; papers: number }>> {
    return this.executor.read(queries().authorsByName({ name, limit: Math.min(limit, MAX_PAGE) }));
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
        papers: node.papers,
      })),
      edges,
    };
  }
}
