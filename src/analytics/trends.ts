/**
 * Papers per year: the course of topics (by id or by phrase, with smoothed growth), emerging topics, and the years the
 * graph or a set of papers covers.
 */
import type { GraphExecutor } from '../graph/executor';
import { isFiltered, paperFilterParams, queries } from '../graph/query-registry';
import { STRONG_TOPIC_SCORE } from '../graph/schema';
import { MAX_PAGE } from '../paging';
import { badInput } from '../errors';
import type { PaperFilter, TopicRow } from '../domain';
import { checkYears, rankEmerging, smoothedGrowth, wholeNumber, type YearPoint, yearSeries } from './analytics-math';
import type { TopicSets } from './topic-sets';

/** The trends of the graph. */
export class Trends {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly topics: TopicSets,
  ) {}

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

  /** Papers per year on a topic phrase, by the topic-set rule (`topicSet`), over [from, to]. */
  async queryTrend(query: string, from: number, to: number, filter?: PaperFilter | null) {
    checkYears(from, to);
    const set = await this.topics.topicSet(query, {
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
}
