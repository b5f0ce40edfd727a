/**
 * A PDF page's text runs as lines in reading order: runs joined on a baseline, accents composed, two columns read left
 * then right (a line crossing the gutter reads in place), running headers, footers, page numbers and arXiv stamps
 * dropped.
 */
import { normaliseCharacters } from './document-text';
import { ARXIV_STAMP } from './identity';
import type { PdfPage, PdfTextItem } from './pdf-extract';

export interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
  page: number;
  column: 'left' | 'right' | 'full';
  pageHeight: number;
}

const round = (value: number, step: number): number => Math.round(value / step) * step;

/** Runs that share a baseline (within 40% of the font size), top of the page first, each line's runs left to right. */
function rawLines(items: readonly PdfTextItem[]): PdfTextItem[][] {
  const sorted = items
    .filter((item) => item.s.trim().length > 0 && item.h > 0)
    .slice()
    .sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PdfTextItem[][] = [];
  for (const item of sorted) {
    const line = lines[lines.length - 1];
    const ref = line?.[0];
    if (line && ref && Math.abs(ref.y - item.y) <= 0.4 * Math.max(ref.h, item.h)) line.push(item);
    else lines.push([item]);
  }
  for (const line of lines) line.sort((a, b) => a.x - b.x);
  return lines;
}

/** The text of runs on one line: a space where the runs are apart and neither brings one. */
function joinRuns(runs: readonly PdfTextItem[]): string {
  let text = '';
  let lastEnd = -Infinity;
  for (const run of runs) {
    const size = run.h || 10;
    if (text.length > 0 && !/\s$/.test(text) && !/^\s/.test(run.s) && run.x - lastEnd > 0.15 * size) text += ' ';
    text += run.s;
    lastEnd = run.x + run.w;
  }
  return composeAccents(normaliseCharacters(text)).replace(/\s+/g, ' ').trim();
}

/** Spacing accents TeX's OT1 fonts set before the letter they sit on, as the combining marks they stand for. */
const SPACING_ACCENTS: Readonly<Record<string, string>> = {
  '\u00A8': '\u0308', // ¨ diaeresis
  '\u00B4': '\u0301', // ´ acute
  '\u02C6': '\u0302', // ˆ circumflex
  '\u02DC': '\u0303', // ˜ tilde
  '\u02C7': '\u030C', // ˇ caron
  '\u02DA': '\u030A', // ˚ ring
  '\u02D8': '\u0306', // ˘ breve
};

/** "Kr¨oger" → "Kröger": a spacing accent directly before a letter becomes that letter's accent. */
function composeAccents(text: string): string {
  return text.replace(/([\u00A8\u00B4\u02C6\u02DC\u02C7\u02DA\u02D8])(\p{L})/gu, (_, accent: string, letter: string) =>
    `${letter}${SPACING_ACCENTS[accent]}`.normalize('NFC'),
  );
}

/**
 * The gutter of a two-column page: the widest run of the middle 40% of the page that (almost) no line crosses, with
 * column text on both sides. Null for a one-column page.
 */
export function findGutter(page: PdfPage, lines: PdfTextItem[][]): { from: number; to: number } | null {
  if (lines.length < 6) return null;
  const width = Math.ceil(page.width);
  // How many lines cover each x, as a sweep over the lines' intervals (a line counts once where its runs overlap):
  // memory and time follow the number of runs, never the page's declared width, which a hostile PDF sets at will.
  const events: Array<[number, number]> = [];
  for (const line of lines) {
    const spans = line
      // A run wider than half the page is full-width text (a title, an abstract): it says nothing of the gutter.
      .filter((run) => run.w <= 0.5 * page.width)
      .map((run) => [Math.max(0, Math.floor(run.x)), Math.min(width, Math.ceil(run.x + run.w))] as const)
      .filter(([from, to]) => to >= from)
      .sort((a, b) => a[0] - b[0]);
    let open: [number, number] | null = null;
    for (const [from, to] of spans) {
      if (open && from <= open[1] + 1) open[1] = Math.max(open[1], to);
      else {
        if (open) events.push([open[0], 1], [open[1] + 1, -1]);
        open = [from, to];
      }
    }
    if (open) events.push([open[0], 1], [open[1] + 1, -1]);
  }
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const allowed = Math.max(1, Math.floor(0.1 * lines.length));
  const lo = Math.floor(0.3 * width);
  const hi = Math.ceil(0.7 * width);
  const found: { best: { from: number; to: number } | null } = { best: null };
  // Walk the x-ranges of constant cover between events; a free range inside [lo, hi] extends the current run.
  let cover = 0;
  let runStart = -1;
  let x = lo;
  const close = (at: number): void => {
    const { best } = found;
    if (runStart >= 0 && (!best || at - runStart > best.to - best.from)) found.best = { from: runStart, to: at };
    runStart = -1;
  };
  let index = 0;
  while (index < events.length && events[index]![0] <= lo) cover += events[index++]![1];
  while (x <= hi) {
    const next = index < events.length ? Math.min(events[index]![0], hi + 1) : hi + 1;
    if (cover <= allowed) {
      if (runStart < 0) runStart = x;
    } else close(x);
    x = next;
    while (index < events.length && events[index]![0] === x) cover += events[index++]![1];
    if (x > hi) break;
  }
  close(hi + 1);
  const gutter = found.best;
  if (!gutter || gutter.to - gutter.from < 5) return null;
  let left = 0;
  let right = 0;
  // Column text on both sides: lines (or the halves of lines, when the columns share baselines) wholly left of the
  // gutter, and wholly right of it.
  for (const line of lines) {
    const narrow = line.filter((run) => run.w <= 0.5 * page.width);
    if (narrow.some((run) => run.x < gutter.from - 1 && run.x + run.w > gutter.to + 1)) continue;
    if (narrow.some((run) => run.x + run.w <= gutter.from + 1)) left += 1;
    if (narrow.some((run) => run.x >= gutter.to - 1)) right += 1;
  }
  return left >= 3 && right >= 3 ? gutter : null;
}

/**
 * The runs of a page's flow: runs set sideways (an arXiv stamp, line numbers or a notice down the margin) are not,
 * unless most of the page's text is set sideways (a table or a page turned on its side).
 */
function flowItems(items: readonly PdfTextItem[]): readonly PdfTextItem[] {
  const chars = (list: readonly PdfTextItem[]) => list.reduce((n, item) => n + item.s.trim().length, 0);
  const sideways = items.filter((item) => item.rotated);
  if (sideways.length === 0) return items;
  return 2 * chars(sideways) < chars(items) ? items.filter((item) => !item.rotated) : items;
}

/** A page's lines in reading order: full-width lines in place, between them the left column before the right. */
export function pageLines(page: PdfPage): Line[] {
  const lines = rawLines(flowItems(page.items));
  const gutter = findGutter(page, lines);
  const out: Line[] = [];
  const left: Line[] = [];
  const right: Line[] = [];
  const flush = (): void => {
    out.push(...left, ...right);
    left.length = 0;
    right.length = 0;
  };
  const make = (runs: PdfTextItem[], column: Line['column']): Line => ({
    text: joinRuns(runs),
    x0: runs[0]!.x,
    x1: runs.reduce((max, run) => Math.max(max, run.x + run.w), -Infinity),
    y: runs[0]!.y,
    size: round(
      runs.reduce((max, run) => Math.max(max, run.h), 0),
      0.5,
    ),
    page: page.number,
    column,
    pageHeight: page.height,
  });
  for (const runs of lines) {
    if (!gutter) {
      out.push(make(runs, 'full'));
      continue;
    }
    const mid = (gutter.from + gutter.to) / 2;
    const leftRuns = runs.filter((run) => run.x + run.w / 2 < mid);
    const rightRuns = runs.filter((run) => run.x + run.w / 2 >= mid);
    const crosses = runs.some((run) => run.x < gutter.from - 1 && run.x + run.w > gutter.to + 1);
    const lastLeft = leftRuns[leftRuns.length - 1];
    const firstRight = rightRuns[0];
    // Words of one full-width line (a title) can fall either side of the gutter: they are a word space apart, while
    // two column lines are at least most of a gutter apart (LaTeX's is one em, 10 pt at 10 pt type).
    const gap = lastLeft && firstRight ? firstRight.x - (lastLeft.x + lastLeft.w) : Infinity;
    const close = gap < Math.min(0.6 * (lastLeft?.h || 10), 0.8 * (gutter.to - gutter.from));
    if (crosses || close) {
      flush();
      out.push(make(runs, 'full'));
      continue;
    }
    if (leftRuns.length > 0) left.push(make(leftRuns, 'left'));
    if (rightRuns.length > 0) right.push(make(rightRuns, 'right'));
  }
  flush();
  return out;
}

const ARXIV_STAMP_LINE = new RegExp(String.raw`^\s*${ARXIV_STAMP.source}\s*$`);
const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*\d{1,4}\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,4})?$/i;
/** A header's text without its numbers: "Journal 12 (2024) 5" and "Journal 12 (2024)" + "5" in the other column agree. */
const headerKey = (text: string): string => text.toLowerCase().replace(/\d+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * Drops running headers and footers (a line at the top or bottom of the page whose text, digits aside, recurs on at
 * least 40% of pages, at least three) and page numbers.
 */
export function dropRunningLines(pages: Line[][]): Line[][] {
  const edgeLines = (lines: Line[]): Line[] => {
    if (lines.length === 0) return [];
    const byY = lines.slice().sort((a, b) => b.y - a.y);
    const top = byY.slice(0, 2).filter((line) => line.y > 0.85 * line.pageHeight);
    const bottom = byY.slice(-2).filter((line) => line.y < 0.15 * line.pageHeight);
    return [...top, ...bottom];
  };
  const counts = new Map<string, number>();
  for (const lines of pages) {
    for (const key of new Set(edgeLines(lines).map((line) => headerKey(line.text)))) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const threshold = Math.max(3, Math.ceil(0.4 * pages.length));
  return pages.map((lines) => {
    const edges = new Set(edgeLines(lines));
    return lines.filter(
      (line) =>
        !(edges.has(line) && (PAGE_NUMBER.test(line.text) || (counts.get(headerKey(line.text)) ?? 0) >= threshold)) &&
        // An arXiv stamp printed upright is a stamp all the same, never a line of the document.
        !ARXIV_STAMP_LINE.test(line.text),
    );
  });
}
