import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildDocument, pagesOf, sectionKindOf } from '../../src/documents/document-text';
import { arxivStamp, documentIdentity, splitReferences } from '../../src/documents/identity';
import { htmlBlocks, markdownBlocks, plainTextBlocks } from '../../src/documents/markup';
import { hyphenVocabulary, joinLine } from '../../src/documents/pdf-joining';
import { findGutter } from '../../src/documents/pdf-lines';
import { readDocumentHere as readDocument } from '../../src/documents/read-document';
import type { WorkRecord } from '../../src/domain';
import { citesWork } from '../../src/external/reference-resolver';

const none = { title: null, authors: [], doi: null, year: null };

describe('document structure', () => {
  it('names section kinds from headings, numbered or not, and leaves own headings as other', () => {
    expect(sectionKindOf('3. Results')).toBe('results');
    expect(sectionKindOf('2.1 Materials and Methods')).toBe('methods');
    expect(sectionKindOf('REFERENCES')).toBe('references');
    expect(sectionKindOf('3.2 Effect sizes')).toBeNull();
  });

  it('joins words hyphenated across lines, keeps compounds broken at their hyphen', () => {
    expect(joinLine('the sensit‐', 'ivity analysis')).toBe('the sensitivity analysis');
    expect(joinLine('Long-', 'Term outcomes')).toBe('Long-Term outcomes');
    expect(joinLine('ends here.', 'Next line')).toBe('ends here. Next line');
  });

  it('lays out blocks with sections that subsections inherit the kind of, and pages by offset', () => {
    const document = buildDocument(
      'pdf',
      [
        { kind: 'title', text: 'A paper', page: 1 },
        { kind: 'heading', text: '3 Results', page: 1, level: 1 },
        { kind: 'heading', text: '3.1 Effect sizes', page: 1, level: 2 },
        { kind: 'paragraph', text: 'The effect was large and it went on', page: 1 },
        { kind: 'paragraph', text: 'across the page break.', page: 2, continues: true },
      ],
      none,
    );
    const sub = document.sections.find((section) => section.title === '3.1 Effect sizes')!;
    expect(sub.kind).toBe('results');
    expect(document.text.slice(sub.bodyStart, sub.end)).toBe(
      'The effect was large and it went on across the page break.',
    );
    const at = document.text.indexOf('across');
    expect(pagesOf(document.pages, sub.bodyStart, document.text.length)).toEqual({ pageStart: 1, pageEnd: 2 });
    expect(pagesOf(document.pages, at, at + 5)).toEqual({ pageStart: 2, pageEnd: 2 });
  });

  it('reads Markdown and HTML headings and HTML citation meta tags, skipping scripts and navigation', () => {
    const md = markdownBlocks('# Title\n\n## Methods\n\nWe *did* [this](http://x).\n');
    expect(md.blocks.map((block) => [block.kind, block.text])).toEqual([
      ['title', 'Title'],
      ['heading', 'Methods'],
      ['paragraph', 'We did this.'],
    ]);
    const html = htmlBlocks(
      '<html><head><meta name="citation_doi" content="10.1/x"><script>var a=1</script></head><body><nav>Menu</nav><h1>T</h1><h2>Results</h2><p>It &amp; that.</p></body></html>',
    );
    expect(html.metadata.doi).toBe('10.1/x');
    expect(html.blocks.map((block) => block.text)).toEqual(['T', 'Results', 'It & that.']);
    const text = plainTextBlocks('Notes\n\n1 Introduction\n\nSome words here.\n\fMore words.');
    expect(text.blocks.map((block) => [block.kind, block.page])).toEqual([
      ['title', 1],
      ['heading', 1],
      ['paragraph', 1],
      ['paragraph', 2],
    ]);
  });

  it("keeps the opening text of Markdown and HTML as a section of its own, and a PDF's as front matter", () => {
    const lead = 'Aspirin is a medication used to reduce pain, fever and inflammation.';
    const md = markdownBlocks(`# Aspirin\n\n${lead}\n\nIt was first made in 1897.\n\n## History\n\nWillow bark.\n`);
    const html = htmlBlocks(
      `<h1>Aspirin</h1><p>${lead}</p><p>It was first made in 1897.</p><h2>History</h2><p>Willow bark.</p>`,
    );
    for (const [format, read] of [
      ['markdown', md],
      ['html', html],
    ] as const) {
      const document = buildDocument(format, read.blocks, read.metadata);
      expect(document.sections.map((section) => [section.title, section.kind])).toEqual([
        ['Front matter', 'front'],
        ['Lead', 'introduction'],
        ['History', 'other'],
      ]);
      const opening = document.sections[1]!;
      expect(document.text.slice(opening.bodyStart, opening.end)).toBe(`${lead}\n\nIt was first made in 1897.`);
      expect(document.metadata.title).toBe('Aspirin');
    }
    // A PDF's text before its first heading is authors and affiliations: it stays the front matter.
    const pdf = buildDocument(
      'pdf',
      [
        { kind: 'title', text: 'Aspirin', page: 1 },
        { kind: 'paragraph', text: 'A. Author, University of Somewhere', page: 1 },
        { kind: 'heading', text: '1 Introduction', page: 1, level: 1 },
        { kind: 'paragraph', text: lead, page: 1 },
      ],
      none,
    );
    expect(pdf.sections.map((section) => section.kind)).toEqual(['front', 'introduction']);
    // "Abstract: …" before the first heading still opens the abstract, in Markdown as in a PDF.
    const abstract = markdownBlocks(`# T\n\nAbstract: ${lead} ${lead}\n\n## Methods\n\nWords.\n`);
    expect(buildDocument('markdown', abstract.blocks, abstract.metadata).sections[1]!.kind).toBe('abstract');
  });

  it("reads a saved web page's main content: the article with its headings, none of the page's chrome", async () => {
    const source = readFileSync(path.join(__dirname, '..', 'fixtures', 'web', 'wikipedia-mozilla.html'));
    // The saved page holds the chrome a reader must drop.
    for (const chrome of ['Jump to', 'Deutsch', 'Privacy policy', 'mw-editsection', 'Navigation menu'])
      expect(source.toString('utf8')).toContain(chrome);
    const read = await readDocument('mozilla.html', source, { maxBytes: 1e7, maxPages: 10, maxTextChars: 1e7 });
    const { text, sections } = read.document;
    for (const chrome of ['Jump to', 'Deutsch', 'Privacy policy', '[edit]', 'Navigation menu', 'This page was last'])
      expect(text).not.toContain(chrome);
    expect(read.identity.title).toBe('Mozilla');
    // The definition opens the article, in the Lead; headings stay sections, their levels kept.
    const lead = sections.find((section) => section.title === 'Lead')!;
    expect(text.slice(lead.bodyStart, lead.end)).toContain(
      'Mozilla is a free-software community, created in 1998 by members of Netscape.',
    );
    expect(sections.map((section) => section.title)).toEqual(
      expect.arrayContaining(['History', 'Eich CEO promotion controversy', 'Firefox', 'References', 'External links']),
    );
    expect(sections.find((section) => section.title === 'References')!.kind).toBe('references');
    // The infobox's rows are read as rows ("Founded | February 28, 1998; …"), not one cell a paragraph.
    expect(text).toMatch(/Founded \| February 28, 1998/);
  });

  it('splits numbered and author–year reference lists', () => {
    const numbered = splitReferences('[1] A. B. One title. 2001. [2] C. D. Two, 1941 to 1996. 1997. doi:10.1234/abc.');
    expect(numbered.map((entry) => entry.raw)).toEqual([
      'A. B. One title. 2001.',
      'C. D. Two, 1941 to 1996. 1997. doi:10.1234/abc.',
    ]);
    expect(numbered[1]!.doi).toBe('10.1234/abc');
    expect(numbered[1]!.years).toEqual([1941, 1996, 1997]);
    const authorYear = splitReferences('Smith, J. A., 2001. A title. Jones, B., 2003. Another title.');
    expect(authorYear).toHaveLength(2);
  });
});

describe('document identity and online reference matching', () => {
  it('takes a DOI from the front of a document, never one its reference list cites', async () => {
    const cites =
      '# Notes on open access\n\nSome notes.\n\n## References\n\n1. Piwowar H. The state of OA. PeerJ. 2018. doi:10.7717/peerj.4375\n';
    const own = `# Notes on open access\n\ndoi: 10.1234/own.5678\n\nSome notes.\n\n${cites.split('\n\n').slice(2).join('\n\n')}`;
    const limits = { maxBytes: 1e6, maxPages: 10, maxTextChars: 1e6 };
    expect((await readDocument('notes.md', Buffer.from(cites), limits)).identity.doi).toBeNull();
    expect((await readDocument('notes.md', Buffer.from(own), limits)).identity.doi).toBe('10.1234/own.5678');
  });

  const work = (title: string, year: number, authors: string[]): WorkRecord => ({
    id: 'doi:10.1/x',
    ids: { doi: '10.1/x' },
    doi: '10.1/x',
    title,
    abstract: null,
    year,
    publicationDate: null,
    type: null,
    citedByCount: null,
    isRetracted: false,
    source: 'crossref',
    authorships: authors.map((name, order) => ({
      authorId: null,
      name,
      orcid: null,
      position: 'middle',
      order,
      corresponding: false,
      institutions: [],
    })),
    venue: null,
    topics: [],
    references: [],
  });
  const entry = (raw: string) => splitReferences(`1. ${raw}\n`)[0]!;

  it('accepts a candidate only when its title stands in the entry and the years agree', () => {
    const raw = 'Smith J, Lee K. Statin therapy and stroke risk in elderly patients. Lancet. 2010;5:1-9.';
    expect(citesWork(entry(raw), work('Statin therapy and stroke risk in elderly patients', 2010, ['J Smith']))).toBe(
      true,
    );
    expect(citesWork(entry(raw), work('Statin therapy and stroke risk in elderly patients', 2014, ['J Smith']))).toBe(
      false,
    );
    expect(citesWork(entry(raw), work('Statin therapy in the young', 2010, ['J Smith']))).toBe(false);
  });

  it('asks a short title for an author of the work in the entry as well', () => {
    const raw = 'Boettiger C. The forecast trap. Ecol Lett. 2022;25:1655-64.';
    expect(citesWork(entry(raw), work('The forecast trap', 2022, ['Carl Boettiger']))).toBe(true);
    expect(citesWork(entry(raw), work('The forecast trap', 2022, ['Ada Lovelace']))).toBe(false);
  });
});

describe('PDF identity from every source it offers', () => {
  it('reads an arXiv stamp: identifier, version, category, date and year; an old-style identifier too', () => {
    expect(arxivStamp('arXiv:2203.00130v1 [cs.HC] 28 Feb 2022')).toEqual({
      id: '2203.00130',
      version: 1,
      category: 'cs.HC',
      date: '2022-02-28',
      year: 2022,
    });
    expect(arxivStamp('see arXiv:hep-th/9901001v2 15 Jan 1999')).toEqual({
      id: 'hep-th/9901001',
      version: 2,
      category: 'hep-th',
      date: '1999-01-15',
      year: 1999,
    });
    // Without a date, the year is the identifier's: 2304.02623 was posted in April 2023.
    expect(arxivStamp('arXiv:2304.02623')).toMatchObject({ version: null, date: null, year: 2023 });
    expect(arxivStamp('arXiv preprints are fine')).toBeNull();
    // Upright text: only the whole stamp, not an identifier the document cites.
    expect(arxivStamp('as shown in arXiv:2304.02623', true)).toBeNull();
    expect(arxivStamp('arXiv:2412.04321v2 [cs.IR] 3 Dec 2024', true)).toMatchObject({ id: '2412.04321' });
  });

  const pdfText = (blocks: Array<{ kind: 'title' | 'paragraph' | 'heading'; text: string; level?: number }>) =>
    buildDocument(
      'pdf',
      blocks.map((block) => ({ ...block, page: 1 })),
      none,
    );

  it("takes the metadata's title when the first page bears it out, its year from a stamp or a copyright line", () => {
    const document = pdfText([
      { kind: 'title', text: 'Screening at scale' },
      { kind: 'paragraph', text: 'Hybrid retrieval for screening in systematic reviews. Lena Vogt.' },
      { kind: 'heading', text: '1 Introduction', level: 1 },
      { kind: 'paragraph', text: 'Screening takes time. © 2021 The Authors.' },
    ]);
    const stamp = arxivStamp('arXiv:2412.04321v2 [cs.IR] 3 Dec 2024');
    // A copyright line anywhere on the first page (a footnote in the left column reads after the abstract) dates it.
    expect(
      documentIdentity(document, { info: { Title: 'Hybrid retrieval for screening in systematic reviews' } }),
    ).toMatchObject({ title: 'Hybrid retrieval for screening in systematic reviews', year: 2021 });
    // XMP's title given twice over is given once; a template's title the page does not bear is not the document's.
    expect(
      documentIdentity(document, {
        xmp: {
          'dc:title':
            'Hybrid retrieval for screening in systematic reviews Hybrid retrieval for screening in systematic reviews',
        },
        info: { Title: 'Elsevier journal template' },
      }).title,
    ).toBe('Hybrid retrieval for screening in systematic reviews');
    expect(documentIdentity(document, { info: { Title: 'Elsevier journal template' } }).title).toBe(
      'Screening at scale',
    );
    const undated = pdfText([
      { kind: 'title', text: 'Hybrid retrieval for screening' },
      { kind: 'paragraph', text: 'Screening takes time.' },
    ]);
    expect(documentIdentity(undated, { arxiv: stamp })).toMatchObject({ year: 2024, arxiv: stamp });
    expect(documentIdentity(undated, { xmp: { 'prism:coverdate': '2019-05-01' }, arxiv: stamp }).year).toBe(2019);
  });

  it('classes a numbered subsection by its parent, whatever its own words say', () => {
    const document = pdfText([
      { kind: 'heading', text: '4 Methodology', level: 1 },
      { kind: 'paragraph', text: 'We describe the method.' },
      { kind: 'heading', text: '4.1 Overview', level: 2 },
      { kind: 'paragraph', text: 'An overview of the method.' },
      { kind: 'heading', text: '5 Conclusion', level: 1 },
      { kind: 'paragraph', text: 'It works.' },
    ]);
    expect(document.sections.map((section) => [section.title, section.kind])).toEqual([
      ['4 Methodology', 'methods'],
      ['4.1 Overview', 'methods'],
      ['5 Conclusion', 'conclusion'],
    ]);
  });
});

describe('TeX layouts', () => {
  it("tells a compound broken at a line end from a hyphenated word by the document's own words", () => {
    const vocabulary = hyphenVocabulary([
      'a meta-analysis of trials that were double blind',
      'the development of a score, with CONSORT items',
    ]);
    expect(joinLine('a meta-', 'analysis of', vocabulary)).toBe('a meta-analysis of');
    expect(joinLine('the devel-', 'opment of', vocabulary)).toBe('the development of');
    expect(joinLine('trials were double-', 'blind and', vocabulary)).toBe('trials were double-blind and');
    expect(joinLine('were in-', 'adequate', vocabulary)).toBe('were inadequate');
    expect(joinLine('over hyper-', 'or hypoxemia', vocabulary)).toBe('over hyper- or hypoxemia');
    expect(joinLine('the CON-', 'SORT items', vocabulary)).toBe('the CONSORT items');
    expect(joinLine('factor (TNF)-', 'alpha', vocabulary)).toBe('factor (TNF)-alpha');
    // Fragments around a line-end hyphen are not taken for words of the document.
    expect(hyphenVocabulary(['the devel-', 'opment of']).words.has('devel')).toBe(false);
  });

  it('finds a one-em gutter when both columns share their baselines (pdfLaTeX twocolumn)', () => {
    const items = Array.from({ length: 20 }, (_, i) => [
      { s: 'left column line of text', x: 51, y: 780 - 12 * i, w: 241.6, h: 10, font: 'f1' },
      { s: 'right column line of text', x: 302.6, y: 780 - 12 * i, w: 241.6, h: 10, font: 'f1' },
    ]).flat();
    const lines = Array.from({ length: 20 }, (_, i) => [items[2 * i]!, items[2 * i + 1]!]);
    expect(findGutter({ number: 2, width: 595.3, height: 841.9, items }, lines)).toEqual({ from: 294, to: 302 });
  });
});
