import { type Block, normaliseCharacters, numberingDepth, sectionKindOf } from './document-text';
import type { PdfPage, PdfTextItem } from './pdf-extract';

/**
 * From positioned text runs to blocks in reading order: runs become lines, a page with two columns is read left
 * column then right (a line that crosses the gutter — a title, a full-width abstract — reads in place), running
 * headers, footers and page numbers are dropped, words hyphenated across lines are joined, and lines become
 * headings and paragraphs by font size, spacing and section names. A paragraph cut by a column or page break
 * continues as one.
 */

interface Line {
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

/** A page's lines in reading order: full-width lines in place, between them the left column before the right. */
function pageLines(page: PdfPage): Line[] {
  const lines = rawLines(page.items);
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
        !(edges.has(line) && (PAGE_NUMBER.test(line.text) || (counts.get(headerKey(line.text)) ?? 0) >= threshold)),
    );
  });
}

/** The most common font size, weighted by characters: the body text's. */
function bodySize(lines: readonly Line[]): number {
  const weight = new Map<number, number>();
  for (const line of lines) weight.set(line.size, (weight.get(line.size) ?? 0) + line.text.length);
  let best = 10;
  let bestWeight = -1;
  for (const [size, chars] of weight) {
    if (chars > bestWeight) {
      best = size;
      bestWeight = chars;
    }
  }
  return best;
}

/** Joins a line to the text before it: a word hyphenated at the line end is joined, otherwise a space. */
export function joinLine(text: string, line: string, vocabulary: HyphenVocabulary = NO_VOCABULARY): string {
  if (text.length === 0) return line;
  // The join reads only the end of the text: testing the whole of it would scan a growing paragraph once per line
  // (an end-anchored pattern is tried from every position), quadratic in the paragraph's length.
  const cut = Math.max(0, text.length - JOIN_TAIL);
  return text.slice(0, cut) + joinTail(text.slice(cut), line, vocabulary);
}

/** Characters of a paragraph's end that decide how the next line joins it (a hyphenated word is far shorter). */
const JOIN_TAIL = 200;

/** `joinLine` on the end of the text only. */
function joinTail(before: string, line: string, vocabulary: HyphenVocabulary): string {
  // A soft hyphen is a break inside a word; a hyphen-minus may be one too, or a compound's own hyphen.
  if (/\p{Ll}[\u00AD\u2010]$/u.test(before) && /^\p{Ll}/u.test(line)) return before.slice(0, -1) + line;
  if (/\p{Ll}-$/u.test(before) && /^\p{Ll}/u.test(line)) {
    const left = /(\p{L}+)-$/u.exec(before)![1]!.toLowerCase();
    const right = /^\p{L}+/u.exec(line)![0].toLowerCase();
    // "hyper-" "or hypoxemia": a prefix left hanging before a conjunction keeps its hyphen and the space.
    if (/^(?:or|and|nor|to)$/.test(right)) return `${before} ${line}`;
    return keepsHyphen(left, right, vocabulary) ? before + line : before.slice(0, -1) + line;
  }
  // A capitalised word the document prints whole elsewhere ("CON-" "SORT", "CONSORT") was hyphenated by the typesetter.
  if (/\p{L}-$/u.test(before) && /^\p{Lu}/u.test(line)) {
    const left = /(\p{L}+)-$/u.exec(before)![1]!.toLowerCase();
    const right = /^\p{L}+/u.exec(line)![0].toLowerCase();
    if (!vocabulary.compounds.has(`${left}-${right}`) && vocabulary.words.has(`${left}${right}`)) {
      return before.slice(0, -1) + line;
    }
  }
  // A compound broken at its hyphen before a capital or digit ("Long-" "Term"), or after a digit or bracket
  // ("(TNF)-" "alpha", "12-" "week"): the hyphen stays, no space.
  if (/\p{L}-$/u.test(before) && /^[\p{Lu}\p{N}]/u.test(line)) return before + line;
  if (/[\p{N})\]]-$/u.test(before) && /^[\p{L}\p{N}]/u.test(line)) return before + line;
  return `${before} ${line}`;
}

/** Words of a document as printed inside lines: its hyphenated compounds, and its plain words. */
export interface HyphenVocabulary {
  readonly compounds: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
}

const NO_VOCABULARY: HyphenVocabulary = { compounds: new Set(), words: new Set() };

/**
 * Whether "left-" at a line end and "right" on the next line are a compound ("meta-analysis", "double-blind") rather
 * than one word the typesetter hyphenated ("devel-opment"): the document's own usage decides — the compound printed
 * elsewhere, else the joined word printed elsewhere, else both halves being words of the document. Without evidence a
 * break is a hyphenation, the far more common case.
 */
function keepsHyphen(left: string, right: string, vocabulary: HyphenVocabulary): boolean {
  if (vocabulary.compounds.has(`${left}-${right}`)) return true;
  if (vocabulary.words.has(`${left}${right}`)) return false;
  // Halves of three letters or more: "in-", "un-", "re-" at a line end are far more often a word's first syllable.
  return left.length > 2 && right.length > 2 && vocabulary.words.has(left) && vocabulary.words.has(right);
}

/** The vocabulary of lines, leaving out the fragments around a line-end hyphen (they may be halves of a word). */
export function hyphenVocabulary(lines: readonly string[]): HyphenVocabulary {
  const compounds = new Set<string>();
  const words = new Set<string>();
  let afterHyphen = false;
  for (const line of lines) {
    const tokens = [...line.matchAll(/\p{L}+(?:-\p{L}+)*/gu)].map((match) => match[0].toLowerCase());
    const endsHyphen = /\p{L}-$/u.test(line);
    const from = afterHyphen ? 1 : 0;
    const to = endsHyphen ? tokens.length - 1 : tokens.length;
    for (const token of tokens.slice(from, Math.max(from, to))) {
      if (token.includes('-')) compounds.add(token);
      for (const part of token.split('-')) words.add(part);
    }
    afterHyphen = endsHyphen;
  }
  return { compounds, words };
}

const SENTENCE_CLOSED = /[.!?:;)\]"”]$/;

/**
 * A paragraph joined line by line. Joining reads and rewrites only the end of the text (a hyphen to drop, a space to
 * add), so the text is kept as finished parts plus a short tail: appending to one string and slicing its end would
 * copy the whole growing paragraph once per line (V8 flattens a concatenated string to slice it).
 */
class JoinedText {
  private readonly parts: string[] = [];
  private headLength = 0;
  private tail: string;

  constructor(
    first: string,
    private readonly vocabulary: HyphenVocabulary,
  ) {
    this.tail = first;
  }

  get length(): number {
    return this.headLength + this.tail.length;
  }

  join(line: string): void {
    this.tail = joinLine(this.tail, line, this.vocabulary);
    if (this.tail.length > 2 * JOIN_TAIL) {
      const done = this.tail.slice(0, this.tail.length - JOIN_TAIL);
      this.parts.push(done);
      this.headLength += done.length;
      this.tail = this.tail.slice(this.tail.length - JOIN_TAIL);
    }
  }

  /** Whether the text so far ends a sentence. */
  closed(): boolean {
    return SENTENCE_CLOSED.test(this.tail.slice(-2));
  }

  toString(): string {
    return this.parts.join('') + this.tail;
  }
}

/** Blocks of a PDF in reading order (see the module comment). */
export function pdfBlocks(pages: readonly PdfPage[]): Block[] {
  const laidOut = dropRunningLines(pages.map(pageLines));
  const all = laidOut.flat();
  const vocabulary = hyphenVocabulary(all.map((line) => line.text));
  const body = bodySize(all);
  const titleSize = laidOut[0]!.reduce((max, line) => Math.max(max, line.size), 0);
  const blocks: Block[] = [];
  // Headings get levels by size: the larger, the higher.
  const headingSizes = [...new Set(all.filter((line) => line.size >= body * 1.15).map((line) => line.size))]
    .filter((size) => size < titleSize || titleSize <= body * 1.3)
    .sort((a, b) => b - a);
  interface OpenParagraph {
    text: JoinedText;
    page: number;
    breaks: Array<{ at: number; page: number }>;
  }
  let paragraph: OpenParagraph | null = null;
  let previous: Line | null = null;
  let lineGap = body * 1.2;
  const flush = (): void => {
    const text = paragraph?.text.toString() ?? '';
    if (paragraph && text.trim()) {
      blocks.push({
        kind: 'paragraph',
        text,
        page: paragraph.page,
        pageBreaks: paragraph.breaks,
      });
    }
    paragraph = null;
  };
  let titleDone = false;
  for (let index = 0; index < all.length; index += 1) {
    const line = all[index]!;
    const isTitle = !titleDone && line.page === 1 && line.size === titleSize && titleSize > body * 1.3;
    const bigger = line.size >= body * 1.15 && line.text.length < 200;
    const named =
      line.text.length < 80 &&
      sectionKindOf(line.text) !== null &&
      !SENTENCE_CLOSED.test(line.text.replace(/[.:]$/, '')) &&
      (previous === null ||
        previous.page !== line.page ||
        previous.column !== line.column ||
        previous.y - line.y > lineGap * 1.3);
    const numbered =
      line.size > body &&
      line.text.length < 80 &&
      numberingDepth(line.text) !== null &&
      /^[0-9.]+\s+\p{Lu}/u.test(line.text) &&
      !/[.;,]$/.test(line.text);
    if (isTitle || bigger || named || numbered) {
      flush();
      // A heading over several lines: following lines of the same size, close below.
      const joined = new JoinedText(line.text, vocabulary);
      let last = line;
      while (index + 1 < all.length && (isTitle || bigger)) {
        const next = all[index + 1]!;
        if (next.size !== line.size || next.page !== line.page || next.column !== line.column) break;
        if (last.y - next.y > line.size * 2.2 || last.y - next.y <= 0) break;
        joined.join(next.text);
        last = next;
        index += 1;
      }
      const text = joined.toString();
      if (isTitle) {
        titleDone = true;
        blocks.push({ kind: 'title', text, page: line.page });
      } else {
        const rank = headingSizes.indexOf(line.size);
        blocks.push({
          kind: 'heading',
          text,
          page: line.page,
          level: numberingDepth(text) ?? (bigger && rank >= 0 ? rank + 1 : undefined),
        });
      }
      previous = all[index]!;
      continue;
    }
    if (line.page !== 1) titleDone = true;
    const sameFlow = previous !== null && previous.page === line.page && previous.column === line.column;
    const gap = sameFlow ? previous!.y - line.y : Infinity;
    if (sameFlow && gap > 0 && gap < body * 2) lineGap = Math.min(lineGap * 0.8 + gap * 0.2, body * 2);
    const sizeChanged = previous !== null && previous.size !== line.size;
    const newParagraph = paragraph === null || sizeChanged || (sameFlow ? gap > lineGap * 1.35 || gap < 0 : true);
    if (paragraph !== null && newParagraph && !sameFlow && !sizeChanged) {
      // Column or page break: the paragraph goes on when its last line did not close a sentence.
      const open: OpenParagraph = paragraph;
      if (!open.text.closed() || /^\p{Ll}/u.test(line.text)) {
        open.text.join(line.text);
        if (line.page !== open.page && !open.breaks.some((b) => b.page === line.page)) {
          open.breaks.push({ at: open.text.length - line.text.length, page: line.page });
        }
        previous = line;
        continue;
      }
    }
    if (newParagraph) {
      flush();
      paragraph = { text: new JoinedText(line.text, vocabulary), page: line.page, breaks: [] };
    } else {
      const open = paragraph!;
      open.text.join(line.text);
      if (line.page !== open.page && !open.breaks.some((b) => b.page === line.page)) {
        open.breaks.push({ at: open.text.length - line.text.length, page: line.page });
      }
    }
    previous = line;
  }
  flush();
  return blocks;
}

/** Characters of text per page: a PDF whose pages carry (almost) none has no text layer. */
export function textDensity(pages: readonly PdfPage[]): number {
  if (pages.length === 0) return 0;
  const chars = pages.reduce((sum, page) => sum + page.items.reduce((n, item) => n + item.s.trim().length, 0), 0);
  return chars / pages.length;
}
