import type { ChunkingSettings } from '../config/settings';
import { sentenceSpans } from '../text';

/** Counts word pieces the way the embedding model does (its own tokenizer). */
export interface TokenCounter {
  count(text: string): number;
}

/** A piece of a paper's source text, with character offsets into that text. */
export interface TextChunk {
  readonly ordinal: number;
  readonly text: string;
  readonly start: number;
  readonly end: number;
  readonly tokenCount: number;
}

interface Span {
  start: number;
  end: number;
  tokens: number;
}

/** Paragraph spans: blocks separated by blank lines, or by section headings on their own line. */
export function paragraphSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  const separator = /\n\s*\n/g;
  let from = 0;
  for (let match = separator.exec(text); match; match = separator.exec(text)) {
    spans.push({ start: from, end: match.index });
    from = match.index + match[0].length;
  }
  spans.push({ start: from, end: text.length });
  return spans.map((span) => trimSpan(text, span)).filter((span) => span.end > span.start);
}

function trimSpan(text: string, span: { start: number; end: number }): { start: number; end: number } {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start += 1;
  while (end > start && /\s/.test(text[end - 1]!)) end -= 1;
  return { start, end };
}

/** Splits a span that alone exceeds the limit at word boundaries, each part at most `limit` tokens. */
function splitLongSpan(text: string, span: Span, limit: number, counter: TokenCounter): Span[] {
  const parts: Span[] = [];
  const words = [...text.slice(span.start, span.end).matchAll(/\S+/g)].map((match) => ({
    start: span.start + match.index,
    end: span.start + match.index + match[0].length,
    tokens: counter.count(match[0]),
  }));
  let current: Span | undefined;
  for (const word of words) {
    if (current && current.tokens + word.tokens > limit) {
      parts.push(current);
      current = undefined;
    }
    // A single word longer than the limit (a sequence, a URL) stays whole; the model truncates it.
    current = current ? { start: current.start, end: word.end, tokens: current.tokens + word.tokens } : { ...word };
  }
  if (current) parts.push(current);
  return parts;
}

/**
 * A chunk as every writer stores it (records' abstracts, documents' sections): its place in the text, its tokens and its
 * vector, null until embedded.
 */
export interface StoredChunk extends TextChunk {
  id: string;
  /** The section it comes from: "abstract" or "title" for a record, the heading as written for a document. */
  section: string;
  embedding: number[] | null;
}

/**
 * Packs sentences into chunks of at most `maxTokens` word pieces, never across a paragraph boundary unless a
 * paragraph is short enough to share, and repeats up to `overlapTokens` of trailing sentences at the start of the
 * next chunk of the same paragraph run. Offsets index the original text, so `text.slice(start, end)` is the chunk.
 */
export function chunkText(text: string, settings: ChunkingSettings, counter: TokenCounter): TextChunk[] {
  const { maxTokens, overlapTokens } = settings;
  const chunks: TextChunk[] = [];
  let current: Span[] = [];
  let currentTokens = 0;

  const emit = (): void => {
    if (current.length === 0) return;
    const start = current[0]!.start;
    const end = current[current.length - 1]!.end;
    const chunkText = text.slice(start, end);
    chunks.push({ ordinal: chunks.length, text: chunkText, start, end, tokenCount: counter.count(chunkText) });
  };

  const overlapTail = (): Span[] => {
    const tail: Span[] = [];
    let tokens = 0;
    for (let index = current.length - 1; index > 0; index -= 1) {
      const span = current[index]!;
      if (tokens + span.tokens > overlapTokens) break;
      tail.unshift(span);
      tokens += span.tokens;
    }
    return tail;
  };

  for (const paragraph of paragraphSpans(text)) {
    const sentences: Span[] = [];
    for (const sentence of sentenceSpans(text, paragraph.start, paragraph.end)) {
      const span = { ...sentence, tokens: counter.count(text.slice(sentence.start, sentence.end)) };
      if (span.tokens > maxTokens) sentences.push(...splitLongSpan(text, span, maxTokens, counter));
      else sentences.push(span);
    }
    const paragraphTokens = sentences.reduce((sum, span) => sum + span.tokens, 0);
    // A new paragraph starts a new chunk unless it fits entirely in what is left of the current one.
    if (current.length > 0 && currentTokens + paragraphTokens > maxTokens) {
      emit();
      current = [];
      currentTokens = 0;
    }
    for (const sentence of sentences) {
      if (current.length > 0 && currentTokens + sentence.tokens > maxTokens) {
        emit();
        current = overlapTail();
        currentTokens = current.reduce((sum, span) => sum + span.tokens, 0);
        if (currentTokens + sentence.tokens > maxTokens) {
          current = [];
          currentTokens = 0;
        }
      }
      current.push(sentence);
      currentTokens += sentence.tokens;
    }
  }
  emit();
  return chunks;
}
