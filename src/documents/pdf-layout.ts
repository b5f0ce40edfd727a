import { type Block, numberingDepth, sectionKindOf } from './document-text';
import type { PdfPage } from './pdf-extract';
import { hyphenVocabulary, JoinedText, SENTENCE_CLOSED } from './pdf-joining';
import { dropRunningLines, type Line, pageLines } from './pdf-lines';

/**
 * From positioned text runs to blocks in reading order: runs become lines, a page with two columns is read left
 * column then right (a line that crosses the gutter — a title, a full-width abstract — reads in place), running
 * headers, footers and page numbers are dropped, words hyphenated across lines are joined, and lines become
 * headings and paragraphs by font size, spacing and section names. A paragraph cut by a column or page break
 * continues as one.
 */

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
        // A title's lines may be read as in different columns (a short last line centred under a full one).
        if (next.size !== line.size || next.page !== line.page || (next.column !== line.column && !isTitle)) break;
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
