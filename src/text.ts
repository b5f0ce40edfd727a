/**
 * Text helpers shared by every layer: the terms of a text, sentence boundaries, and the normal forms of scholarly
 * identifiers. Pure functions, no imports: anything in src/ may use them.
 */

/** English stopwords (Lucene's English analyzer set plus common question words). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to ' +
    'was will with what which who whom whose why how when where does do did done has have had having been being were ' +
    "can could should would may might must shall than also its it's our we you your he she his her them those from " +
    'about between within without over under via per vs versus any all some each other more most less least very ' +
    'i me my mine us so too just only own same both few nor up down out off again further once here s t'
  ).split(/\s+/),
);

/** Lower-case word terms of a text: letters and digits only, so no Lucene syntax can survive. */
export function terms(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length < 64);
}

/** Content terms: terms without stopwords and lone characters (numbers kept: "5", "2019" matter). */
export function contentTerms(text: string): string[] {
  return terms(text).filter((term) => !STOPWORDS.has(term) && (term.length > 1 || /\d/.test(term)));
}

/** A crude stem: a trailing plural "s" dropped, then the first six letters ("cytosol"/"cytosolic", "statins"/"statin"). */
export function stem(word: string): string {
  const singular = word.length > 3 ? word.replace(/(?<!s)s$/, '') : word;
  return singular.slice(0, 6);
}

/**
 * Sentence ends: ., ! or ? followed by space and an upper-case letter, digit or bracket; keeps "e.g. x" and "3.5" whole.
 * Reference marks after the stop ("exceptions.[1] The …", as web pages cite) stay with the sentence they close.
 * Also a stop glued to the next sentence after a lower-case word ("disorder.Thirty-eight patients", as abstracts
 * rebuilt from sections read), which "e.g.The" and "U.S.The" are not.
 */
const SENTENCE_END =
  /[.!?]["')\]]?(?:\[\d{1,3}(?:[,–-]\d{1,3})*\])*\s+(?=[A-Z0-9(["'])|(?<=[a-z]{2})[.!?](?=[A-Z][a-z])/g;

/**
 * A sentence without its closing stop, a quote or bracket after the stop kept ('… the web."' → '… the web"'), so
 * that a citation mark and a stop can follow it: "… the web" [2]." reads as one sentence, where '… the web." [2].'
 * would split after the quote and leave the mark a sentence of its own.
 */
export function withoutStop(sentence: string): string {
  return sentence.replace(/[.!?](["'”’)\]]?)$/, '$1');
}

/**
 * Splits a span into sentence spans (character offsets into `text`). A blank line always ends one: a passage holding
 * several paragraphs (a table's rows, a list's items) never joins them into one sentence.
 */
export function sentenceSpans(text: string, start: number, end: number): Array<{ start: number; end: number }> {
  const blank = /\n[ \t]*\n\s*/g;
  blank.lastIndex = start;
  const breaks: Array<{ start: number; end: number }> = [];
  let from = start;
  for (let match = blank.exec(text); match && match.index < end; match = blank.exec(text)) {
    breaks.push({ start: from, end: match.index });
    from = Math.min(end, match.index + match[0].length);
  }
  if (breaks.length === 0) return paragraphSentences(text, start, end);
  breaks.push({ start: from, end });
  return breaks.flatMap((paragraph) => paragraphSentences(text, paragraph.start, paragraph.end));
}

/**
 * A stop that ends an abbreviation, not a sentence: "et al.", "Fig.", "St.", "Prof.", "cf." and the like, and a name's
 * initials after a capitalised name or another initial ("John F. Kennedy", "J. R. R. Tolkien") — but not a capital
 * after a lower-case word, which ends sentences in science ("… of vitamin D. The trial …").
 */
const ABBREVIATION =
  /(?:\b(?:al|Fig|fig|Figs|figs|Eq|eq|Eqs|vs|approx|ca|cf|Dr|Drs|Mr|Mrs|Ms|Prof|St|Mt|Jr|Sr|No|Nos|Vol|vol|pp|Ref|Refs|ref|Tab|Sect|resp|Inc|Ltd|Co|Corp|Dept|Univ|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|i\.e|e\.g)\.|(?:\b\p{Lu}\p{Ll}+|\b\p{Lu}\.)\s\p{Lu}\.)$/u;

/** A sentence without the reference marks after its stop ("….[2][3]"): quoted, they would read as citations. */
function withoutClosingMarks(sentence: string): string {
  const marks = /(?<=[.!?]["')\]]?)(?:\[\d{1,3}(?:[,–-]\d{1,3})*\])+\s*$/.exec(sentence);
  return marks ? sentence.slice(0, marks.index) : sentence;
}

function paragraphSentences(text: string, start: number, end: number): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  const paragraph = text.slice(start, end);
  let from = 0;
  SENTENCE_END.lastIndex = 0;
  for (let match = SENTENCE_END.exec(paragraph); match; match = SENTENCE_END.exec(paragraph)) {
    const stop = match.index + match[0].trimEnd().length;
    // An abbreviation such as "et al." or "Fig." is not a sentence end.
    const before = paragraph.slice(Math.max(0, match.index - 24), match.index + 1);
    if (ABBREVIATION.test(before)) continue;
    // An initial followed by another ("J. R. R. Tolkien") is a name, wherever it stands.
    if (/(?:^|\s)\p{Lu}\.$/u.test(before) && /^\p{Lu}\.\s/u.test(paragraph.slice(match.index + match[0].length)))
      continue;
    spans.push({ start: start + from, end: start + from + withoutClosingMarks(paragraph.slice(from, stop)).length });
    from = match.index + match[0].length;
  }
  if (from < paragraph.length)
    spans.push({ start: start + from, end: start + from + withoutClosingMarks(paragraph.slice(from)).length });
  return spans.filter((span) => text.slice(span.start, span.end).trim().length > 0);
}

/** A parsed JSON object (not an array, not null): what the readers of OpenAlex, Crossref and Semantic Scholar take. */
export type JsonObject = Record<string, unknown>;

/** Whether a parsed JSON value is an object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a string holding more than whitespace, as given; else null. */
export function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim().length > 0 ? value : null;
}

/** "https://openalex.org/W123" → "W123"; also accepts bare ids. */
export function shortOpenAlexId(value: unknown): string | null {
  const raw = nonEmpty(value);
  if (!raw) return null;
  const match = /([WASICTFPV]\d+)\/?$/i.exec(raw.trim());
  return match ? match[1]!.toUpperCase() : null;
}

/** "https://doi.org/10.1/ABC" → "10.1/abc" (DOIs are case-insensitive). */
export function normaliseDoi(value: unknown): string | null {
  const raw = nonEmpty(value);
  if (!raw) return null;
  const doi = raw
    .trim()
    .replace(/^(?:https?:\/\/)?(?:dx\.)?doi\.org\//i, '')
    .replace(/^doi:\s*/i, '')
    .toLowerCase();
  return /^10\.\d{3,9}\/\S+$/.test(doi) ? doi : null;
}

export function normalisePmid(value: unknown): string | null {
  const raw = typeof value === 'number' ? String(value) : nonEmpty(value);
  if (!raw) return null;
  const match = /(\d+)\/?$/.exec(raw.trim());
  return match ? match[1]! : null;
}

/**
 * A graph id as a user may type it: an OpenAlex id in any case or as its URL (`https://openalex.org/W2125158795`,
 * `w2125158795`) becomes the short upper-case id the graph stores; anything else (`scifact:123`, `anon:W1:0`) is
 * kept as given, trimmed.
 */
export function graphId(value: string): string {
  const trimmed = value.trim();
  const match = /^(?:https?:\/\/(?:api\.)?openalex\.org\/(?:[a-z]+\/)?)?([wasictfpv]\d+)\/?$/i.exec(trimmed);
  return match ? match[1]!.toUpperCase() : trimmed;
}

/**
 * A Lucene query over names from what a user typed: the exact phrase boosted, or every word as a prefix
 * ("breast canc" finds "Breast cancer"). Only letters and digits reach Lucene, so no syntax can be injected.
 * Null when nothing searchable is left.
 */
export function nameQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0 && word.length <= 64)
    .slice(0, 16);
  if (words.length === 0) return null;
  return `"${words.join(' ')}"^4 OR (${words.map((word) => `${word}*`).join(' AND ')})`;
}

/** Most words of a filter's text that reach Lucene. */
export const MAX_FILTER_WORDS = 32;

/**
 * The Lucene query of a filter's text: every content word required (stop words dropped, the first 32 words kept; the
 * index's English analyser stems). Only letters and digits reach Lucene. Null when no word is left.
 */
export function filterTextQuery(text: string): string | null {
  const words = [...new Set(contentTerms(text))].slice(0, MAX_FILTER_WORDS);
  return words.length === 0 ? null : words.map((word) => `+${word}`).join(' ');
}

/** Levenshtein distance of two short strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known names closest to an unknown one, for a hint: compared without case and punctuation ("nelson-2002" and
 * "Nelson_2002" are the same), then by edit distance; at most `max`, only those within half the name's length.
 */
export function closestNames(name: string, known: readonly string[], max = 3): string[] {
  const key = (value: string) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const wanted = key(name);
  return known
    .map((candidate) => ({ candidate, distance: editDistance(wanted, key(candidate)) }))
    .filter((entry) => entry.distance <= Math.max(2, Math.floor(wanted.length / 2)))
    .sort((x, y) => x.distance - y.distance || (x.candidate < y.candidate ? -1 : 1))
    .slice(0, max)
    .map((entry) => entry.candidate);
}

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A title as text: HTML entities decoded and inline markup dropped, as publishers' metadata carries it ("Safety of
 * <scp>rFVII</scp>a", "Oral Estrogen<i>versus</i>Oral", "…Mellitus&lt;SUBTITLE&gt;A Randomized…"). A tag between two
 * letters becomes a space (the markup stood for one), except sub- and superscripts ("H<sub>2</sub>O"); a subtitle tag
 * becomes ": ".
 */
export function cleanTitle(title: string): string {
  const decoded = title.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
  if (!/[<>]/.test(decoded)) return decoded.replace(/\s{2,}/g, ' ').trim();
  return decoded
    .replace(/\s*<\/?subtitle\b[^>]*>\s*/gi, ': ')
    .replace(/<\/?(?:sub|sup)\b[^>]*>/gi, '')
    .replace(
      /(.)?<\/?(?:scp|sc|i|b|em|strong|u|span|p|div|br|italic|bold|smallcaps|mml:[a-z]+|jats:[a-z-]+|inline-formula|styled-content)\b[^>]*\/?>(?=(.)?)/gi,
      (_, before: string | undefined, after: string | undefined) =>
        before !== undefined && after !== undefined && /[\p{L}\p{N})]/u.test(before) && /[\p{L}\p{N}(]/u.test(after)
          ? `${before} `
          : (before ?? ''),
    )
    .replace(/\s*:\s*:\s*/g, ': ')
    .replace(/^:\s*|\s*:\s*$/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
}
