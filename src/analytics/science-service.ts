import type { PaperFilter, PaperRow, TopicRow, VenueRow } from '../domain';
import { badInput, CitegraphError, ErrorCode } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import { MAX_PAGE } from '../paging';
import {
  bradfordZones,
  type Burst,
  cdIndex,
  type DisruptionCounts,
  fitLotka,
  kleinbergBursts,
  type LotkaFit,
} from './science-of-science';

export interface Disruption extends DisruptionCounts {
  paperId: string;
  year: number | null;
  /** References of the focal paper in the graph (stubs included). */
  references: number;
  /** Years after publication counted, or null for all. */
  window: number | null;
  cd: number | null;
}

export interface CitationPath {
  /** The papers from the first to the last. */
  papers: PaperRow[];
  /** For each step, whether the earlier paper of the chain cites the later one (else the later cites the earlier). */
  forward: boolean[];
}

export interface TopicBursts {
  topic: TopicRow;
  papers: number;
  bursts: Burst[];
}

/** Most papers a set-level query (prior and derivative works) takes. */
const MAX_SET = 200;
/** Deepest citation path searched. */
const MAX_DEPTH = 10;

const notFound = (what: string) => new CitegraphError(ErrorCode.NOT_FOUND, what);

/**
 * Science-of-science measures over the citation graph: disruption (CD index), prior and derivative works, citation
 * paths, Lotka's and Bradford's laws, and Kleinberg bursts of topics. Counting is done in Cypher, the measures are
 * the pure functions of science-of-science.ts.
 */
export class ScienceService {
  constructor(private readonly executor: GraphExecutor) {}

  /** The CD index of a paper, with the counts behind it; `window` limits the citing papers to that many years. */
  async disruption(id: string, window: number | null = null): Promise<Disruption | null> {
    if (window !== null && (!Number.isInteger(window) || window < 0 || window > 200)) {
      throw badInput('window must be a whole number of years in [0, 200]', { argument: 'window' });
    }
    const [row] = await this.executor.read<{
      id: string;
      year: number | null;
      references: number;
      focalOnly: number;
      both: number;
      referencesOnly: number;
    }>(queries().paperDisruption({ id, window }));
    if (!row) return null;
    const counts = { focalOnly: row.focalOnly, both: row.both, referencesOnly: row.referencesOnly };
    return {
      paperId: row.id,
      year: row.year,
      references: row.references,
      window,
      ...counts,
      cd: cdIndex(counts),
    };
  }

  private checkSet(ids: readonly string[]): string[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badInput('give at least one paper id', { argument: 'ids' });
    if (unique.length > MAX_SET) throw badInput(`at most ${MAX_SET} papers`, { argument: 'ids' });
    return unique;
  }

  /** The works a set of papers cites most (outside the set), with how many of the set cite each. */
  async priorWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().priorWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /** The full papers citing the most papers of a set (outside it). */
  async derivativeWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().derivativeWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /**
   * The shortest chain of citations between two papers, at most `depth` steps: directed (each paper cites the next)
   * or either way. Null when there is none that short.
   */
  async citationPath(from: string, to: string, directed: boolean, depth: number): Promise<CitationPath | null> {
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
      throw badInput(`maxDepth must be a whole number in [1, ${MAX_DEPTH}]`, { argument: 'maxDepth' });
    }
    if (from === to) throw badInput('the two papers are the same', { argument: 'to' });
    const params = { from, to, depth };
    const [row] = await this.executor.read<{ ids: string[]; citing: string[] }>(
      directed ? queries().citationPathDirected(params) : queries().citationPathUndirected(params),
    );
    if (!row) return null;
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids: row.ids }));
    const byId = new Map(rows.map((r) => [r.paper.id, r.paper]));
    return {
      papers: row.ids.map((id) => byId.get(id) ?? { id, stub: true }),
      forward: row.citing.map((citing, index) => citing === row.ids[index]),
    };
  }

  /** Lotka's law over the identified authors of the filtered papers. */
  async lotka(filter: PaperFilter | null | undefined): Promise<LotkaFit> {
    const rows = await this.executor.read<{ papers: number; authors: number }>(
      queries().authorProductivity(paperFilterParams(filter)),
    );
    return fitLotka(rows.flatMap((row) => new Array<number>(row.authors).fill(row.papers)));
  }

  /** Bradford's zones of the venues of the filtered papers (papers without a venue are counted apart). */
  async bradford(filter: PaperFilter | null | undefined) {
    const rows = await this.executor.read<{ venue: VenueRow | null; papers: number }>(
      queries().venuePaperCounts(paperFilterParams(filter)),
    );
    const venues = new Map(rows.flatMap((row) => (row.venue ? [[row.venue.id, row.venue] as const] : [])));
    const zones = bradfordZones(rows.flatMap((row) => (row.venue ? [{ id: row.venue.id, papers: row.papers }] : [])));
    return {
      zones: zones.zones.map((zone) => ({
        zone: zone.zone,
        papers: zone.papers,
        venues: zone.venues.map((v) => ({ venue: venues.get(v.id)!, papers: v.papers })),
      })),
      multipliers: zones.multipliers,
      papersWithoutVenue: rows.find((row) => !row.venue)?.papers ?? 0,
    };
  }

  /** Bursts of the most frequent topics of the filtered papers over [from, to], strongest first. */
  async topicBursts(
    filter: PaperFilter | null | undefined,
    from: number,
    to: number,
    options: { topics: number; minLevel: number | null; s: number; gamma: number },
  ): Promise<TopicBursts[]> {
    if (!Number.isInteger(from) || !Number.isInteger(to) || from > to || to - from > 300) {
      throw badInput('from and to must be years with from ≤ to, at most 300 apart', { argument: 'from' });
    }
    if (!(options.s > 1) || !(options.gamma > 0)) {
      throw badInput('s must be over 1 and gamma over 0', { argument: 's' });
    }
    const rows = await this.executor.read<{
      topic: TopicRow;
      series: Array<{ year: number; relevant: number }>;
      totals: Array<{ year: number; total: number }>;
    }>(
      queries().topicYearCounts({
        ...paperFilterParams(filter),
        from,
        to,
        minLevel: options.minLevel,
        limit: Math.min(Math.max(1, options.topics), 100),
      }),
    );
    return rows
      .map((row) => {
        const relevant = new Map(row.series.map((point) => [point.year, point.relevant]));
        const series = row.totals.map((point) => ({
          year: point.year,
          total: point.total,
          relevant: relevant.get(point.year) ?? 0,
        }));
        return {
          topic: row.topic,
          papers: row.series.reduce((sum, point) => sum + point.relevant, 0),
          bursts: kleinbergBursts(series, { s: options.s, gamma: options.gamma }),
        };
      })
      .filter((row) => row.bursts.length > 0)
      .sort(
        (a, b) =>
          Math.max(...b.bursts.map((x) => x.strength)) - Math.max(...a.bursts.map((x) => x.strength)) ||
          (a.topic.id < b.topic.id ? -1 : 1),
      );
  }

  /** A paper that must exist for a measure of it. */
  async requirePaper(id: string): Promise<void> {
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids: [id] }));
    if (rows.length === 0) throw notFound(`no paper ${id.slice(0, 100)}`);
  }
}
