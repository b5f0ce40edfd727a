import { cosine, type Embedder } from '../embedding/embedder';
import { similarityScale } from '../embedding/similarity-scale';
import type { Evidence } from '../domain';
import { contentTerms, sentenceSpans, withoutStop } from '../text';

export interface ExtractiveSentence {
  text: string;
  evidenceId: string;
  score: number;
}

const FINDING_LABEL = new RegExp(
  String.raw`^(?:MAIN |PRINCIPAL |KEY )?(?:RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|Results?|Findings|Conclusions?(?: and [Rr]elevance)?|Interpretation)\b`,
);
const SETUP_LABEL = new RegExp(
  String.raw`^(?:(?:MAIN |PRIMARY )?OUTCOME MEASURES?|OBJECTIVES?|CONTEXT|BACKGROUND|DESIGN|SETTING|METHODS?|SAMPLE|PARTICIPANTS|PATIENTS|AIMS?|INTRODUCTION|PURPOSE|Objectives?|Context|Background|Design|Setting|Methods?|Aims?|Introduction|Purpose|Main Outcomes? and Measures?|Importance|Exposures?)\b`,
);
/** The label a structured abstract opens a sentence with, in capitals ("RESULTS ", "DESIGN, SETTING, AND PATIENTS "). */
const LEADING_LABEL =
  /^(?:(?:MAIN|PRINCIPAL|KEY|PRIMARY|SECONDARY) )?(?:RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|OBJECTIVES?|CONTEXT|BACKGROUND|DESIGN|SETTINGS?|METHODS?|SAMPLE|PARTICIPANTS|PATIENTS|AIMS?|INTRODUCTION|PURPOSE|OUTCOME MEASURES?|INTERVENTIONS?|MEASUREMENTS?|RELEVANCE|IMPORTANCE)(?:(?:,? AND |, | )(?:MAIN |PRIMARY )?(?:RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|OBJECTIVES?|CONTEXT|BACKGROUND|DESIGN|SETTINGS?|METHODS?|SAMPLE|PARTICIPANTS|PATIENTS|AIMS?|PURPOSE|OUTCOME MEASURES?|INTERVENTIONS?|MEASUREMENTS?|RELEVANCE|IMPORTANCE))*:?\s+(?=\S)/;

/**
 * The labels of JAMA-style structured abstracts, in title case ("Main Outcomes and Measures Sepsis incidence …"): a
 * label only when a capitalised word follows it, so that "Results showed …" stays a sentence.
 */
const TITLE_CASE_LABEL =
  /^(?:Main Outcomes? and Measures?|Design,? Settings?,? and Participants|Conclusions and Relevance|Importance|Objectives?|Exposures?|Interventions?|Results|Conclusions|Background|Methods)\s+(?=[A-Z])/;

/** A sentence without the structured-abstract label it opens with, if any. */
export function withoutLabel(sentence: string): string {
  const stripped = sentence.replace(LEADING_LABEL, '');
  return stripped === sentence ? sentence.replace(TITLE_CASE_LABEL, '') : stripped;
}

/** What a result says: its verbs of finding and its statistics. */
const FINDING_CUE =
  /\b(?:we (?:show|showed|found|find|report|demonstrate|demonstrated|detect|detected|observed|identified|conclude)|here,? we show|(?:results|findings|data) (?:show|showed|indicate|indicated|suggest|suggested|demonstrate|reveal)|(?:was|were) (?:significantly |independently |strongly )?(?:associated|correlated|linked)|significantly|p\s?[<=]|95% ?CI|hazard ratio|odds ratio|relative risk)\b/i;
/** What sets a study up: its aims and design, which say what was asked, not what was found. */
const SETUP_CUE =
  /\b(?:the (?:aim|objective|purpose|goal) of|to (?:determine|assess|investigate|evaluate|examine|compare|test) (?:whether|the|if|how)|we (?:investigated|examined|tested the hypothesis|conducted|performed|used|aimed|sought|studied|enrolled|recruited|analy[sz]ed|assessed|evaluated|measured|compared)|were randomi[sz]ed|was designed|we (?:systematically |comprehensively |electronically )?(?:searched|screened|reviewed|extracted|pooled)|(?:were|was) (?:systematically |electronically )?searched)\b/i;
/**
 * What a sentence of a passage is when it is not prose that states something: a figure or table caption, an equation's
 * residue (a PDF's mathematics read as text: "′ minimize d(x, x ) ˆ ˆ ′ such that"), an entry of a reference list, or
 * page furniture (a download notice, a page count, a licence line). Null for prose.
 */
export type SentenceKind = 'caption' | 'equation' | 'reference' | 'furniture';

const CAPTION =
  /^(?:(?:Supplementary |Suppl\. |Extended Data )?(?:Fig(?:ure)?s?\.?|Table|Tab\.|Chart|Plate|Scheme|Box)\s*S?\d+[A-Za-z]?(?:\.\d+)?\s*[.:|—–-]|(?:FIGURE|TABLE)\s+S?\d+\b)/;
/** Symbols of mathematics that prose, statistics included ("n = 45", "p ≤ 0.05", "mean ± SD", "TNF-α"), does not use. */
const MATH_CHARACTER = /[∑∏∫∂∇∈∉⊂⊆⊃∪∩≠√∞′″ˆ˜¯→←↔∀∃]/gu;
/** An entry of a reference list: authors, then a year with volume and pages ("2010;5:1-9", "12(3), 45–67", "pp. 4-9"). */
const REFERENCE_ENTRY =
  /(?:\b(?:19|20)\d{2}[a-z]?\s*[;,]\s*\d+\s*(?:\(\d+\))?\s*[:,]\s*(?:e|S)?\d+(?:\s*[–-]\s*\d+)?|\b\d+\s*\(\d+\)\s*[:,]\s*\d+\s*[–-]\s*\d+|\bpp?\.\s*\d+\s*[–-]\s*\d+|\bdoi:\s*10\.|\bet al\.,?\s*\(?(?:19|20)\d{2}\)?\.\s+\p{Lu})/u;
const FURNITURE =
  /^(?:downloaded from\b|page \d+ of \d+|all rights reserved|this article is protected by copyright|accepted manuscript|preprint\.? (?:under review|not peer reviewed)|(?:©|\(c\)|copyright)\s*(?:19|20)\d{2}\b|creative commons\b|this (?:work|article) is licensed under|licensed under a creative commons|(?:for|to) personal use only|proceedings of the\b.*\b(?:19|20)\d{2}|provided by\b|view metadata, citation and similar papers)/i;

/** The kind of a sentence that is not prose (see SentenceKind), or null. */
export function sentenceKind(text: string, sectionKind: string | null = null): SentenceKind | null {
  const trimmed = text.trim();
  if (sectionKind === 'references') return 'reference';
  if (CAPTION.test(trimmed)) return 'caption';
  if (FURNITURE.test(trimmed)) return 'furniture';
  // Mathematics: symbols of it, or a run of one-character tokens that no prose has.
  const tokens = trimmed.split(/\s+/);
  // One-character tokens other than words ("a", "I") and digits: variables, primes, hats, brackets left alone.
  const single = tokens.filter((token) => {
    const bare = token.replace(/[.,;:]/g, '');
    return bare.length === 1 && !/^[aAI\d]$/.test(bare);
  }).length;
  const math = trimmed.match(MATH_CHARACTER)?.length ?? 0;
  if (math >= 2 || (tokens.length >= 6 && single / tokens.length > 0.3)) return 'equation';
  if (REFERENCE_ENTRY.test(trimmed)) return 'reference';
  return null;
}

/** Which kinds of sentence a question asks about, and may be answered from ("what does Figure 2 show?"). */
export function kindsAskedFor(question: string): Set<SentenceKind> {
  const asked = new Set<SentenceKind>();
  if (/\b(?:fig(?:ure)?s?|tables?|captions?|charts?|plots?|graphs?|diagrams?)\b/i.test(question)) asked.add('caption');
  if (/\b(?:equations?|formulae?|formulas?|objective function|loss function|derivation)\b/i.test(question))
    asked.add('equation');
  if (/\b(?:references?|reference list|bibliography|cites?|cited|citations?)\b/i.test(question)) asked.add('reference');
  return asked;
}

/** A numbered reference mark inside a sentence, which the answer's citation labels would be confused with. */
const REFERENCE_MARK = /\[\d{1,3}(?:\s*[,–-]\s*\d{1,3})*\]/;

/**
 * A sentence as written, not the piece of one a passage's edge cut ("Recently, Mozilla's activities have expanded to
 * inclu"): it opens with a capital, digit, quote or bracket and closes with its stop.
 */
function isWholeSentence(text: string): boolean {
  return /^[\p{Lu}\p{N}"'“‘([]/u.test(text) && /[.!?]["'”’)\]]?$/.test(text);
}

/** Whether a sentence of a kind may be quoted for a question asking about `asked`: prose always, furniture never. */
function isQuotable(kind: SentenceKind | null, asked: ReadonlySet<SentenceKind>): boolean {
  return kind === null || (kind !== 'furniture' && asked.has(kind));
}

/**
 * What a model's answer may cite for a question: the same sentences an extractive answer may quote (a quote that is a
 * caption, an equation, a reference entry or furniture supports nothing unless the question asks about one).
 */
export function quotableFor(question: string): (quote: string, evidence: Evidence) => boolean {
  const asked = kindsAskedFor(question);
  return (quote, evidence) => isQuotable(sentenceKind(quote, evidence.sectionKind ?? null), asked);
}

/** Added to the score of a sentence that defines what a "what is X?" question asks about. */
export const DEFINITION_BONUS = 0.15;

/**
 * For a question asking what or who something is ("What is Mozilla?", "What are statins?"), the sentences that say
 * it: the subject, then "is", "are", "was", "were" or "refers to", with at most a bracket or an apposition between
 * ("Mozilla is a free-software community …", "Statins, also known as …, are …"); null for any other question.
 */
export function definitionPattern(question: string): RegExp | null {
  const asked = /^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?:an?\s+|the\s+)?(.{2,80}?)\s*\?*\s*$/i.exec(question);
  if (!asked) return null;
  const subject = asked[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  // The subject, a bracket or a comma-set apposition at most, then the verb: "Mozilla Webmaker is …" defines another.
  return new RegExp(
    `^(?:(?:the|an?)\\s+)?${subject}(?:\\s*\\([^)]{0,80}\\)|,[^,.;]{0,80},)?\\s+(?:is|are|was|were|refers\\s+to)\\b`,
    'i',
  );
}

/** Added to a sentence's score by what it reports: a finding rises, an aim or a design falls. */
export const FINDING_BONUS = 0.05;

/** Whether a sentence reports a finding (1), sets the study up (−1) or neither (0). */
export function sentenceRole(text: string): -1 | 0 | 1 {
  if (FINDING_LABEL.test(text)) return 1;
  if (SETUP_LABEL.test(text)) return -1;
  if (SETUP_CUE.test(text)) return -1;
  return FINDING_CUE.test(text) ? 1 : 0;
}

/**
 * The offline generator: the answer is made of evidence sentences, chosen by similarity to the question (a reported
 * finding preferred to a study's aim or design, see sentenceRole) and diversified (a sentence too close to one already
 * chosen is skipped), each cited with its evidence label. It writes
 * nothing the passages do not say, so every sentence is a verbatim quote. Deterministic for the same evidence.
 */
export async function extractiveAnswer(
  question: string,
  evidence: readonly Evidence[],
  label: (evidence: Evidence) => string,
  embedder: Embedder,
  maxSentences: number,
  firstPapers: ReadonlySet<string> = new Set(),
): Promise<{ answer: string; chosen: ExtractiveSentence[] }> {
  const candidates: Array<{ text: string; role: -1 | 0 | 1; evidence: Evidence }> = [];
  // The strongest passages, and the best one of each paper the caller names first (the papers that connect the
  // question's concepts, however their passages rank).
  const ranked = [...evidence].sort((a, b) => b.score - a.score);
  const firsts = [...new Set(ranked.filter((e) => firstPapers.has(e.paperId)).map((e) => e.paperId))].map((id) =>
    ranked.find((e) => e.paperId === id)!,
  );
  const read = [...firsts, ...ranked.filter((e) => !firsts.includes(e))].slice(0, Math.max(8, firsts.length + 4));
  // Captions, equations, reference entries and page furniture are evidence of what they are, quoted only when the
  // question is about them (a figure, an equation, what a paper cites); furniture never.
  const quotable = quotableFor(question);
  for (const item of read) {
    for (const span of sentenceSpans(item.text, 0, item.text.length)) {
      const sentence = item.text.slice(span.start, span.end).trim();
      // A structured abstract's label is not part of what the sentence says ("CONCLUSION Treatment with …"); the
      // sentence is quoted without it, and still slices exactly out of the passage. Its role is read with it.
      const text = withoutLabel(sentence);
      // A table row ("Founded | February 28, 1998") is data, not a sentence that answers; a sentence holding a
      // numbered reference mark ("exceptions,[3] and") would cite the answer's evidence [3] when quoted.
      if (
        contentTerms(text).length >= 4 &&
        text.length <= 600 &&
        !text.includes(' | ') &&
        !REFERENCE_MARK.test(text) &&
        isWholeSentence(text) &&
        quotable(text, item)
      )
        candidates.push({ text, role: sentenceRole(sentence), evidence: item });
    }
  }
  if (candidates.length === 0) return { answer: '', chosen: [] };
  const limited = candidates.slice(0, 48);
  // The question as a search query against the sentences as passages; cosines read on MiniLM's scale, on which the
  // weights and the near-duplicate bound were chosen.
  const [questionVector] = await embedder.embed([question], 'query');
  const vectors = await embedder.embed(limited.map((c) => c.text));
  const scale = similarityScale(embedder.modelName);
  const wanted = new Set(contentTerms(question));
  const definition = definitionPattern(question);
  const scored = limited.map((candidate, index) => {
    const terms = new Set(contentTerms(candidate.text));
    const overlap = wanted.size === 0 ? 0 : [...wanted].filter((t) => terms.has(t)).length / wanted.size;
    return {
      ...candidate,
      vector: vectors[index]!,
      score:
        0.7 * scale.toReference(cosine(questionVector!, vectors[index]!), 'query') +
        0.3 * overlap +
        0.002 * candidate.evidence.score +
        FINDING_BONUS * candidate.role +
        (definition && definition.test(candidate.text) ? DEFINITION_BONUS : 0),
    };
  });
  scored.sort((a, b) => b.score - a.score || (a.text < b.text ? -1 : 1));
  const chosen: typeof scored = [];
  for (const candidate of scored) {
    if (chosen.length >= maxSentences) break;
    if (candidate.score < 0.25) break;
    if (chosen.some((other) => scale.toReference(cosine(other.vector, candidate.vector), 'passage') > 0.85)) continue;
    chosen.push(candidate);
  }
  const answer = chosen.map((c) => `${withoutStop(c.text)} [${label(c.evidence)}].`).join(' ');
  return {
    answer,
    chosen: chosen.map((c) => ({ text: c.text, evidenceId: c.evidence.id, score: Number(c.score.toFixed(4)) })),
  };
}
