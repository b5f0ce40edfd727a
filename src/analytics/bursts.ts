/** Bursts: topics and cited references whose share of the papers jumps (Kleinberg's two-state automaton). */
import type { PaperFilter, PaperRow, TopicRow } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { isFiltered, paperFilterParams, queries } from '../graph/query-registry';
import { type Burst, kleinbergBursts } from './science-of-science';

export interface TopicBursts {
  topic: TopicRow;
  papers: number;
  bursts: Burst[];
}

/** Kleinberg bursts of topics and of cited references over the years of the filtered papers. */
export class Bursts {
  constructor(private readonly executor: GraphExecutor) {}

  /** Bursts of the most frequent topics of the filtered papers over [from, to], strongest first. */
  async topicBursts(
    filter: PaperFilter | null | undefined,
    from: number,
    to: number,
    options: { topics: number; minLevel: number | null; s: number; gamma: number },
  ): Promise<TopicBursts[]> {
    checkBurstArguments(from, to, options);
    const limit = Math.min(Math.max(1, options.topics), 100);
    const rows = await this.executor.read<{
      topic: TopicRow;
      series: Array<{ year: number; relevant: number }>;
      totals: Array<{ year: number; total: number }>;
    }>(
      // With no filter the yearly counts kept per topic and per year answer without reading every paper.
      isFiltered(filter)
        ? queries().topicYearCounts({ ...paperFilterParams(filter), from, to, minLevel: options.minLevel, limit })
        : queries().topicYearCountsAll({ from, to, minLevel: options.minLevel, limit }),
    );
    return strongestFirst(
      rows.map((row) => ({
        topic: row.topic,
        papers: relevantTotal(row),
        bursts: kleinbergBursts(burstSeries(row), { s: options.s, gamma: options.gamma }),
      })),
      (row) => row.topic.id,
    );
  }

  /**
   * Bursts of the works the filtered papers cite most, over [from, to]: in year t, r_t of the d_t references the
   * filtered papers of that year make go to the work (Kleinberg 2003, as CiteSpace detects citation bursts).
   */
  async referenceBursts(
    filter: PaperFilter | null | undefined,
    from: number,
    to: number,
    options: { references: number; s: number; gamma: number },
  ): Promise<Array<{ paper: PaperRow; citations: number; bursts: Burst[] }>> {
    checkBurstArguments(from, to, options);
    const rows = await this.executor.read<{
      paper: PaperRow;
      series: Array<{ year: number; relevant: number }>;
      totals: Array<{ year: number; total: number }>;
    }>(
      queries().referenceYearCounts({
        ...paperFilterParams(filter),
        from,
        to,
        limit: Math.min(Math.max(1, options.references), 200),
      }),
    );
    return strongestFirst(
      rows.map((row) => ({
        paper: row.paper,
        citations: relevantTotal(row),
        bursts: kleinbergBursts(burstSeries(row), { s: options.s, gamma: options.gamma }),
      })),
      (row) => row.paper.id,
    );
  }
}

function checkBurstArguments(from: number, to: number, options: { s: number; gamma: number }): void {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to || to - from > 300) {
    throw badInput('from and to must be years with from ≤ to, at most 300 apart', { argument: 'from' });
  }
  if (!(options.s > 1) || !(options.gamma > 0)) {
    throw badInput('s must be over 1 and gamma over 0', { argument: 's' });
  }
}

/** Counts per year as the queries give them: the relevant ones, and each year's total. */
interface YearCounts {
  series: Array<{ year: number; relevant: number }>;
  totals: Array<{ year: number; total: number }>;
}

/** The series Kleinberg's automaton reads: every year with a total, its relevant count (0 when none). */
function burstSeries(row: YearCounts): Array<{ year: number; total: number; relevant: number }> {
  const relevant = new Map(row.series.map((point) => [point.year, point.relevant]));
  return row.totals.map((point) => ({ year: point.year, total: point.total, relevant: relevant.get(point.year) ?? 0 }));
}

function relevantTotal(row: YearCounts): number {
  return row.series.reduce((sum, point) => sum + point.relevant, 0);
}

/** Rows with at least one burst, the strongest burst first (ties by id). */
function strongestFirst<T extends { bursts: Burst[] }>(rows: T[], idOf: (row: T) => string): T[] {
  const strength = (row: T) => Math.max(...row.bursts.map((burst) => burst.strength));
  return rows
    .filter((row) => row.bursts.length > 0)
    .sort((a, b) => strength(b) - strength(a) || (idOf(a) < idOf(b) ? -1 : 1));
}
