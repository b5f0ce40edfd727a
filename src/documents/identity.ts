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

/** What arXiv stamps down the left margin of a preprint's first page: "arXiv:2203.00130v1 [cs.HC] 28 Feb 2022". */
export interface ArxivStamp {
  /** "2203.00130", or an old-style "hep-th/9901001". */
  id: string;
  version: number | null;
  /** The primary category ("cs.HC"), when the stamp gives it. */
  category: string | null;
  /** The date of the version, ISO (2022-02-28), when the stamp gives it. */
  date: string | null;
  /** The year of the version: the stamp's date, else the year-and-month the identifier begins with. */
  year: number;
}

/** An arXiv stamp (or identifier) as printed; a line that is only this is the stamp, never text of the document. */
export const ARXIV_STAMP =
  /\barXiv:\s?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})(?:v(\d+))?(?:\s*\[([a-z-]+(?:\.[A-Za-z-]+)?)\])?(?:\s*(\d{1,2})\s+(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+((?:19|20)\d{2}))?/;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The arXiv stamp in a text, or null. `whole`: only a stamp with its category and date, as arXiv prints it (an
 * identifier alone in upright text is more often one the document cites).
 */
export function arxivStamp(text: string, whole = false): ArxivStamp | null {
  const match = ARXIV_STAMP.exec(text.replace(/\s+/g, ' '));
  if (!match) return null;
  const [, id, version, category, day, month, year] = match;
  if (whole && (!category || !year)) return null;
  // "2203.00130" was posted in 2022-03; "hep-th/9901001" in 1999-01.
  const yymm = /(\d{2})(\d{2})\d{3,5}$/.exec(id!.replace(/\./g, ''));
  const idYear = yymm ? (Number(yymm[1]) >= 91 ? 1900 : 2000) + Number(yymm[1]) : null;
  const date = year ? `${year}-${String(MONTHS.indexOf(month!) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}` : null;
  const stampYear = year ? Number(year) : idYear;
  if (stampYear === null) return null;
  return {
    id: id!,
    version: version ? Number(version) : null,
    category: category ?? (id!.includes('/') ? id!.split('/')[0]! : null),
    date,
    year: stampYear,
  };
}

/** What a PDF says of itself besides its text: its information dictionary, its XMP properties, an arXiv stamp. */
export interface PdfSources {
  info?: Record<string, unknown>;
  xmp?: Record<string, string | string[]>;
  arxiv?: ArxivStamp | null;
}

/** An XMP property's text (the first of a list). */
function xmpText(xmp: PdfSources['xmp'], key: string): string | null {
  const value = xmp?.[key];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && text.trim() ? text.trim() : null;
}

/**
 * A title the PDF's metadata gives, when sane: not a producer's placeholder, and its words on the first page (a
 * template's or a journal's title, left in the metadata by its producer, is not this document's).
 */
function verifiedTitle(written: string | null, firstPage: string): string | null {
  // XMP's title may hold its alternatives run together, the same title twice: once is the title.
  const candidate =
    written
      ?.replace(/\s+/g, ' ')
      .trim()
      .replace(/^(.{6,}?)\s*\1$/, '$1') ?? null;
  if (!candidate || isJunkTitle(candidate)) return null;
  const words = candidate.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  if (words.length === 0) return null;
  const page = firstPage.toLowerCase();
  const found = words.filter((word) => page.includes(word)).length;
  return found / words.length >= 0.8 ? candidate : null;
}

/** Title, authors, DOI and year of a document: the reader's metadata first, then the front of the text. */
export function documentIdentity(document: DocumentText, sources: PdfSources = {}): DocumentMetadata {
  const info = sources.info ?? {};
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
  const firstPage = document.pages.length > 0 ? document.text.slice(0, document.pages[0]!.end) : front;
  // The metadata's title when the first page bears it out (XMP's, then the information dictionary's); else the
  // largest-font lines of page one (the reader's title block).
  const infoTitle =
    verifiedTitle(xmpText(sources.xmp, 'dc:title'), firstPage) ??
    verifiedTitle(typeof info.Title === 'string' ? info.Title : null, firstPage);
  const title = document.format === 'pdf' ? (infoTitle ?? meta.title) : (meta.title ?? infoTitle);
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
  const doi = normaliseDoi(meta.doi) ?? normaliseDoi(xmpText(sources.xmp, 'prism:doi')) ?? doiInText(front);
  // The year is read from the front matter only (before the abstract or introduction): the body is full of years.
  const body = document.sections.find((section) => section.kind !== 'front' && section.kind !== 'other');
  const head = front.slice(0, body ? body.start : undefined);
  // A publication date the XMP states (not the file's creation date, which may be any later day).
  const xmpDate = ['prism:coverdate', 'prism:publicationdate', 'prism:coverdisplaydate']
    .map((key) => xmpText(sources.xmp, key))
    .find((text) => text !== null && /\b(?:19|20)\d{2}\b/.test(text));
  // Copyright, publication and proceedings lines anywhere on the first page (a footnote in the left column's foot
  // reads after the abstract), then the stamp of an arXiv preprint, then a date line of its own in the front matter.
  const yearMatch =
    (xmpDate ? /\b((?:19|20)\d{2})\b/.exec(xmpDate) : null) ??
    /(?:©|\(c\)|copyright|published(?: online)?|accepted|received)[^\n]{0,40}?\b((?:19|20)\d{2})\b/i.exec(head) ??
    // Beyond the front matter only lines no sentence of a paper's body reads like ("patients received 2000 IU" does).
    /(?:©|\(c\) |copyright )\s*[^\n]{0,40}?\b((?:19|20)\d{2})\b/i.exec(firstPage) ??
    /\bProceedings of\b[^\n]{0,200}?\b((?:19|20)\d{2})\b/.exec(firstPage) ??
    (sources.arxiv ? [String(sources.arxiv.year), String(sources.arxiv.year)] : null) ??
    // A date line of its own (LaTeX's \date): "2023", "March 2023", "12 March 2023", "March 12, 2023".
    /^(?:(?:\d{1,2}\s+)?[A-Z][a-z]+\.?\s+(?:\d{1,2},\s+)?)?((?:19|20)\d{2})$/m.exec(head);
  const year = meta.year ?? (yearMatch ? Number(yearMatch[1]) : null);
  return { title, authors, doi, year, ...(sources.arxiv ? { arxiv: sources.arxiv } : {}) };
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
