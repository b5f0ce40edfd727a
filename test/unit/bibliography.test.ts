import { parse as parseCsv } from 'csv-parse/sync';
import {
  type BibliographyRecord,
  bibliographyFormatNamed,
  formatBibliography,
  splitName,
} from '../../src/catalog/bibliography';

// citation-js (maintained parsers of BibTeX and RIS) has no type declarations; its data is CSL-JSON.

const { Cite } = require('@citation-js/core') as { Cite: new (input: string) => { data: CslItem[] } };

require('@citation-js/plugin-bibtex');

require('@citation-js/plugin-ris');

interface CslItem {
  type: string;
  volume?: string;
  issue?: string;
  page?: string;
  publisher?: string;
  ISSN?: string | string[];
  language?: string;
  keyword?: string;
  license?: string;
  title?: string;
  author?: Array<{ family?: string; given?: string; literal?: string; 'non-dropping-particle'?: string }>;
  issued?: { 'date-parts': number[][] };
  'container-title'?: string;
  DOI?: string;
  URL?: string;
  abstract?: string;
}

/** Two papers whose fields hold what breaks careless writers: TeX specials, quotes, commas, line breaks, accents. */
const RECORDS: BibliographyRecord[] = [
  {
    id: 'W101',
    doi: '10.1000/x_y(2019)',
    title: 'Cost & effect of {braces}: 50% of Müller\'s "data" ~ p^2 #1 \\ end',
    abstract: 'An abstract, with, commas\nand a line break.',
    year: 2019,
    publicationDate: '2019-03-05',
    type: 'article',
    venue: 'Journal of Tests & Trials',
    authors: [
      { name: 'José Müller', orcid: null },
      { name: 'Ludwig van Beethoven', orcid: null },
      { name: 'Plato', orcid: null },
    ],
    citedByCount: 3,
    pmid: '31234567',
    volume: '12',
    issue: '3_suppl',
    firstPage: '199',
    lastPage: '208',
    publisher: 'Tests & Co',
    issn: ['1234-5678', '8765-4321'],
    language: 'en',
    license: 'cc-by',
    keywords: ['Trials, controlled', 'Estrogens & hormones'],
  },
  {
    id: 'W102',
    doi: null,
    title: '=HYPERLINK("http://example.invalid")',
    abstract: null,
    year: null,
    publicationDate: null,
    type: 'book-chapter',
    venue: 'A Big Book',
    authors: [{ name: 'Curie, Marie', orcid: 'https://orcid.org/0000-0002-0000-0003' }],
    citedByCount: null,
    pmid: null,
    volume: null,
    issue: null,
    firstPage: 'e1234',
    lastPage: null,
    publisher: 'Big Books Ltd',
    issn: [],
    language: null,
    license: null,
    keywords: [],
  },
];

const fullFamily = (a: NonNullable<CslItem['author']>[number]) =>
  a.literal ?? [a['non-dropping-particle'], a.family].filter(Boolean).join(' ');

describe('bibliography exports', () => {
  it('reads format names as the command line and download URLs give them', () => {
    expect(['csv', 'JSONL', 'bibtex', 'bib', 'ris', 'csl-json', 'csl_json'].map(bibliographyFormatNamed)).toEqual([
      'CSV',
      'JSONL',
      'BIBTEX',
      'BIBTEX',
      'RIS',
      'CSL_JSON',
      'CSL_JSON',
    ]);
    expect(bibliographyFormatNamed('docx')).toBeNull();
  });

  it('splits display names into family and given names', () => {
    expect(splitName('José Müller')).toEqual({ family: 'Müller', given: 'José' });
    expect(splitName('Ludwig van Beethoven')).toEqual({ family: 'van Beethoven', given: 'Ludwig' });
    expect(splitName('Curie, Marie')).toEqual({ family: 'Curie', given: 'Marie' });
    expect(splitName('Plato')).toEqual({ family: 'Plato', given: '' });
  });

  it('writes BibTeX that a maintained parser reads back field for field', () => {
    const text = formatBibliography(RECORDS, 'BIBTEX');
    const items = new Cite(text).data;
    expect(items).toHaveLength(2);
    const [article, chapter] = items;
    expect(article!.type).toBe('article-journal');
    expect(article!.title).toBe(RECORDS[0]!.title);
    expect(article!['container-title']).toBe('Journal of Tests & Trials');
    expect(article!.DOI).toBe('10.1000/x_y(2019)');
    expect(article!.issued!['date-parts'][0]![0]).toBe(2019);
    expect(article!.abstract).toBe('An abstract, with, commas and a line break.');
    expect(article!.author!.map(fullFamily)).toEqual(['Müller', 'van Beethoven', 'Plato']);
    expect(article!.author![0]!.given).toBe('José');
    expect([article!.volume, article!.issue, article!.page]).toEqual(['12', '3_suppl', '199-208']);
    expect([article!.publisher, article!.ISSN, article!.language]).toEqual([
      'Tests & Co',
      '1234-5678, 8765-4321',
      'en',
    ]);
    // biblatex separates keywords by commas, so a keyword holding one cannot be told apart; each still arrives whole.
    expect(article!.keyword).toContain('Estrogens & hormones');
    expect(text).toMatch(/^ {2}copyright = \{cc-by\},$/m);
    expect(chapter!.type).toBe('chapter');
    expect(chapter!.page).toBe('e1234');
    // A chapter's container is its book; the publisher is the book's.
    expect(chapter!.publisher).toBe('Big Books Ltd');
    expect(chapter!.author!.map(fullFamily)).toEqual(['Curie']);
    // Citation keys: first author, year, first title word; ASCII.
    expect(text).toMatch(/^@article\{muller2019cost,$/m);
    expect(text).toMatch(/^@incollection\{curiendhyperlinkhttpexampleinvalid,$/m);
  });

  it('writes RIS that a maintained parser reads back, with dates and authors in order', () => {
    const text = formatBibliography(RECORDS, 'RIS');
    expect(text.split('\r\n').filter((line) => line.startsWith('ER  -'))).toHaveLength(2);
    const [article, chapter] = new Cite(text).data;
    expect(article!.type).toBe('article-journal');
    expect(article!.title).toBe(RECORDS[0]!.title);
    expect(article!.issued!['date-parts'][0]).toEqual([2019, 3, 5]);
    expect(article!.DOI).toBe('10.1000/x_y(2019)');
    expect(article!.author!.map(fullFamily)).toEqual(['Müller', 'van Beethoven', 'Plato']);
    expect(article!['container-title']).toBe('Journal of Tests & Trials');
    expect([article!.volume, article!.issue, article!.page]).toEqual(['12', '3_suppl', '199-208']);
    expect([article!.ISSN, article!.language]).toEqual([['1234-5678', '8765-4321'], 'en']);
    // The RIS specification gives a journal article no publisher (citation-js drops PB there): the line is written.
    expect(text).toContain('PB  - Tests & Co\r\n');
    expect(chapter!.publisher).toBe('Big Books Ltd');
    expect(text).toContain('KW  - Trials, controlled\r\nKW  - Estrogens & hormones\r\n');
    expect(text).toContain('N1  - License: cc-by\r\n');
    expect(chapter!.type).toBe('chapter');
    expect(chapter!.page).toBe('e1234');
    expect(chapter!.URL).toBe('https://openalex.org/W102');
  });

  it('writes CSL-JSON items and JSON Lines records', () => {
    const items = JSON.parse(formatBibliography(RECORDS, 'CSL_JSON')) as Array<CslItem & { id: string }>;
    expect(items.map((i) => [i.id, i.type])).toEqual([
      ['W101', 'article-journal'],
      ['W102', 'chapter'],
    ]);
    expect(items[0]!.issued).toEqual({ 'date-parts': [[2019, 3, 5]] });
    expect(items[0]!.author![1]).toEqual({ family: 'van Beethoven', given: 'Ludwig' });
    expect(items[1]!.issued).toBeUndefined();
    expect(items[0]).toMatchObject({
      volume: '12',
      issue: '3_suppl',
      page: '199-208',
      publisher: 'Tests & Co',
      ISSN: '1234-5678, 8765-4321',
      language: 'en',
      keyword: 'Trials, controlled, Estrogens & hormones',
      license: 'cc-by',
    });
    expect(items[1]!.page).toBe('e1234');
    const lines = formatBibliography(RECORDS, 'JSONL')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.id)).toEqual(['W101', 'W102']);
    expect(lines[0].abstract).toBe(RECORDS[0]!.abstract);
    expect(lines[0].url).toBe('https://doi.org/10.1000/x_y(2019)');
  });

  it('writes RFC 4180 CSV that a maintained parser reads back, with formulas defused', () => {
    const rows = parseCsv<Record<string, string>>(formatBibliography(RECORDS, 'CSV'), { columns: true });
    expect(rows).toHaveLength(2);
    expect(rows[0]!.title).toBe(RECORDS[0]!.title);
    expect(rows[0]!.abstract).toBe(RECORDS[0]!.abstract);
    expect(rows[0]!.authors).toBe('José Müller; Ludwig van Beethoven; Plato');
    expect(rows[0]!.year).toBe('2019');
    expect([rows[0]!.volume, rows[0]!.issue, rows[0]!.pages, rows[0]!.issn]).toEqual([
      '12',
      '3_suppl',
      '199-208',
      '1234-5678; 8765-4321',
    ]);
    expect(rows[0]!.keywords).toBe('Trials, controlled; Estrogens & hormones');
    expect([rows[0]!.language, rows[0]!.license, rows[1]!.pages]).toEqual(['en', 'cc-by', 'e1234']);
    // A cell that a spreadsheet would run as a formula starts with an apostrophe.
    expect(rows[1]!.title).toBe(`'${RECORDS[1]!.title}`);
    expect(rows[1]!.year).toBe('');
  });
});
