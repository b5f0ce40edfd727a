/**
 * The text of a document as citegraph stores it: one string, its pages and its sections as character spans into it.
 * Every reader (PDF, Markdown, HTML, text) produces blocks; `DocumentBuilder` lays them out into the stored text, so
 * that a chunk's offsets, its page numbers and its section all index the same string a citation later slices.
 */
import type { ArxivStamp } from './identity';

/** What a section is, whatever its heading says. */
export type SectionKind =
  | 'front'
  | 'abstract'
  | 'introduction'
  | 'methods'
  | 'results'
  | 'discussion'
  | 'conclusion'
  | 'references'
  | 'acknowledgements'
  | 'appendix'
  | 'other';

export interface DocumentSection {
  /** The heading as written ("3.2 Effect sizes"); "Front matter" for text before the first heading. */
  readonly title: string;
  readonly kind: SectionKind;
  /** 1 for top-level headings, deeper for subsections. */
  readonly level: number;
  /** Where the heading starts in the stored text. */
  readonly start: number;
  /** Where the section's body starts (after its heading). */
  readonly bodyStart: number;
  readonly end: number;
}

export interface DocumentPage {
  readonly number: number;
  readonly start: number;
  readonly end: number;
}

/** What a reader found about the document's identity (PDF metadata, HTML meta tags, the first page). */
export interface DocumentMetadata {
  title: string | null;
  authors: string[];
  doi: string | null;
  year: number | null;
  /** An arXiv preprint's stamp: identifier, version, category and date (PDFs only). */
  arxiv?: ArxivStamp;
}

export interface DocumentText {
  readonly format: 'pdf' | 'markdown' | 'html' | 'text';
  readonly text: string;
  /** Empty for formats without pages. */
  readonly pages: readonly DocumentPage[];
  readonly sections: readonly DocumentSection[];
  readonly metadata: DocumentMetadata;
}

/** A unit a reader emits in reading order. */
export interface Block {
  readonly kind: 'heading' | 'paragraph' | 'title';
  readonly text: string;
  /** 1-based page the block starts on; null for formats without pages. */
  readonly page: number | null;
  /** Heading depth (1 = top level); ignored for paragraphs. */
  readonly level?: number;
  /**
   * A paragraph that continues the previous one (split by a column or page break): joined with a space, not a
   * paragraph break.
   */
  readonly continues?: boolean;
  /** Where a continued block's own page starts inside it (offset into `text`), when it crosses a page break. */
  readonly pageBreaks?: ReadonlyArray<{ at: number; page: number }>;
}

const KIND_PATTERNS: ReadonlyArray<[SectionKind, RegExp]> = [
  ['abstract', /^(?:abstract|summary|synopsis)$/],
  ['introduction', /^(?:introduction|background|motivation|overview|introduction and background)$/],
  [
    'methods',
    /^(?:methods?|materials? and methods?|methods? and materials?|methodology|experimental(?: (?:setup|design|section|procedures?))?|patients? and methods?|study design|data and methods?|approach)$/,
  ],
  ['results', /^(?:results?|findings|results? and discussion|experiments?|evaluation|experimental results?)$/],
  ['discussion', /^(?:discussion|general discussion|limitations)$/],
  ['conclusion', /^(?:conclusions?|concluding remarks|summary and conclusions?|conclusions? and future work)$/],
  ['references', /^(?:references?|bibliography|literature cited|works cited|cited literature|reference list)$/],
  ['acknowledgements', /^(?:acknowledg(?:e)?ments?|funding|conflicts? of interest|declarations?)$/],
  ['appendix', /^(?:appendix|appendices|supplementary (?:material|information)|supporting information)\b.*$/],
];

/** "3.2. Results and Discussion" → "results and discussion": numbering and punctuation off, lower case. */
export function headingKey(title: string): string {
  return title
    .replace(/^(?:[0-9]+(?:\.[0-9]+)*\.?|[IVXLC]+\.|[A-Z]\.)\s+/, '')
    .replace(/[.:]\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The kind a heading names, or null when it is the document's own wording. */
export function sectionKindOf(title: string): SectionKind | null {
  const key = headingKey(title);
  for (const [kind, pattern] of KIND_PATTERNS) if (pattern.test(key)) return kind;
  return null;
}

/** Depth from numbering: "3" → 1, "3.2" → 2, "3.2.1" → 3; null when unnumbered. */
export function numberingDepth(title: string): number | null {
  const match = /^([0-9]+(?:\.[0-9]+)*)\.?\s/.exec(title);
  return match ? match[1]!.split('.').length : null;
}

/** Ligatures and look-alike characters that PDF producers emit, as the letters they stand for. */
const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

/** Ligatures spelt out, soft hyphens and zero-width characters removed, non-breaking spaces made spaces. */
export function normaliseCharacters(text: string): string {
  return text
    .replace(/[\uFB00-\uFB06]/g, (ch) => LIGATURES[ch] ?? ch)
    .replace(/[\u200B-\u200D\uFEFF]/g, '')
    .replace(/[\u00A0\u2000-\u200A\u202F]/g, ' ');
}

/**
 * Lays blocks out as the stored text: paragraphs separated by a blank line, a heading on a paragraph of its own.
 * Sections run from one heading to the next heading of the same or a higher level (subsections are sections of their
 * own, with the kind of their parent unless their own heading names one). Text before the first heading is the front
 * matter; a paragraph that starts with "Abstract" there becomes the abstract section. In Markdown and HTML the text
 * between the title and the first heading is the "Lead" section instead (an introduction, retrieved like the rest).
 */
export function buildDocument(
  format: DocumentText['format'],
  blocks: readonly Block[],
  metadata: DocumentMetadata,
): DocumentText {
  let text = '';
  const pageStarts: Array<{ page: number; at: number }> = [];
  const notePage = (page: number | null, at: number): void => {
    if (page === null) return;
    const last = pageStarts[pageStarts.length - 1];
    if (!last || page > last.page) pageStarts.push({ page, at });
  };
  interface OpenSection {
    title: string;
    kind: SectionKind;
    level: number;
    start: number;
    bodyStart: number;
  }
  const sections: DocumentSection[] = [];
  let open: OpenSection | null = null;
  const parents: OpenSection[] = [];
  const close = (end: number): void => {
    if (open && end > open.bodyStart) sections.push({ ...open, end });
    else if (open && open.kind !== 'front') sections.push({ ...open, end: Math.max(end, open.bodyStart) });
  };
  let title: string | null = null;
  for (const block of blocks) {
    const content = block.text.replace(/\s+/g, ' ').trim();
    if (!content) continue;
    if (block.kind === 'paragraph' && block.continues && text.length > 0) {
      const at = text.length + 1;
      text += ` ${content}`;
      for (const pageBreak of block.pageBreaks ?? []) notePage(pageBreak.page, at + pageBreak.at);
      notePage(block.page, at);
      continue;
    }
    if (text.length > 0) text += '\n\n';
    const start = text.length;
    notePage(block.page, start);
    if (block.kind === 'heading') {
      close(start > 2 ? start - 2 : start);
      const level = Math.max(1, block.level ?? numberingDepth(content) ?? 1);
      while (parents.length > 0 && parents[parents.length - 1]!.level >= level) parents.pop();
      const parentKind = parents.length > 0 ? parents[parents.length - 1]!.kind : null;
      // A numbered subsection is part of its parent ("4.1 Overview" under "4 Methodology" is methods, not an
      // introduction), whatever its own words say.
      const own =
        parentKind && parentKind !== 'front' && (numberingDepth(content) ?? 0) >= 2 ? null : sectionKindOf(content);
      text += content;
      open = { title: content, kind: own ?? parentKind ?? 'other', level, start, bodyStart: text.length + 2 };
      parents.push(open);
      continue;
    }
    if (block.kind === 'title') title ??= content;
    if (open === null) {
      open = { title: 'Front matter', kind: 'front', level: 0, start, bodyStart: start };
    }
    // "Abstract — text…" or "ABSTRACT: text…" in the front matter starts the abstract section.
    const inlineAbstract = /^(abstract|summary)\b\s*[.:—–-]?\s*/i.exec(content);
    if (open.kind === 'front' && inlineAbstract && content.length > inlineAbstract[0].length + 40) {
      close(start > 2 ? start - 2 : start);
      open = {
        title: inlineAbstract[1]!,
        kind: 'abstract',
        level: 1,
        start,
        bodyStart: start + inlineAbstract[0].length,
      };
      parents.length = 0;
      parents.push(open);
    }
    // Markdown and HTML put no authors or affiliations before their first heading, but the article's opening text
    // (a web page's lead, a README's summary): after the title, it is a section of its own, chunked like any other.
    else if (open.kind === 'front' && block.kind !== 'title' && (format === 'markdown' || format === 'html')) {
      close(start > 2 ? start - 2 : start);
      // No heading is its subsection: it is no parent.
      open = { title: 'Lead', kind: 'introduction', level: 0, start, bodyStart: start };
      parents.length = 0;
    }
    text += content;
    for (const pageBreak of block.pageBreaks ?? []) notePage(pageBreak.page, start + pageBreak.at);
  }
  close(text.length);
  const pages: DocumentPage[] = pageStarts.map((entry, index) => ({
    number: entry.page,
    start: entry.at,
    end: index + 1 < pageStarts.length ? pageStarts[index + 1]!.at : text.length,
  }));
  return {
    format,
    text,
    pages,
    sections: sections.sort((a, b) => a.start - b.start),
    metadata: { ...metadata, title: metadata.title ?? title },
  };
}

/** The pages a span of the stored text lies on (first and last), or nulls for a document without pages. */
export function pagesOf(
  pages: readonly DocumentPage[],
  start: number,
  end: number,
): { pageStart: number | null; pageEnd: number | null } {
  if (pages.length === 0) return { pageStart: null, pageEnd: null };
  const find = (offset: number): number => {
    let found = pages[0]!.number;
    for (const page of pages) {
      if (page.start <= offset) found = page.number;
      else break;
    }
    return found;
  };
  return { pageStart: find(start), pageEnd: find(Math.max(start, end - 1)) };
}
