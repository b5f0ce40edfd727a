import { normaliseDoi } from '../text';
import type { DocumentMetadata, DocumentText } from './document-text';

/**
 * Who a document is: title, authors, DOI and year from what the reader found (PDF metadata, meta tags) and from the
 * first pages; and its reference list split into entries. Both feed matching against the graph.
 */

const DOI_IN_TEXT = /\b(10\.\d{4,9}\/[^\s"<>,;]+)/i;

/** Titles PDF producers write that are not the document's title. */
function isJunkTitle(title: string): boolean {
  return (
    title.trim().length < 6 ||
    /\.(?:html?|docx?|pdf|tex|dvi|ps|indd|rtf|odt)$/i.test(title.trim()) ||
    /^(?:untitled|microsoft word|title|document|paper|manuscript|slide)\b/i.test(title.trim()) ||
    /^[\w-]+$/.test(title.trim())
  );
}

/** A DOI as written in text, without the punctuation that ends the sentence around it. */
export function doiInText(text: string): string | null {
  const match = DOI_IN_TEXT.exec(text);
  return match ? normaliseDoi(match[1]!.replace(/[.)\]]+$/, '')) : null;
}

/** Title, authors, DOI and year of a document: the reader's metadata first, then the front of the text. */
export function documentIdentity(document: DocumentText, info: Record<string, unknown> = {}): DocumentMetadata {
  const meta = document.metadata;
  // The first two pages (or 6,000 characters), up to the reference list: a DOI there is one the document cites.
  const references = document.sections.find((section) => section.kind === 'references');
  const front = document.text.slice(
    0,
    Math.min(
      document.pages.length > 0 ? document.pages[Math.min(1, document.pages.length - 1)]!.end : 6000,
      references ? references.start : Infinity,
    ),
  );
  const infoTitle = typeof info.Title === 'string' && !isJunkTitle(info.Title) ? info.Title.trim() : null;
  const title = meta.title ?? infoTitle;
  let authors = meta.authors;
  if (authors.length === 0 && typeof info.Author === 'string' && info.Author.trim()) {
    authors = info.Author.split(/\s*(?:;|,|\band\b|&)\s*/).filter((name) => name.length > 1);
  }
  if (authors.length === 0 && title) {
    // The line under the title, when it reads as a list of names.
    const afterTitle = document.text.indexOf(title);
    if (afterTitle >= 0) {
      const rest = document.text.slice(afterTitle + title.length).replace(/^\s+/, '');
      const candidate = rest.split('\n\n')[0] ?? '';
      if (
        candidate.length < 300 &&
        !/[.!?]$/.test(candidate) &&
        /^\p{Lu}/u.test(candidate) &&
        candidate.split(/\s+/).length <= 40
      ) {
        authors = candidate
          .replace(/[\d*†‡§¶]+/g, '')
          .split(/\s*(?:;|,|\band\b|&)\s*/)
          .map((name) => name.trim())
          .filter((name) => /^\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}?[\p{L}.'-]*)+$/u.test(name));
      }
    }
  }
  const doi = normaliseDoi(meta.doi) ?? doiInText(front);
  // The year is read from the front matter only (before the abstract or introduction): the body is full of years.
  const body = document.sections.find((section) => section.kind !== 'front' && section.kind !== 'other');
  const head = front.slice(0, body ? body.start : undefined);
  const yearMatch =
    /(?:©|\(c\)|copyright|published(?: online)?|accepted|received)[^\n]{0,40}?\b((?:19|20)\d{2})\b/i.exec(head) ??
    // A date line of its own (LaTeX's \date): "2023", "March 2023", "12 March 2023", "March 12, 2023".
    /^(?:(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?((?:19|20)\d{2})$/m.exec(head);
  const year = meta.year ?? (yearMatch ? Number(yearMatch[1]) : null);
  return { title, authors, doi, year };
}

/** Normalised title for matching: lower case, letters and digits, single spaces. */
export function titleKey(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export interface ReferenceEntry {
  /** 1-based position in the reference list. */
  readonly index: number;
  readonly raw: string;
  readonly doi: string | null;
  /** Every year the entry mentions (a title may hold years too: "1941 to 1996"). */
  readonly years: number[];
}

function entry(index: number, raw: string): ReferenceEntry {
  const text = raw.replace(/\s+/g, ' ').trim();
  const years = [...text.matchAll(/\b((?:19|20)\d{2})[a-z]?\b/g)].map((match) => Number(match[1]));
  return { index, raw: text, doi: doiInText(text), years };
}

/**
 * Splits the text of a references section into entries: numbered lists ("[1] …", "1. …", numbers in sequence),
 * else one entry per paragraph, else author–year entries ("Smith, J. A., …") run together.
 */
export function splitReferences(body: string): ReferenceEntry[] {
  const text = body.trim();
  if (!text) return [];
  const marker = /(?:^|\s)\[?(\d{1,3})[\].]\s+/g;
  const starts: Array<{ at: number; contentAt: number }> = [];
  let expected = 1;
  for (let match = marker.exec(text); match; match = marker.exec(text)) {
    if (Number(match[1]) !== expected) continue;
    const at = match.index + (match[0].length - match[0].trimStart().length);
    starts.push({ at, contentAt: match.index + match[0].length });
    expected += 1;
  }
  if (starts.length >= 2 && starts[0]!.at < 5) {
    return starts
      .map((start, index) => entry(index + 1, text.slice(start.contentAt, starts[index + 1]?.at ?? text.length)))
      .filter((item) => item.raw.length > 0);
  }
  const paragraphs = text.split(/\n\s*\n/).filter((part) => part.trim().length > 0);
  if (paragraphs.length >= 2) return paragraphs.map((part, index) => entry(index + 1, part));
  const authorYear = text.split(/(?<=\.)\s+(?=\p{Lu}[\p{L}'’-]+,\s+(?:\p{Lu}\.\s*)+)/u);
  return authorYear.map((part, index) => entry(index + 1, part));
}
