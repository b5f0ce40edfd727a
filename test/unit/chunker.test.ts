import { chunkText, paragraphSpans, type TokenCounter } from '../../src/ingest/chunker';
import { sentenceSpans } from '../../src/text';

/** One token per whitespace-separated word: easy to reason about in tests. */
const words: TokenCounter = { count: (text) => text.split(/\s+/).filter(Boolean).length };

function sentence(n: number, length: number): string {
  return `S${n} ${Array.from({ length: length - 2 }, (_, i) => `w${n}x${i}`).join(' ')} end${n}.`;
}

describe('chunker', () => {
  it('splits sentences but not at abbreviations or decimals', () => {
    const text = 'Levels rose 3.5-fold (Smith et al. 2001). A second one! Third?';
    const spans = sentenceSpans(text, 0, text.length).map((s) => text.slice(s.start, s.end));
    expect(spans).toEqual(['Levels rose 3.5-fold (Smith et al. 2001).', 'A second one!', 'Third?']);
  });

  it('splits a stop glued to the next sentence after a word, but not after an abbreviation or initials', () => {
    const text =
      'Patients had borderline personality disorder.Thirty-eight were allocated, e.g.The rest in the U.S.Army.';
    const spans = sentenceSpans(text, 0, text.length).map((s) => text.slice(s.start, s.end));
    expect(spans).toEqual([
      'Patients had borderline personality disorder.',
      'Thirty-eight were allocated, e.g.The rest in the U.S.Army.',
    ]);
  });

  it("does not end a sentence at an abbreviation or a name's initials, but does after a capital ending a sentence", () => {
    const text =
      'He lived on St. Kilda with Prof. Smith and John F. Kennedy. J. R. R. Tolkien wrote it (cf. Fig. 2). Levels of vitamin D. The trial ended in Jan. 2020. Next.';
    const spans = sentenceSpans(text, 0, text.length).map((s) => text.slice(s.start, s.end));
    expect(spans).toEqual([
      'He lived on St. Kilda with Prof. Smith and John F. Kennedy.',
      'J. R. R. Tolkien wrote it (cf. Fig. 2).',
      'Levels of vitamin D.',
      'The trial ended in Jan. 2020.',
      'Next.',
    ]);
  });

  it('ends a sentence at a blank line, and leaves the reference marks closing one out of it', () => {
    const text =
      'x Founded | 1998\n\nFounder | Netscape\n\nMozilla is a community.[1] It is supported by a foundation.[2][3]\n\nAs shown [4], it grew. Then it shrank.';
    const spans = sentenceSpans(text, 2, text.length).map((s) => text.slice(s.start, s.end));
    expect(spans).toEqual([
      'Founded | 1998',
      'Founder | Netscape',
      'Mozilla is a community.',
      'It is supported by a foundation.',
      'As shown [4], it grew.',
      'Then it shrank.',
    ]);
    // A span inside one paragraph splits as before; one that ends mid-paragraph stops there.
    expect(sentenceSpans(text, 2, 16).map((s) => text.slice(s.start, s.end))).toEqual(['Founded | 1998']);
  });

  it('finds paragraphs separated by blank lines', () => {
    const text = 'First para.\n\n  Second para.\n \nThird.';
    expect(paragraphSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      'First para.',
      'Second para.',
      'Third.',
    ]);
  });

  it('keeps offsets into the source, respects the limit and overlaps', () => {
    const text = Array.from({ length: 12 }, (_, i) => sentence(i, 10)).join(' ');
    const chunks = chunkText(text, { maxTokens: 35, overlapTokens: 10 }, words);
    expect(chunks.length).toBeGreaterThan(3);
    chunks.forEach((chunk, index) => {
      expect(chunk.ordinal).toBe(index);
      expect(text.slice(chunk.start, chunk.end)).toBe(chunk.text);
      expect(chunk.tokenCount).toBeLessThanOrEqual(35);
    });
    // Each next chunk starts with the last sentence of the previous one (10 tokens of overlap).
    for (let i = 1; i < chunks.length; i += 1) {
      expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end);
    }
    expect(chunks[chunks.length - 1]!.end).toBe(text.length);
  });

  it('does not overlap or merge across paragraphs that do not fit together', () => {
    const p1 = [sentence(1, 10), sentence(2, 10)].join(' ');
    const p2 = [sentence(3, 10), sentence(4, 10)].join(' ');
    const text = `${p1}\n\n${p2}`;
    const chunks = chunkText(text, { maxTokens: 30, overlapTokens: 10 }, words);
    expect(chunks.map((c) => c.text)).toEqual([p1, p2]);
  });

  it('lets short paragraphs share a chunk', () => {
    const text = 'Short one.\n\nShort two.';
    expect(chunkText(text, { maxTokens: 30, overlapTokens: 5 }, words).map((c) => c.text)).toEqual([text]);
  });

  it('splits a sentence longer than the limit at word boundaries', () => {
    const text = sentence(1, 95);
    const chunks = chunkText(text, { maxTokens: 40, overlapTokens: 5 }, words);
    expect(chunks.length).toBe(3);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(40);
    expect(chunks.map((c) => c.text).join(' ')).toBe(text);
  });

  it('returns nothing for blank text', () => {
    expect(chunkText('  \n\n ', { maxTokens: 10, overlapTokens: 2 }, words)).toEqual([]);
  });
});
