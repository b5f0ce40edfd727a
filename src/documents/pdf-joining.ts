/**
 * Lines joined into running text: a word hyphenated across a line break is joined unless the document spells it with
 * its hyphen elsewhere ("long-term"), and a paragraph cut by a column or page break continues as one.
 */

/** Joins a line to the text before it: a word hyphenated at the line end is joined, otherwise a space. */
export function joinLine(text: string, line: string, vocabulary: HyphenVocabulary = NO_VOCABULARY): string {
  if (text.length === 0) return line;
  // The join reads only the end of the text: testing the whole of it would scan a growing paragraph once per line
  // (an end-anchored pattern is tried from every position), quadratic in the paragraph's length.
  const cut = Math.max(0, text.length - JOIN_TAIL);
  return text.slice(0, cut) + joinTail(text.slice(cut), line, vocabulary);
}

/** Characters of a paragraph's end that decide how the next line joins it (a hyphenated word is far shorter). */
const JOIN_TAIL = 200;

/** `joinLine` on the end of the text only. */
function joinTail(before: string, line: string, vocabulary: HyphenVocabulary): string {
  // A soft hyphen is a break inside a word; a hyphen-minus may be one too, or a compound's own hyphen.
  if (/\p{Ll}[\u00AD\u2010]$/u.test(before) && /^\p{Ll}/u.test(line)) return before.slice(0, -1) + line;
  if (/\p{Ll}-$/u.test(before) && /^\p{Ll}/u.test(line)) {
    const left = /(\p{L}+)-$/u.exec(before)![1]!.toLowerCase();
    const right = /^\p{L}+/u.exec(line)![0].toLowerCase();
    // "hyper-" "or hypoxemia": a prefix left hanging before a conjunction keeps its hyphen and the space.
    if (/^(?:or|and|nor|to)$/.test(right)) return `${before} ${line}`;
    return keepsHyphen(left, right, vocabulary) ? before + line : before.slice(0, -1) + line;
  }
  // A capitalised word the document prints whole elsewhere ("CON-" "SORT", "CONSORT") was hyphenated by the typesetter.
  if (/\p{L}-$/u.test(before) && /^\p{Lu}/u.test(line)) {
    const left = /(\p{L}+)-$/u.exec(before)![1]!.toLowerCase();
    const right = /^\p{L}+/u.exec(line)![0].toLowerCase();
    if (!vocabulary.compounds.has(`${left}-${right}`) && vocabulary.words.has(`${left}${right}`)) {
      return before.slice(0, -1) + line;
    }
  }
  // A compound broken at its hyphen before a capital or digit ("Long-" "Term"), or after a digit or bracket
  // ("(TNF)-" "alpha", "12-" "week"): the hyphen stays, no space.
  if (/\p{L}-$/u.test(before) && /^[\p{Lu}\p{N}]/u.test(line)) return before + line;
  if (/[\p{N})\]]-$/u.test(before) && /^[\p{L}\p{N}]/u.test(line)) return before + line;
  return `${before} ${line}`;
}

/** Words of a document as printed inside lines: its hyphenated compounds, and its plain words. */
export interface HyphenVocabulary {
  readonly compounds: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
}

const NO_VOCABULARY: HyphenVocabulary = { compounds: new Set(), words: new Set() };

/**
 * Whether "left-" at a line end and "right" on the next line are a compound ("meta-analysis", "double-blind") rather
 * than one word the typesetter hyphenated ("devel-opment"): the document's own usage decides — the compound printed
 * elsewhere, else the joined word printed elsewhere, else both halves being words of the document. Without evidence a
 * break is a hyphenation, the far more common case.
 */
function keepsHyphen(left: string, right: string, vocabulary: HyphenVocabulary): boolean {
  if (vocabulary.compounds.has(`${left}-${right}`)) return true;
  if (vocabulary.words.has(`${left}${right}`)) return false;
  // Halves of three letters or more: "in-", "un-", "re-" at a line end are far more often a word's first syllable.
  return left.length > 2 && right.length > 2 && vocabulary.words.has(left) && vocabulary.words.has(right);
}

/** The vocabulary of lines, leaving out the fragments around a line-end hyphen (they may be halves of a word). */
export function hyphenVocabulary(lines: readonly string[]): HyphenVocabulary {
  const compounds = new Set<string>();
  const words = new Set<string>();
  let afterHyphen = false;
  for (const line of lines) {
    const tokens = [...line.matchAll(/\p{L}+(?:-\p{L}+)*/gu)].map((match) => match[0].toLowerCase());
    const endsHyphen = /\p{L}-$/u.test(line);
    const from = afterHyphen ? 1 : 0;
    const to = endsHyphen ? tokens.length - 1 : tokens.length;
    for (const token of tokens.slice(from, Math.max(from, to))) {
      if (token.includes('-')) compounds.add(token);
      for (const part of token.split('-')) words.add(part);
    }
    afterHyphen = endsHyphen;
  }
  return { compounds, words };
}

export const SENTENCE_CLOSED = /[.!?:;)\]"”]$/;

/**
 * A paragraph joined line by line. Joining reads and rewrites only the end of the text (a hyphen to drop, a space to
 * add), so the text is kept as finished parts plus a short tail: appending to one string and slicing its end would
 * copy the whole growing paragraph once per line (V8 flattens a concatenated string to slice it).
 */
export class JoinedText {
  private readonly parts: string[] = [];
  private headLength = 0;
  private tail: string;

  constructor(
    first: string,
    private readonly vocabulary: HyphenVocabulary,
  ) {
    this.tail = first;
  }

  get length(): number {
    return this.headLength + this.tail.length;
  }

  join(line: string): void {
    this.tail = joinLine(this.tail, line, this.vocabulary);
    if (this.tail.length > 2 * JOIN_TAIL) {
      const done = this.tail.slice(0, this.tail.length - JOIN_TAIL);
      this.parts.push(done);
      this.headLength += done.length;
      this.tail = this.tail.slice(this.tail.length - JOIN_TAIL);
    }
  }

  /** Whether the text so far ends a sentence. */
  closed(): boolean {
    return SENTENCE_CLOSED.test(this.tail.slice(-2));
  }

  toString(): string {
    return this.parts.join('') + this.tail;
  }
}
