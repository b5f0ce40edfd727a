import { readFileSync } from 'node:fs';
import path from 'node:path';
import { WordPieceTokenizer } from '../../src/embedding/wordpiece-tokenizer';
import { modelFiles } from '../../src/embedding/embedder';
import { loadSettings } from '../../src/config/settings';

interface Reference {
  cases: Array<{ text: string; ids: number[] }>;
}

describe('WordPiece tokenizer', () => {
  const tokenizer = WordPieceTokenizer.fromVocabFile(modelFiles(loadSettings().model).vocab);
  const reference = JSON.parse(
    readFileSync(path.join(__dirname, '..', 'fixtures', 'tokenizer-reference.json'), 'utf8'),
  ) as Reference;

  it.each(reference.cases.map((c, index) => [index, c] as const))(
    'matches the model tokenizer on case %i',
    (_index, c) => {
      expect(tokenizer.tokenize(c.text).map((span) => span.id)).toEqual(c.ids);
      expect(tokenizer.count(c.text)).toBe(c.ids.length);
    },
  );

  it('keeps the character span of each word', () => {
    const text = 'Aβ42 rose, p<0.001';
    const spans = tokenizer.tokenize(text);
    for (const span of spans) expect(text.slice(span.start, span.end).trim()).toBe(text.slice(span.start, span.end));
    expect(text.slice(spans[0]!.start, spans[0]!.end)).toBe('Aβ42');
  });

  it('wraps and truncates model input', () => {
    const ids = tokenizer.encode('one two three four five', 4);
    expect(ids).toHaveLength(4);
    expect(ids[0]).toBe(tokenizer.clsId);
    expect(ids[3]).toBe(tokenizer.sepId);
  });
});
