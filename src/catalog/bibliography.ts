/**
 * Paper lists as the files reference managers and spreadsheets open: CSV (RFC 4180), JSON Lines, BibTeX, RIS and
 * CSL-JSON (the input format of citeproc and Zotero). Pure: the records come from the catalogue.
 */
import type { WorkRecord } from '../domain';

export type BibliographyFormat = 'CSV' | 'JSONL' | 'BIBTEX' | 'RIS' | 'CSL_JSON';

export const BIBLIOGRAPHY_FORMATS: readonly BibliographyFormat[] = ['CSV', 'JSONL', 'BIBTEX', 'RIS', 'CSL_JSON'];

export const BIBLIOGRAPHY_MEDIA_TYPES: Readonly<Record<BibliographyFormat, string>> = {
  CSV: 'text/csv; charset=utf-8',
  JSONL: 'application/jsonl; charset=utf-8',
  BIBTEX: 'application/x-bibtex; charset=utf-8',
  RIS: 'application/x-research-info-systems; charset=utf-8',
  CSL_JSON: 'application/vnd.citationstyles.csl+json; charset=utf-8',
};

export const BIBLIOGRAPHY_EXTENSIONS: Readonly<Record<BibliographyFormat, string>> = {
  CSV: 'csv',
  JSONL: 'jsonl',
  BIBTEX: 'bib',
  RIS: 'ris',
  CSL_JSON: 'json',
};

/** The formats as named on the command line and in download URLs (any case; `bib` and `csl_json` too). */
export const BIBLIOGRAPHY_FORMAT_NAMES = 'csv, jsonl, bibtex, ris, csl-json';

/** The format a name means (csv, jsonl, bibtex or bib, ris, csl-json or csl_json; any case), or null. */
export function bibliographyFormatNamed(name: string): BibliographyFormat | null {
  const upper = name.toUpperCase().replace('-', '_');
  if (upper === 'BIB') return 'BIBTEX';
  return BIBLIOGRAPHY_FORMATS.find((format) => format === upper) ?? null;
}

/** One paper as exported: the catalogue's fields, with its authors in author-list order and its venue's name. */
export interface BibliographyRecord extends Pick<
  WorkRecord,
  'id' | 'doi' | 'title' | 'abstract' | 'year' | 'publicationDate' | 'type'
> {
  venue: string | null;
  authors: ReadonlyArray<{ name: string; orcid: string | null }>;
  citedByCount: number | null;
  pmid: string | null;
  volume: string | null;
  issue: string | null;
  firstPage: string | null;
  lastPage: string | null;
  /** The venue's publisher and ISSNs (linking ISSN first). */
  publisher: string | null;
  issn: readonly string[];
  language: string | null;
  license: string | null;
  keywords: readonly string[];
}

/** Where a record can be read: its DOI, else its OpenAlex page (graph ids are OpenAlex W-ids). */
export function recordUrl(record: BibliographyRecord): string {
  return record.doi ? `https://doi.org/${record.doi}` : `https://openalex.org/${record.id}`;
}

/**
 * A display name split into family and given names: "Family, Given" as written, else the last word is the family
 * name together with the particles before it ("Ludwig van Beethoven" → "van Beethoven", "Ludwig").
 */
export function splitName(name: string): { family: string; given: string } {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  const comma = trimmed.indexOf(',');
  if (comma > 0) return { family: trimmed.slice(0, comma).trim(), given: trimmed.slice(comma + 1).trim() };
  const words = trimmed.split(' ');
  if (words.length === 1) return { family: trimmed, given: '' };
  let start = words.length - 1;
  while (
    start > 1 &&
    /^(?:van|von|der|den|de|del|della|di|da|du|la|le|ter|ten|dos|das|bin|al)$/i.test(words[start - 1]!)
  ) {
    start -= 1;
  }
  return { family: words.slice(start).join(' '), given: words.slice(0, start).join(' ') };
}

/** A page range as a citation prints it: "199–208" (en dash), or the one page; null when there is no first page. */
export function pageSpan(first: string | null, last: string | null, dash = '–'): string | null {
  if (!first) return null;
  return last && last !== first ? `${first}${dash}${last}` : first;
}

function dateParts(record: BibliographyRecord): number[] | null {
  const date = record.publicationDate && /^(\d{4})-(\d{2})-(\d{2})$/.exec(record.publicationDate);
  if (date && (record.year === null || Number(date[1]) === record.year)) return date.slice(1).map(Number);
  return record.year === null ? null : [record.year];
}

// CSV ---------------------------------------------------------------------------------------------------------------

const CSV_COLUMNS = [
  'id',
  'doi',
  'title',
  'year',
  'publication_date',
  'type',
  'venue',
  'authors',
  'volume',
  'issue',
  'pages',
  'publisher',
  'issn',
  'language',
  'license',
  'keywords',
  'cited_by_count',
  'pmid',
  'url',
  'abstract',
] as const;

/**
 * One CSV field: quoted when it holds a comma, quote or line break (RFC 4180); a text opening with = + - @ or a tab is
 * prefixed with an apostrophe, so that no spreadsheet runs it as a formula (OWASP's CSV injection advice).
 */
function spreadsheetField(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function toCsv(records: readonly BibliographyRecord[]): string {
  const rows = records.map((r) =>
    [
      r.id,
      r.doi,
      r.title,
      r.year,
      r.publicationDate,
      r.type,
      r.venue,
      r.authors.map((a) => a.name).join('; '),
      r.volume,
      r.issue,
      pageSpan(r.firstPage, r.lastPage, '-'),
      r.publisher,
      r.issn.join('; '),
      r.language,
      r.license,
      r.keywords.join('; '),
      r.citedByCount,
      r.pmid,
      recordUrl(r),
      r.abstract,
    ]
      .map(spreadsheetField)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

// JSON Lines --------------------------------------------------------------------------------------------------------

function toJsonLines(records: readonly BibliographyRecord[]): string {
  return records.map((r) => `${JSON.stringify({ ...r, url: recordUrl(r) })}\n`).join('');
}

// BibTeX ------------------------------------------------------------------------------------------------------------

const BIBTEX_ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\textbackslash{}',
  '{': '\\{',
  '}': '\\}',
  '#': '\\#',
  $: '\\$',
  '%': '\\%',
  '&': '\\&',
  _: '\\_',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
};

/** Escapes BibTeX's special characters (every brace, so that braces stay balanced) and folds whitespace. */
export function bibtexText(text: string): string {
  return text
    .replace(/[\\{}#$%&_~^]/g, (c) => BIBTEX_ESCAPES[c]!)
    .replace(/\s+/g, ' ')
    .trim();
}

const BIBTEX_TYPES: Readonly<Record<string, { entry: string; container: string }>> = {
  article: { entry: 'article', container: 'journal' },
  'journal-article': { entry: 'article', container: 'journal' },
  review: { entry: 'article', container: 'journal' },
  letter: { entry: 'article', container: 'journal' },
  editorial: { entry: 'article', container: 'journal' },
  book: { entry: 'book', container: 'publisher' },
  'book-chapter': { entry: 'incollection', container: 'booktitle' },
  proceedings: { entry: 'proceedings', container: 'publisher' },
  'proceedings-article': { entry: 'inproceedings', container: 'booktitle' },
  dissertation: { entry: 'phdthesis', container: 'school' },
};

/** Citation keys: first author's family name, year and first title word, ASCII letters only, made unique with a, b, …. */
export function citationKeys(records: readonly BibliographyRecord[]): string[] {
  const ascii = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]/g, '');
  const bases = records.map((r) => {
    const family = r.authors[0] ? ascii(splitName(r.authors[0].name).family).toLowerCase() : 'anonymous';
    const word = ascii(
      (r.title ?? '')
        .split(/\s+/)
        .find((w) => w.length > 3 && !/^(?:the|and|with|from|that|this|into|for)$/i.test(w)) ?? '',
    ).toLowerCase();
    return `${family || 'anonymous'}${r.year ?? 'nd'}${word}` || r.id;
  });
  const seen = new Map<string, number>();
  const counts = new Map<string, number>();
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1);
  return bases.map((base) => {
    if (counts.get(base) === 1) return base;
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return `${base}${String.fromCharCode(97 + (n % 26))}${n >= 26 ? Math.floor(n / 26) : ''}`;
  });
}

function toBibtex(records: readonly BibliographyRecord[]): string {
  const keys = citationKeys(records);
  return records
    .map((r, i) => {
      const kind = BIBTEX_TYPES[r.type ?? ''] ?? { entry: 'misc', container: 'howpublished' };
      const fields: Array<[string, string | null]> = [
        [
          'author',
          r.authors.length
            ? r.authors
                .map((a) => splitName(a.name))
                .map((n) => (n.given ? `${bibtexText(n.family)}, ${bibtexText(n.given)}` : `{${bibtexText(n.family)}}`))
                .join(' and ')
            : null,
        ],
        ['title', r.title ? bibtexText(r.title) : null],
        [kind.container, r.venue ? bibtexText(r.venue) : null],
        ['year', r.year === null ? null : String(r.year)],
        ['volume', r.volume ? bibtexText(r.volume) : null],
        ['number', r.issue ? bibtexText(r.issue) : null],
        ['pages', r.firstPage ? bibtexText(pageSpan(r.firstPage, r.lastPage, '--')!) : null],
        ['publisher', r.publisher && kind.container !== 'publisher' ? bibtexText(r.publisher) : null],
        ['issn', r.issn.length ? r.issn.join(', ') : null],
        ['language', r.language ? bibtexText(r.language) : null],
        ['keywords', r.keywords.length ? r.keywords.map(bibtexText).join(', ') : null],
        // Zotero's BibTeX translators read and write a work's rights as `copyright`.
        ['copyright', r.license ? bibtexText(r.license) : null],
        // doi and url are verbatim fields (biblatex): no escapes, only braces removed to keep the entry balanced.
        ['doi', r.doi ? r.doi.replace(/[{}\s]/g, '') : null],
        ['url', recordUrl(r).replace(/[{}\s]/g, '')],
        ['pmid', r.pmid],
        ['abstract', r.abstract ? bibtexText(r.abstract) : null],
        ['note', `OpenAlex ${r.id}`],
      ];
      const body = fields
        .filter((f): f is [string, string] => f[1] !== null && f[1] !== '')
        .map(([name, value]) => `  ${name} = {${value}}`)
        .join(',\n');
      return `@${kind.entry}{${keys[i]},\n${body}\n}\n`;
    })
    .join('\n');
}

// RIS ---------------------------------------------------------------------------------------------------------------

const RIS_TYPES: Readonly<Record<string, string>> = {
  article: 'JOUR',
  'journal-article': 'JOUR',
  review: 'JOUR',
  letter: 'JOUR',
  editorial: 'JOUR',
  book: 'BOOK',
  'book-chapter': 'CHAP',
  proceedings: 'CONF',
  'proceedings-article': 'CPAPER',
  dissertation: 'THES',
  dataset: 'DATA',
  preprint: 'UNPB',
};

/** RIS (the Research Information Systems tagged format): `TAG  - value` lines, CRLF, each record closed by `ER`. */
function toRis(records: readonly BibliographyRecord[]): string {
  const line = (tag: string, value: string) => `${tag}  - ${value.replace(/\s+/g, ' ').trim()}`;
  return records
    .map((r) => {
      const lines = [line('TY', RIS_TYPES[r.type ?? ''] ?? 'GEN')];
      if (r.title) lines.push(line('TI', r.title));
      for (const author of r.authors) {
        const name = splitName(author.name);
        lines.push(line('AU', name.given ? `${name.family}, ${name.given}` : name.family));
      }
      if (r.venue) lines.push(line(RIS_TYPES[r.type ?? ''] === 'JOUR' ? 'JO' : 'T2', r.venue));
      if (r.year !== null) lines.push(line('PY', String(r.year)));
      const parts = dateParts(r);
      if (parts && parts.length === 3) {
        lines.push(
          line('DA', `${parts[0]}/${String(parts[1]).padStart(2, '0')}/${String(parts[2]).padStart(2, '0')}/`),
        );
      }
      if (r.volume) lines.push(line('VL', r.volume));
      if (r.issue) lines.push(line('IS', r.issue));
      if (r.firstPage) lines.push(line('SP', r.firstPage));
      if (r.lastPage && r.lastPage !== r.firstPage) lines.push(line('EP', r.lastPage));
      if (r.publisher) lines.push(line('PB', r.publisher));
      for (const issn of r.issn) lines.push(line('SN', issn));
      if (r.language) lines.push(line('LA', r.language));
      for (const keyword of r.keywords) lines.push(line('KW', keyword));
      if (r.doi) lines.push(line('DO', r.doi));
      lines.push(line('UR', recordUrl(r)));
      if (r.abstract) lines.push(line('AB', r.abstract));
      lines.push(line('AN', r.id));
      // RIS has no PubMed tag (C2 is the PMCID): the PMID goes in a note.
      if (r.pmid) lines.push(line('N1', `PMID: ${r.pmid}`));
      // Nor a licence tag: it goes in a note too.
      if (r.license) lines.push(line('N1', `License: ${r.license}`));
      lines.push('ER  - ');
      return lines.join('\r\n');
    })
    .join('\r\n\r\n')
    .concat('\r\n');
}

// CSL-JSON ----------------------------------------------------------------------------------------------------------

const CSL_TYPES: Readonly<Record<string, string>> = {
  article: 'article-journal',
  'journal-article': 'article-journal',
  review: 'article-journal',
  letter: 'article-journal',
  editorial: 'article-journal',
  book: 'book',
  'book-chapter': 'chapter',
  proceedings: 'book',
  'proceedings-article': 'paper-conference',
  dissertation: 'thesis',
  dataset: 'dataset',
  preprint: 'article',
};

/** CSL-JSON items (Citation Style Language 1.0.2 schema), the input of citeproc processors. */
function toCslJson(records: readonly BibliographyRecord[]): string {
  const items = records.map((r) => {
    const parts = dateParts(r);
    return {
      id: r.id,
      type: CSL_TYPES[r.type ?? ''] ?? 'article',
      ...(r.title ? { title: r.title } : {}),
      author: r.authors.map((a) => {
        const name = splitName(a.name);
        return name.given ? { family: name.family, given: name.given } : { literal: name.family };
      }),
      ...(parts ? { issued: { 'date-parts': [parts] } } : {}),
      ...(r.venue ? { 'container-title': r.venue } : {}),
      ...(r.volume ? { volume: r.volume } : {}),
      ...(r.issue ? { issue: r.issue } : {}),
      ...(r.firstPage ? { page: pageSpan(r.firstPage, r.lastPage, '-'), 'page-first': r.firstPage } : {}),
      ...(r.publisher ? { publisher: r.publisher } : {}),
      ...(r.issn.length ? { ISSN: r.issn.join(', ') } : {}),
      ...(r.language ? { language: r.language } : {}),
      ...(r.keywords.length ? { keyword: r.keywords.join(', ') } : {}),
      ...(r.license ? { license: r.license } : {}),
      ...(r.doi ? { DOI: r.doi } : {}),
      URL: recordUrl(r),
      ...(r.pmid ? { PMID: r.pmid } : {}),
      ...(r.abstract ? { abstract: r.abstract } : {}),
    };
  });
  return `${JSON.stringify(items, null, 2)}\n`;
}

/** The records in one of the formats. */
export function formatBibliography(records: readonly BibliographyRecord[], format: BibliographyFormat): string {
  switch (format) {
    case 'CSV':
      return toCsv(records);
    case 'JSONL':
      return toJsonLines(records);
    case 'BIBTEX':
      return toBibtex(records);
    case 'RIS':
      return toRis(records);
    case 'CSL_JSON':
      return toCslJson(records);
  }
}
