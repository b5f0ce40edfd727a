import type { CitationField, Evidence } from '../domain';
import { contentTerms, sentenceSpans, withoutStop } from '../text';

/** One citation of an answer sentence, aligned to the passage it rests on. */
export interface VerifiedCitation {
  marker: number;
  evidenceId: string;
  paperId: string;
  chunkId: string;
  /** The supporting words as they stand in the passage. */
  quote: string;
  /** The paper field quoted; `paper[field].slice(start, end) === quote`. */
  field: CitationField;
  /** Character offsets of the quote in that field (chunk offset + position in the chunk). */
  start: number;
  end: number;
  /** For a document: the section heading and kind, and the pages of the passage the quote is in. */
  section: string | null;
  sectionKind: string | null;
  page: number | null;
  pageEnd: number | null;
  supportScore: number;
  method: 'exact' | 'normalised' | 'overlap' | 'semantic' | 'computed';
}

export interface VerifiedSentence {
  text: string;
  citations: VerifiedCitation[];
}

export interface VerificationResult {
  sentences: VerifiedSentence[];
  answer: string;
  /** Sentences removed because no cited passage supports them. */
  dropped: Array<{ text: string; reason: string }>;
  /** Markers that named no evidence and were removed. */
  strippedMarkers: string[];
  bibliography: Array<{ marker: number; evidenceId: string; paperId: string }>;
}

const MARKER = /\[(E?\d+(?:\s*,\s*E?\d+)*)\]/g;

function normalise(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The normalised text with, for each of its characters, the index of the original character it came from. */
function normaliseWithMap(text: string): { text: string; map: number[] } {
  let out = '';
  const map: number[] = [];
  let pendingSpace = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (/[\p{L}\p{N}]/u.test(ch)) {
      if (pendingSpace && out.length > 0) {
        out += ' ';
        map.push(i);
      }
      pendingSpace = false;
      const lower = ch.toLowerCase();
      for (const piece of lower) {
        out += piece;
        map.push(i);
      }
    } else {
      pendingSpace = true;
    }
  }
  return { text: out, map };
}

/** A sentence of an answer without its citation markers: the text that is verified (and embedded for it). */
function cleanSentence(raw: string): string {
  return raw
    .replace(MARKER, '')
    .replace(/\s+([.,;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** The claims `verifyAnswer` will check, split and cleaned exactly as it does. */
export function answerClaims(answer: string): string[] {
  return sentenceSpans(answer, 0, answer.length)
    .map((span) => cleanSentence(answer.slice(span.start, span.end).trim()))
    .filter((text) => text.length > 0);
}

/** Sentences that only frame the answer ("In summary:") need no citation. */
function isFactual(sentence: string): boolean {
  return contentTerms(sentence).length >= 3;
}

/**
 * A sentence that only names a source the way the evidence list shows it to a model — "(Low-dose aspirin and …,
 * 1995)", a title in parentheses or with the paper's year — states no finding, though its words stand in the
 * passage's title. Such a sentence (its content words, years aside, at least 80% from the title of a paper it cites;
 * small models copy titles with a word changed) is no claim. A title restated as a plain sentence is judged as a claim.
 */
export function namesOnlyASource(sentence: string, cited: readonly Evidence[]): boolean {
  const words = contentTerms(sentence).filter((term) => !/^(1[89]|20)\d\d$/.test(term));
  if (words.length === 0) return false;
  const bracketed = /^\(.*\)[.;]?$/.test(sentence.trim());
  return cited.some((item) => {
    if (!item.paper.title) return false;
    if (!bracketed && !(item.paper.year && sentence.includes(String(item.paper.year)))) return false;
    const title = new Set(contentTerms(item.paper.title));
    return words.filter((word) => title.has(word)).length >= 0.8 * words.length;
  });
}

/**
 * Aligns a claim with a passage: exact substring, then normalised substring, then token overlap combined with
 * embedding similarity. Returns the support (0–1), the method, and where in the passage the quote stands.
 */
export function alignQuote(
  claim: string,
  passage: string,
  similarity: number | undefined,
): { support: number; method: VerifiedCitation['method']; start: number; end: number } {
  const bare = claim
    .replace(MARKER, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;:]$/, '');
  const exact = bare.length > 0 ? passage.indexOf(bare) : -1;
  if (exact >= 0) return { support: 1, method: 'exact', start: exact, end: exact + bare.length };
  const normalClaim = normalise(bare);
  if (normalClaim.length > 0) {
    const { text: normalPassage, map } = normaliseWithMap(passage);
    const at = normalPassage.indexOf(normalClaim);
    if (at >= 0) {
      const start = map[at]!;
      const end = map[at + normalClaim.length - 1]! + 1;
      return { support: 0.95, method: 'normalised', start, end };
    }
  }
  const claimTerms = new Set(contentTerms(bare));
  const passageTerms = new Set(contentTerms(passage));
  const overlap =
    claimTerms.size === 0 ? 0 : [...claimTerms].filter((term) => passageTerms.has(term)).length / claimTerms.size;
  // The quote is the passage sentence sharing most terms with the claim.
  let best = { start: 0, end: passage.length, shared: -1 };
  for (const span of sentenceSpans(passage, 0, passage.length)) {
    const terms = new Set(contentTerms(passage.slice(span.start, span.end)));
    const shared = [...claimTerms].filter((term) => terms.has(term)).length;
    if (shared > best.shared) best = { ...span, shared };
  }
  if (similarity === undefined) return { support: overlap, method: 'overlap', start: best.start, end: best.end };
  const support = 0.5 * overlap + 0.5 * Math.max(0, similarity);
  return { support, method: overlap >= similarity ? 'overlap' : 'semantic', start: best.start, end: best.end };
}

/**
 * Verifies an answer whose sentences cite evidence as [E3] or [3]: markers that resolve to no evidence are removed;
 * each factual sentence must have a cited passage that supports it above `threshold`, or it is dropped, as is a sentence
 * that repeats an earlier one or only names a source (`namesOnlyASource`). Markers are renumbered in order of first
 * use, and the same source keeps its number.
 */
export function verifyAnswer(
  answer: string,
  evidence: ReadonlyMap<string, Evidence>,
  labelOf: (label: string) => string | undefined,
  threshold: number,
  similarity?: (sentence: string, evidence: Evidence) => number,
  quotable: (quote: string, evidence: Evidence) => boolean = () => true,
): VerificationResult {
  const dropped: VerificationResult['dropped'] = [];
  const strippedMarkers: string[] = [];
  const numbers = new Map<string, number>();
  const sentences: VerifiedSentence[] = [];
  const seen = new Set<string>();
  const spans = sentenceSpans(answer, 0, answer.length);
  for (const span of spans) {
    const raw = answer.slice(span.start, span.end).trim();
    if (!raw) continue;
    const cited: Evidence[] = [];
    for (const match of raw.matchAll(MARKER)) {
      for (const label of match[1]!.split(/\s*,\s*/)) {
        const id = labelOf(label);
        const item = id ? evidence.get(id) : undefined;
        if (item) {
          if (!cited.includes(item)) cited.push(item);
        } else strippedMarkers.push(`[${label}]`);
      }
    }
    const text = cleanSentence(raw);
    if (!text) continue;
    const key = normalise(text);
    if (seen.has(key)) {
      dropped.push({ text, reason: 'it repeats an earlier sentence' });
      continue;
    }
    seen.add(key);
    const hadMarkers = MARKER.test(raw);
    MARKER.lastIndex = 0;
    if (hadMarkers && cited.length === 0) {
      dropped.push({ text, reason: 'its citations resolve to no evidence' });
      continue;
    }
    if (!isFactual(text)) {
      sentences.push({ text, citations: [] });
      continue;
    }
    if (cited.length === 0) {
      dropped.push({ text, reason: 'no citation that resolves to evidence' });
      continue;
    }
    if (namesOnlyASource(text, cited)) {
      dropped.push({ text, reason: "it names a source's title and states no finding" });
      continue;
    }
    const citations: VerifiedCitation[] = [];
    let unquotable = 0;
    for (const item of cited) {
      const aligned = alignQuote(text, item.text, similarity ? similarity(text, item) : undefined);
      if (aligned.support < threshold) continue;
      // Support from what is not prose (a caption, an equation, a reference entry the question does not ask about,
      // page furniture) is no support: the passage's sentence the quote stands in is judged (see sentenceKind).
      const around = sentenceSpans(item.text, 0, item.text.length).find(
        (span) => span.start <= aligned.start && aligned.start < span.end,
      );
      if (!quotable(item.text.slice(around?.start ?? aligned.start, around?.end ?? aligned.end), item)) {
        unquotable += 1;
        continue;
      }
      let marker = numbers.get(item.id);
      if (marker === undefined) {
        marker = numbers.size + 1;
        numbers.set(item.id, marker);
      }
      citations.push({
        marker,
        evidenceId: item.id,
        paperId: item.paperId,
        chunkId: item.chunkId,
        quote: item.text.slice(aligned.start, aligned.end),
        field: item.field,
        start: item.start + aligned.start,
        end: item.start + aligned.end,
        section: item.section ?? null,
        sectionKind: item.sectionKind ?? null,
        page: item.pageStart ?? null,
        pageEnd: item.pageEnd ?? null,
        supportScore: Number(aligned.support.toFixed(3)),
        method: aligned.method,
      });
    }
    if (citations.length === 0) {
      dropped.push({
        text,
        reason:
          unquotable > 0
            ? 'it rests only on a caption, an equation, a reference entry or page furniture the question does not ask about'
            : `no cited passage supports it (threshold ${threshold})`,
      });
      continue;
    }
    sentences.push({ text, citations });
  }
  const rendered = sentences
    .map((sentence) =>
      sentence.citations.length
        ? `${withoutStop(sentence.text)} ${[...new Set(sentence.citations.map((c) => c.marker))].map((m) => `[${m}]`).join('')}.`
        : sentence.text,
    )
    .join(' ');
  const bibliography = [...numbers.entries()]
    .sort((a, b) => a[1] - b[1])
    .map(([evidenceId, marker]) => ({ marker, evidenceId, paperId: evidence.get(evidenceId)!.paperId }));
  return { sentences, answer: rendered, dropped, strippedMarkers, bibliography };
}
