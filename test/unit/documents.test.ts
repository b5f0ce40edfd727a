import { buildDocument, pagesOf, sectionKindOf } from '../../src/documents/document-text';
import { splitReferences } from '../../src/documents/identity';
import { htmlBlocks, markdownBlocks, plainTextBlocks } from '../../src/documents/markup';
import { joinLine } from '../../src/documents/pdf-layout';

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
