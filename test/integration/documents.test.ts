import { readdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import type { IngestSummary } from '../../src/ingest/ingest-types';
import { mapOpenAlexWork } from '../../src/ingest/openalex';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

/**
 * Documents ingested as a new user would (`citegraph ingest FOLDER`): real PDFs printed by headless Chromium (a
 * 46-page two-column paper with running headers and page numbers, a full text of a paper in the bundled sample, a
 * scanned page), an encrypted one (qpdf), a corrupt and an empty one, and Markdown, HTML and text notes.
 */
const { app } = createTestContext();
const FIXTURES = path.join(PROJECT_ROOT, 'test', 'fixtures', 'documents');
const SAMPLE = path.join(PROJECT_ROOT, 'data', 'sample', 'nelson-2002.jsonl.gz');
const OWN = ['doc-sample', 'doc-test'];
const files = readdirSync(FIXTURES)
  .sort()
  .map((name) => path.join(FIXTURES, name));
let first: IngestSummary;

beforeAll(async () => {
  await removeCollections(app, OWN);
  await app.ingest.ingestFiles([SAMPLE], { embed: 'defer', collection: 'doc-sample', progress: false });
  first = await app.ingest.ingestFiles(files, { embed: 'now', collection: 'doc-test', progress: false });
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

async function documentOf(id: string) {
  return (await app.catalog.documentsOfPapers([id])).get(id)!;
}

async function paperIdByTitle(prefix: string): Promise<string> {
  const rows = await app.executor.read<{ id: string }>({
    name: 'test',
    text: 'MATCH (p:Paper) WHERE p.title STARTS WITH $prefix AND p.documentHash IS NOT NULL RETURN p.id AS id',
    params: { prefix },
  });
  return rows[0]!.id;
}

describe('document ingestion', () => {
  it('ingests the readable documents and names each bad file with its problem', () => {
    expect(first.documents.written).toBe(7);
    // The sample paper's full text (by DOI), the saved page (by its citation_doi) and the notes (by title and year).
    expect(first.documents.joined).toBe(3);
    const reasons = Object.fromEntries(first.skipped.map((skip) => [path.basename(skip.where), skip.reason]));
    expect(reasons).toEqual({
      'corrupt.pdf': expect.stringMatching(/^corrupt: not a readable PDF/),
      'empty.pdf': expect.stringMatching(/^empty: the file is empty/),
      'encrypted.pdf': expect.stringMatching(/^encrypted: the PDF is encrypted/),
      'scanned.pdf': expect.stringMatching(/^no-text: no text layer/),
    });
    expect(first.documents.pages).toBeGreaterThanOrEqual(40);
    // 12 references to sample papers (6 by DOI, 6 by title and year), one in the text notes, three of the LaTeX
    // paper and the three of the arXiv preprint resolve; the seven works outside the graph stay stubs with their raw
    // text.
    expect(first.documents.references).toBe(26);
    expect(first.documents.referencesResolved).toBe(19);
  });

  it('changes nothing when the same files come again', async () => {
    const again = await app.ingest.ingestFiles(files, { embed: 'now', collection: 'doc-test', progress: false });
    expect(again.documents.written).toBe(0);
    expect(again.documents.unchanged).toBe(7);
    expect(again.chunks).toBe(0);
  });

  it('keeps sections, pages and offsets: every chunk slices from the stored text inside one section', async () => {
    const id = await paperIdByTitle('Switching, tapering and outcomes');
    const document = await documentOf(id);
    expect(document.pageCount).toBeGreaterThanOrEqual(40);
    // Running headers and page numbers are gone; hyphenated words are joined.
    expect(document.fullText).not.toMatch(/Journal of Synthetic Evidence 12 \(2024\)/);
    // Chromium broke "sensitivity" at a soft hyphen across lines on page 1.
    expect(document.fullText).toMatch(/sensitivity analysis/);
    expect(document.fullText).not.toMatch(/sensit[-‐\u00AD]\s*ivity/);
    const kinds = document.sections.map((section) => section.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'abstract',
        'introduction',
        'methods',
        'results',
        'discussion',
        'conclusion',
        'references',
      ]),
    );
    const chunks = (await app.catalog.chunksOfPapers([id], 5000)).get(id)!;
    expect(chunks.length).toBeGreaterThan(100);
    for (const chunk of chunks) {
      expect(chunk.field).toBe('text');
      expect(document.fullText.slice(chunk.start, chunk.end)).toBe(chunk.text);
      const inside = document.sections.filter((s) => s.start <= chunk.start && chunk.end <= s.end);
      expect(inside.map((s) => s.title)).toContain(chunk.section);
      expect(chunk.pageStart).toBeGreaterThanOrEqual(1);
    }
  });

  it('reads a pdfLaTeX two-column article: columns, ligatures, TeX hyphenation, accents, running header', async () => {
    const id = await paperIdByTitle('Tapering biologics in remission');
    const document = await documentOf(id);
    expect(document.pageCount).toBe(8);
    expect(document.sections.map((s) => s.kind).filter((kind) => kind !== 'other' && kind !== 'front')).toEqual([
      'abstract',
      'introduction',
      'methods',
      'results',
      'discussion',
      'conclusion',
      'references',
    ]);
    const text = document.fullText;
    expect(text).not.toMatch(/[\uFB00-\uFB06]/); // Computer Modern's fi/fl ligatures spelt out
    expect(text).not.toMatch(/LATEX fixture/); // the fancyhdr running header, in either column layout
    expect(text).toMatch(/Heikki Kröger/); // OT1's spacing diaeresis before the letter, composed
    // The paragraphs are the CC0 abstracts the script typeset (scripts/tools/make-document-fixtures.ts, latexPaper): read
    // left column before right, words TeX hyphenated at line ends joined. A compound the document never prints
    // elsewhere ("hand-searching") cannot be told from a hyphenated word, so a few may differ.
    const pool = ['Menon_2022', 'Donners_2021'].flatMap((name) =>
      gunzipSync(readFileSync(path.join(SHARED_DIR, 'data', 'synergy', 'works', `${name}.jsonl.gz`)))
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim())
        .map((line) => mapOpenAlexWork(JSON.parse(line))),
    );
    const typeset = pool
      .filter(
        (r) =>
          r.abstract && /^[\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u00a0\u2264\u2265\u00b1]*$/.test(r.abstract),
      )
      .slice(0, 24);
    const norm = (value: string) =>
      value
        .replace(/<\/?[a-z][a-z0-9]*>/gi, ' ')
        .replace(/[\u2018\u2019']/g, "'")
        .replace(/[\u201c\u201d"]/g, '"')
        .replace(/\s+/g, ' ')
        .trim();
    const stored = norm(text);
    const verbatim = typeset.filter((record) => stored.includes(norm(record.abstract!)));
    expect(verbatim.length).toBeGreaterThanOrEqual(20);
    const chunks = (await app.catalog.chunksOfPapers([id], 5000)).get(id)!;
    for (const chunk of chunks) expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text);
  });

  it('reads an arXiv preprint: title and year, the stamp as its identity and never its text, subsections by parent', async () => {
    // pdfLaTeX with the stamp set sideways down the first page's margin as arXiv sets it, a running header, no date.
    const id = await paperIdByTitle('Hybrid retrieval for screening');
    const [paper] = await app.catalog.papersByIds([id]);
    expect(paper).toMatchObject({
      title: 'Hybrid retrieval for screening in systematic reviews of biologic therapies',
      year: 2024,
    });
    const document = await documentOf(id);
    expect(document.arxiv).toEqual({ id: '2412.04321', version: 2, category: 'cs.IR', date: '2024-12-03' });
    expect(document.fullText).not.toMatch(/arXiv:|\[cs\.IR\]|Screening at scale/);
    expect(document.sections.some((section) => /arXiv/.test(section.title))).toBe(false);
    expect(document.sections.filter((s) => /^\d/.test(s.title)).map((s) => [s.title, s.kind])).toEqual([
      ['1 Introduction', 'introduction'],
      ['2 Methodology', 'methods'],
      ['2.1 Overview', 'methods'],
      ['2.2 Data', 'methods'],
      ['3 Results', 'results'],
      ['4 Conclusion', 'conclusion'],
    ]);
  });

  it('makes a document the full text of the paper it is, keeping the abstract', async () => {
    const rows = await app.executor.read<{
      id: string;
      abstract: string | null;
      source: string;
      collections: string[];
    }>({
      name: 'test',
      text: "MATCH (p:Paper {documentName: 'sample-full-text.pdf'}) RETURN p.id AS id, p.abstract AS abstract, p.source AS source, p.collections AS collections",
      params: {},
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toMatch(/^W\d+$/);
    expect(rows[0]!.abstract).toBeTruthy();
    expect(rows[0]!.collections).toEqual(expect.arrayContaining(['doc-sample', 'doc-test']));
    const chunks = (await app.catalog.chunksOfPapers([rows[0]!.id], 100)).get(rows[0]!.id)!;
    expect(new Set(chunks.map((c) => c.field))).toEqual(new Set(['abstract', 'text']));
  });

  it('answers a question about the results with citations naming page and section, quotes slicing the text', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Did golimumab have a lower discontinuation rate than etanercept?',
      { collections: ['doc-test'], externalSearch: false, useLlm: false },
    );
    expect(result.abstained).toBe(false);
    const citations = result.sentences.flatMap((sentence) => sentence.citations).filter((c) => c.field === 'text');
    expect(citations.length).toBeGreaterThan(0);
    const id = await paperIdByTitle('Switching, tapering and outcomes');
    const document = await documentOf(id);
    const fromPaper = citations.filter((c) => c.paperId === id);
    expect(fromPaper.length).toBeGreaterThan(0);
    for (const citation of fromPaper) {
      expect(document.fullText.slice(citation.start, citation.end)).toBe(citation.quote);
      expect(citation.page).toBeGreaterThanOrEqual(1);
      expect(citation.section).toBeTruthy();
      const section = document.sections.find((s) => s.title === citation.section)!;
      expect(section.start <= citation.start && citation.end <= section.end).toBe(true);
      expect(section.pageStart! <= citation.page! && citation.page! <= section.pageEnd!).toBe(true);
    }
    expect(fromPaper.some((c) => c.sectionKind === 'results')).toBe(true);
  });
});
