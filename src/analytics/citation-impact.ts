/** Citation impact over time: disruption (CD index), field-normalised impact and sleeping beauties. */
import type { PaperFilter, PaperRow, TopicRow } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { paperFilterParams, queries } from '../graph/query-registry';
import { MAX_PAGE, type PageRequest, type WarningSink } from '../paging';
import { papersOf } from './citation-networks';
import { beautyCoefficient, cdIndex, type DisruptionCounts } from './science-of-science';

/** Most papers a DISRUPTION sort orders (the CD index of each is computed). */
export const MAX_DISRUPTION_SORT = 5000;

export interface Disruption extends DisruptionCounts {
  paperId: string;
  year: number | null;
  /** References of the focal paper in the graph (stubs included). */
  references: number;
  /** Years after publication counted, or null for all. */
  window: number | null;
  cd: number | null;
}

export interface NormalisedImpact {
  id: string;
  year: number;
  field: TopicRow;
  citations: number;
  /** Full papers of the same year in the field (the paper included), and their mean internal citations. */
  peers: number;
  expected: number;
  /** citations / expected; null when the field's papers of that year are never cited. */
  value: number | null;
}

export type CitationBasisName = 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS';

export interface SleepingBeauty {
  paperId: string;
  year: number;
  coefficient: number;
  peakYear: number;
  awakeningYear: number;
  /** Citations per year from the publication year on. */
  series: Array<{ year: number; citations: number }>;
}

interface HistoryRow {
  id: string;
  year: number;
  citing: number[];
  globalYears: number[] | null;
  globalCounts: number[] | null;
}

/**
 * A paper's citations per year from its publication year: inside the graph (the citing papers' years, up to the last
 * citing year), or OpenAlex's counts_by_year — null when those do not reach back to the publication year (OpenAlex
 * keeps about the last ten years), since the beauty coefficient needs the whole history.
 */
export function citationSeries(
  row: HistoryRow,
  basis: CitationBasisName,
): Array<{ year: number; citations: number }> | null {
  const counts = new Map<number, number>();
  if (basis === 'INTERNAL_CITATIONS') {
    for (const year of row.citing) if (year >= row.year) counts.set(year, (counts.get(year) ?? 0) + 1);
  } else {
    const years = row.globalYears ?? [];
    if (years.length === 0 || Math.min(...years) > row.year) return null;
    years.forEach((year, i) => {
      if (year >= row.year) counts.set(year, row.globalCounts?.[i] ?? 0);
    });
  }
  const last = Math.max(row.year, ...counts.keys());
  return Array.from({ length: last - row.year + 1 }, (_, i) => ({
    year: row.year + i,
    citations: counts.get(row.year + i) ?? 0,
  }));
}

/**
 * How papers are cited over time: disruption (CD index), field-normalised impact and sleeping beauties.
 */
export class CitationImpact {
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

  /**
   * The CD index of each of the given papers (any number: a topic's papers) that at least `minCiting` full papers
   * cite and that has at least `minReferences` references in the graph, most disruptive first. A paper citing nothing
   * the graph holds cannot be consolidated (no paper can cite it together with its references), so its index is +1 by
   * construction: by default such papers are left out of the ranking, and counted in `fewReferences`. Papers with no
   * paper around them to count are left out too.
   */
  async disruptionOfPapers(
    ids: readonly string[],
    minCiting: number,
    minReferences = 1,
  ): Promise<{ ranked: Array<Disruption & { title: string | null }>; fewReferences: number }> {
    if (!Number.isInteger(minReferences) || minReferences < 0 || minReferences > 1000) {
      throw badInput('minReferences must be a whole number in [0, 1000]', { argument: 'minReferences' });
    }
    if (ids.length === 0) return { ranked: [], fewReferences: 0 };
    const rows = await this.executor.read<{
      id: string;
      title: string | null;
      year: number | null;
      references: number;
      focalOnly: number;
      both: number;
      referencesOnly: number;
    }>(queries().papersDisruption({ ids: [...new Set(ids)], minCiting: Math.max(1, Math.floor(minCiting)) }));
    const scored = rows
      .map((row) => {
        const counts = { focalOnly: row.focalOnly, both: row.both, referencesOnly: row.referencesOnly };
        return {
          paperId: row.id,
          title: row.title,
          year: row.year,
          references: row.references,
          window: null,
          ...counts,
          cd: cdIndex(counts),
        };
      })
      .filter((row) => row.cd !== null);
    const ranked = scored
      .filter((row) => row.references >= minReferences)
      .sort((a, b) => b.cd! - a.cd! || a.paperId.localeCompare(b.paperId));
    return { ranked, fewReferences: scored.length - ranked.length };
  }

  /**
   * The filter's papers (at most MAX_DISRUPTION_SORT, the most cited inside the graph) ordered by their CD index, one
   * offset page of them: most disruptive first unless ascending; papers without an index (cited by no full paper, or
   * citing no work the graph knows) last, by id. The warnings say how many have no index and why, and any cut.
   */
  async papersByDisruption(
    filter: PaperFilter | null | undefined,
    page: PageRequest,
    descending: boolean,
    warnings: WarningSink,
  ): Promise<{ items: PaperRow[]; skip: number; hasNextPage: boolean; totalCount: () => Promise<number> }> {
    const candidates = await this.executor.read<{ id: string }>(
      queries().filterPapers({ ...paperFilterParams(filter), limit: MAX_DISRUPTION_SORT + 1 }),
    );
    if (candidates.length > MAX_DISRUPTION_SORT) {
      warnings.warn(
        `sort DISRUPTION: the filter holds more than ${MAX_DISRUPTION_SORT} papers; the ${MAX_DISRUPTION_SORT} most cited inside the graph are sorted`,
      );
    }
    const ids = candidates.slice(0, MAX_DISRUPTION_SORT).map((row) => row.id);
    const { ranked, fewReferences } = await this.disruptionOfPapers(ids, 1, 1);
    if (!descending) ranked.reverse();
    const indexed = new Set(ranked.map((row) => row.paperId));
    const rest = ids.filter((id) => !indexed.has(id)).sort();
    if (rest.length > 0) {
      warnings.warn(
        `sort DISRUPTION: ${rest.length} of ${ids.length} papers have no CD index and come last (${fewReferences} cite no work the graph knows, so their index would be +1 by construction; for the other ${rest.length - fewReferences}, no paper of the graph cites them)`,
      );
    }
    const order = [...ranked.map((row) => row.paperId), ...rest];
    const shown = order.slice(page.skip, page.skip + page.limit);
    const rows = await papersOf(this.executor, shown);
    return {
      items: shown.map((id) => rows.get(id)!),
      skip: page.skip,
      hasNextPage: order.length > page.skip + page.limit,
      totalCount: () => Promise.resolve(order.length),
    };
  }

  /**
   * Field-normalised impact of papers inside the graph (like OpenAlex's FWCI, on internal citations): citations over
   * the mean of the same year and field. Papers without a year or a topic are absent.
   */
  async normalisedImpact(ids: readonly string[]): Promise<Map<string, NormalisedImpact>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<Omit<NormalisedImpact, 'value'>>(
      queries().normalisedImpact({ ids: [...new Set(ids)].slice(0, 1000) }),
    );
    return new Map(
      rows.map((row) => [row.id, { ...row, value: row.expected > 0 ? row.citations / row.expected : null }]),
    );
  }

  /** An author's mean normalised impact over their papers (those with a year and a topic), beside the h-index. */
  async authorNormalisedImpact(authorId: string): Promise<{ mean: number | null; papers: number }> {
    const [row] = await this.executor.read<{ ids: string[] }>(queries().authorPaperIds({ id: authorId }));
    const values = [...(await this.normalisedImpact(row?.ids ?? [])).values()]
      .map((impact) => impact.value)
      .filter((value): value is number => value !== null);
    return {
      mean: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
      papers: values.length,
    };
  }

  /** The beauty coefficient and awakening year of a paper (Ke et al. 2015), from internal or OpenAlex citations. */
  async sleepingBeauty(id: string, basis: CitationBasisName): Promise<SleepingBeauty | null> {
    const rows = await this.executor.read<HistoryRow>(
      queries().citationHistories({ ...paperFilterParams(null), ids: [id], minCitations: 0 }),
    );
    return rows[0] ? beauty(rows[0], basis) : null;
  }

  /** The filtered papers with at least `minCitations` internal citations, by beauty coefficient, highest first. */
  async sleepingBeauties(
    filter: PaperFilter | null | undefined,
    basis: CitationBasisName,
    first: number,
    minCitations: number,
  ): Promise<SleepingBeauty[]> {
    if (!Number.isInteger(minCitations) || minCitations < 1) {
      throw badInput('minCitations must be a whole number of at least 1', { argument: 'minCitations' });
    }
    const rows = await this.executor.read<HistoryRow>(
      queries().citationHistories({ ...paperFilterParams(filter), ids: null, minCitations }),
    );
    return rows
      .map((row) => beauty(row, basis))
      .filter((b): b is SleepingBeauty => b !== null)
      .sort((a, b) => b.coefficient - a.coefficient || (a.paperId < b.paperId ? -1 : 1))
      .slice(0, Math.min(Math.max(1, first), MAX_PAGE));
  }
}

function beauty(row: HistoryRow, basis: CitationBasisName): SleepingBeauty | null {
  const series = citationSeries(row, basis);
  if (!series) return null;
  const measured = beautyCoefficient(series.map((point) => point.citations));
  return {
    paperId: row.id,
    year: row.year,
    coefficient: measured.coefficient,
    peakYear: row.year + measured.peakAfter,
    awakeningYear: row.year + measured.awakeningAfter,
    series,
  };
}
