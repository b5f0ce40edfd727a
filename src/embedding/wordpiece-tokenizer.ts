import { readFileSync } from 'node:fs';

/** A word piece with the character span, in the original text, of the word it came from. */
export interface TokenSpan {
  readonly id: number;
  readonly start: number;
  readonly end: number;
}

export interface WordPieceOptions {
  readonly lowercase: boolean;
  readonly unknownToken: string;
  readonly maxCharsPerWord: number;
}

const DEFAULTS: WordPieceOptions = { lowercase: true, unknownToken: '[UNK]', maxCharsPerWord: 100 };

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || /\p{Zs}/u.test(ch);
}

function isControl(ch: string): boolean {
  if (ch === '\t' || ch === '\n' || ch === '\r') return false;
  return /[\p{Cc}\p{Cf}]/u.test(ch);
}

function isPunctuation(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  // BERT treats every non-alphanumeric ASCII character as punctuation, even "$" or "^".
  if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126))
    return true;
  return /\p{P}/u.test(ch);
}

function isCjk(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x20000 && cp <= 0x2a6df) ||
    (cp >= 0x2a700 && cp <= 0x2b73f) ||
    (cp >= 0x2b740 && cp <= 0x2b81f) ||
    (cp >= 0x2b820 && cp <= 0x2ceaf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x2f800 && cp <= 0x2fa1f)
  );
}

/**
 * The BERT uncased tokenizer (basic tokenization, then greedy longest-match word pieces), reimplemented so that
 * token counts match the model's own tokenizer and each piece keeps the character span of its word.
 */
export class WordPieceTokenizer {
  readonly clsId: number;
  readonly sepId: number;
  readonly padId: number;
  private readonly unkId: number;
  private readonly options: WordPieceOptions;
  private readonly cache = new Map<string, number[]>();

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    options: Partial<WordPieceOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const need = (token: string): number => {
      const id = vocab.get(token);
      if (id === undefined) throw new Error(`vocabulary lacks ${token}`);
      return id;
    };
    this.clsId = need('[CLS]');
    this.sepId = need('[SEP]');
    this.padId = need('[PAD]');
    this.unkId = need(this.options.unknownToken);
  }

  static fromVocabFile(file: string, options: Partial<WordPieceOptions> = {}): WordPieceTokenizer {
    const vocab = new Map<string, number>();
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const token = line.replace(/\r$/, '');
        if (token.length > 0 && !vocab.has(token)) vocab.set(token, index);
      });
    return new WordPieceTokenizer(vocab, options);
  }

  /** Words of the basic tokenizer with their spans in `text`. */
  words(text: string): Array<{ word: string; start: number; end: number }> {
    const out: Array<{ word: string; start: number; end: number }> = [];
    let current = '';
    let start = -1;
    const flush = (end: number): void => {
      if (current.length > 0) out.push({ word: current, start, end });
      current = '';
      start = -1;
    };
    let offset = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      const width = ch.length;
      if (cp === 0 || cp === 0xfffd || isControl(ch) || isWhitespace(ch)) {
        flush(offset);
      } else if (isPunctuation(ch) || isCjk(cp)) {
        flush(offset);
        out.push({ word: ch, start: offset, end: offset + width });
      } else {
        if (start < 0) start = offset;
        current += ch;
      }
      offset += width;
    }
    flush(offset);
    return out;
  }

  private normalise(word: string): string {
    if (!this.options.lowercase) return word;
    return word
      .toLowerCase()
      .normalize('NFD')
      .replace(/\p{Mn}/gu, '');
  }

  /** Word-piece ids of one basic word (memoised: scientific text repeats its vocabulary). */
  private pieces(word: string): number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    const normal = this.normalise(word);
    let ids: number[] = [];
    // Accent stripping can leave punctuation next to letters ("x́" stays one word); re-split like BERT does.
    const parts = normal.length === 0 ? [] : this.splitPunctuation(normal);
    for (const part of parts) ids = ids.concat(this.wordPieces(part));
    if (this.cache.size < 200_000) this.cache.set(word, ids);
    return ids;
  }

  private splitPunctuation(word: string): string[] {
    const parts: string[] = [];
    let current = '';
    for (const ch of word) {
      if (isPunctuation(ch)) {
        if (current) parts.push(current);
        parts.push(ch);
        current = '';
      } else current += ch;
    }
    if (current) parts.push(current);
    return parts;
  }

  private wordPieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.options.maxCharsPerWord) return [this.unkId];
    const ids: number[] = [];
    let begin = 0;
    while (begin < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (begin < end) {
        const piece = (begin > 0 ? '##' : '') + chars.slice(begin, end).join('');
        const id = this.vocab.get(piece);
        if (id !== undefined) {
          found = id;
          break;
        }
        end -= 1;
      }
      if (found === undefined) return [this.unkId];
      ids.push(found);
      begin = end;
    }
    return ids;
  }

  /** Word pieces of a text (no special tokens), each with the span of its word. */
  tokenize(text: string): TokenSpan[] {
    const spans: TokenSpan[] = [];
    for (const { word, start, end } of this.words(text)) {
      for (const id of this.pieces(word)) spans.push({ id, start, end });
    }
    return spans;
  }

  /** Number of word pieces of a text, special tokens excluded. */
  count(text: string): number {
    let total = 0;
    for (const { word } of this.words(text)) total += this.pieces(word).length;
    return total;
  }

  /** Model input ids: [CLS] pieces [SEP], truncated to `maxLength` in all. */
  encode(text: string, maxLength: number): number[] {
    const ids = this.tokenize(text).map((span) => span.id);
    return [this.clsId, ...ids.slice(0, Math.max(0, maxLength - 2)), this.sepId];
  }
}
