/**
 * The arithmetic of bibliometrics, pure: h-index and citation metrics, year series and smoothed growth, emerging-topic
 * ranking, people merged by ORCID, argument checks, and the Lucene query for "most of these words".
 */
import { badInput } from '../errors';
import type { TopicRow } from '../domain';

/** Largest page of any bibliometric list, and largest year range, so that no request walks the whole graph. */
export const MAX_YEAR_SPAN = 200;

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

export function combinations(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i += 1) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** Works, h-indexes and citation totals from per-paper citation counts (inside the graph and global) and years. */
export function citationMetrics(
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
export function wholeNumber(value: number, argument: string, min: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw badInput(`${argument} must be a whole number from ${min} to ${max}, got ${String(value).slice(0, 20)}`, {
      argument,
    });
  }
  return value;
}

export function checkYears(from: number, to: number): void {
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
