/**
 * Judging an answer against a gold plan and gold figure of data/questions/ask-v3.jsonl (written by
 * scripts/bench/gold-figures.py from the raw records): is the operation the gold one, and is the answer's key figure the
 * gold one — the count within the accepted range, the first of a ranking among the gold top items, the person's
 * measure equal, the trend's peak year one of the gold peaks, the number of citing or cited papers, of core journals
 * (within the accepted range) or of links on a citation path equal, the Lotka share within its range, the winner
 * of a comparison the gold one, over the gold years when the question names years (an end it leaves open may fall
 * anywhere inside the gold's coverage).
 * The right operation over the wrong papers is a wrong answer.
 */
import type { AnswerFigure } from '../../src/pipeline/ask-types';

export interface GoldPlan {
  readonly op: string;
  readonly topic?: { text: string; review: string };
  readonly person?: { name: string };
  readonly paper?: { id: string };
  readonly years?: [number | null, number | null];
  readonly metric?: string;
  readonly steps?: GoldPlan[];
  readonly [key: string]: unknown;
}

export interface GoldFigure {
  readonly kind: 'count' | 'top' | 'value' | 'peak' | 'choice' | 'share';
  readonly value?: number | string | null;
  readonly accept?: [number, number];
  readonly items?: Array<string | number>;
  readonly metric?: string;
  readonly years?: [number, number];
}

export interface V3Question {
  readonly id: string;
  /** dev: tuned on; dev2: ask-v3's held-out part, tuned on from 2026-12-05; heldout: never tuned on. */
  readonly split: 'dev' | 'dev2' | 'heldout';
  readonly batch?: string;
  readonly category: 'bibliometric' | 'trend' | 'current' | 'content';
  readonly question: string;
  readonly route: string;
  readonly answerable: boolean | null;
  readonly gold?: GoldPlan;
  readonly figure?: GoldFigure;
  /** A content question written from one paper (ask-v9 on): the paper that answers it. */
  readonly source?: string;
}

/** A person's name as the gold recount keys it: first given name and surname, no initials or diacritics. */
export function personKey(name: string): string {
  const tokens = name
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[.,]/g, ' ')
    .split(/\s+/)
    .filter((t) => t.length > 1);
  return tokens.length ? `${tokens[0]} ${tokens[tokens.length - 1]}` : name.toLowerCase();
}

/** The metric a gold `author_metrics` figure names, as the answer figure's item id. */
const METRIC_ITEM: Record<string, string> = { papers: 'papers', h_index: 'h_index', citations: 'citations' };

/** Why the answer's figure is not the gold one, or null when it is. */
export function figureMiss(gold: GoldPlan, expected: GoldFigure, figure: AnswerFigure | null): string | null {
  if (!figure) return 'no figure';
  const asked = gold.years ?? gold.steps?.[0]?.years;
  if (asked && expected.years && figure.years) {
    // A year the question names must be the answer's; an end it leaves open ("before 2019", "since 2015") is where
    // the counted papers begin or end, which must lie inside the gold's coverage but depends on the topic set.
    const [from, to] = figure.years;
    const fromRight =
      asked[0] === null ? from >= expected.years[0] && from <= expected.years[1] : from === expected.years[0];
    const toRight = asked[1] === null ? to <= expected.years[1] && to >= expected.years[0] : to === expected.years[1];
    if (!fromRight || !toRight) return `years ${from}–${to}, gold ${expected.years[0]}–${expected.years[1]}`;
  } else if (asked && expected.years && !figure.years) return 'no years';
  switch (expected.kind) {
    case 'count': {
      if (figure.kind !== 'count' || figure.value === null) return `a ${figure.kind}, not a count`;
      const [lo, hi] = expected.accept!;
      return figure.value >= lo && figure.value <= hi
        ? null
        : `count ${figure.value}, gold ${expected.value} (${lo}–${hi})`;
    }
    case 'top': {
      if (figure.kind !== 'top') return `a ${figure.kind}, not a ranking`;
      const first = figure.items[0];
      if (!first) return 'an empty ranking';
      const items = (expected.items ?? []).map(String);
      const people = gold.op === 'top_authors' || gold.op === 'coauthors';
      const match = people
        ? items.map(personKey).includes(personKey(first.label))
        : items.includes(first.id) || items.map((i) => i.toLowerCase()).includes(first.label.toLowerCase());
      return match ? null : `first ${first.label} (${first.id}), gold ${items.slice(0, 5).join('; ')}`;
    }
    case 'value': {
      if (gold.op === 'author_metrics' || gold.steps?.[1]?.op === 'author_metrics') {
        if (figure.kind !== 'metrics') return `a ${figure.kind}, not a person's measures`;
        const item = figure.items.find((i) => i.id === METRIC_ITEM[expected.metric ?? '']);
        return item?.value === expected.value
          ? null
          : `${expected.metric} ${item?.value ?? 'missing'}, gold ${expected.value}`;
      }
      if (gold.op === 'bradford' || gold.op === 'citation_path') {
        if (figure.kind !== 'value') return `a ${figure.kind}, not a measure`;
        if (expected.accept && figure.value !== null) {
          const [lo, hi] = expected.accept;
          return figure.value >= lo && figure.value <= hi
            ? null
            : `${expected.metric} ${figure.value}, gold ${expected.value} (${lo}–${hi})`;
        }
        return figure.value === (expected.value ?? null)
          ? null
          : `${expected.metric} ${figure.value ?? 'none'}, gold ${expected.value ?? 'none'}`;
      }
      if (gold.op === 'derivative_works' || gold.op === 'prior_works') {
        if (figure.kind !== 'count') return `a ${figure.kind}, not a count`;
        return figure.value === expected.value ? null : `${expected.metric} ${figure.value}, gold ${expected.value}`;
      }
      return `no figure kind for ${gold.op}`;
    }
    case 'choice': {
      if (figure.kind !== 'choice') return `a ${figure.kind}, not a comparison`;
      const [first, second] = figure.items;
      if (!first || !second) return 'a comparison of fewer than two';
      if (first.value === second.value) return `a tie at ${first.value}, gold ${String(expected.value)}`;
      return sameSubject(gold.op, first, String(expected.value))
        ? null
        : `larger ${first.label} (${first.value} against ${second.value}), gold ${String(expected.value)}`;
    }
    case 'share': {
      if (figure.kind !== 'share' || figure.value === null) return `a ${figure.kind}, not a share`;
      const [lo, hi] = expected.accept!;
      return figure.value >= lo && figure.value <= hi
        ? null
        : `share ${figure.value}, gold ${String(expected.value)} (${lo}–${hi})`;
    }
    case 'peak': {
      if (figure.kind !== 'peak') return `a ${figure.kind}, not a trend`;
      return (expected.items ?? []).includes(figure.value as number)
        ? null
        : `peak ${figure.value}, gold ${(expected.items ?? []).join('/')}`;
    }
    default:
      return `no figure kind for ${gold.op}`;
  }
}

/** Whether the winner of a comparison is the gold one: the same person, the same window, or the same topic words. */
function sameSubject(op: string, item: { id: string; label: string }, gold: string): boolean {
  if (op === 'compare_people') return personKey(item.label) === personKey(gold);
  if (op === 'compare_periods') return samePeriod(item.id, gold);
  const words = (text: string) =>
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 2 && !['for', 'the', 'and', 'research', 'papers', 'literature'].includes(w));
  const mine = words(item.label);
  const theirs = new Set(words(gold));
  return mine.length > 0 && mine.every((w) => theirs.has(w));
}

/**
 * Whether a window "[from, to]" is the gold one; an end the question left open ("before 2010", "after 2009") is
 * written None in the gold and matches whichever year the answer closed it with.
 */
function samePeriod(id: string, gold: string): boolean {
  const ends = (text: string) => text.replace(/[[\]\s]/g, '').split(',');
  const [mine, theirs] = [ends(id), ends(gold)];
  return mine.length === 2 && theirs.length === 2 && theirs.every((end, i) => end === 'None' || end === mine[i]);
}
