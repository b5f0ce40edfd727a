import nlp from 'compromise';
import type { Evidence } from '../domain';
import { contentTerms, stem, STOPWORDS, terms } from '../text';
import { FRAMING } from './plan-subjects';
import {
  COMPOUND_SUFFIXES,
  definedAcronyms,
  EFFECT_VERBS,
  QUESTION_AUXILIARIES,
  GENERIC,
  MODIFIER_COMPOUND,
  NAMING_HEADS,
  unspecific,
  withoutDefinedAcronyms,
} from './concept-words';

/**
 * Relational sufficiency: whether the question's key concepts are connected. A concept is a noun phrase of the
 * question reduced to its specific words; two concepts the graph knows are connected when a paper mentions both (title
 * or abstract, every word of each), or when a paper mentioning one cites (or is cited by) a paper mentioning the other.
 * A question joining concepts the graph never connects ("emicizumab for borderline personality disorder", when the
 * graph has papers on each and none on both) cannot be answered from it, however good the passages on each are.
 */

export { stem };

export interface Concept {
  /** As the question says it. */
  phrase: string;
  /** Its specific words (for the full-text index, which stems them itself). */
  words: string[];
  /** Its specific words, stemmed (for matching passages). */
  stems: string[];
  /**
   * Its words without the outermost adjective, which names a kind of it ("mechanical circulatory support" of
   * "allogeneic mechanical circulatory support"): what the graph must hold for the subject to be known at all.
   */
  core?: string[];
  /** The acronym the question defined for it ("ampk" for "AMP-activated protein kinase (AMPK)"), which papers may use. */
  alias?: string[];
}

/** The word lists a concept is named by: its words, and the acronym the question defined for it. */
export function conceptForms(concept: Concept): string[][] {
  return concept.alias ? [concept.words, concept.alias] : [concept.words];
}

export function questionConcepts(asked: string): Concept[] {
  const question = withoutDefinedAcronyms(asked);
  const doc = nlp(question);
  const phrases = (doc.nouns().out('array') as string[]).map((p) => p.replace(/[?.!,;:]+$/, '').trim());
  // Words the tagger reads as verbs or adjectives in this question ("kills", "continuous") name no subject.
  const notNouns = new Set(
    contentTerms((doc.match('(#Verb|#Adjective)').not('#Noun').out('array') as string[]).join(' ')),
  );
  // A compound modifier names its subject: "mentalization-based treatment" is about mentalization, whatever the
  // tagger makes of the compound.
  const restored = [...question.matchAll(MODIFIER_COMPOUND)].map((match) => match[1]!.toLowerCase());
  // A word the tagger took for a verb only by its place ("Can schema therapy…") but that is a noun on its own.
  for (const word of notNouns) if (nlp(word).has('#Noun') && !nlp(word).has('#Verb')) restored.push(word);
  // A word after an article and before a verb of effect is the verb's subject, a noun, whatever the tagger made of it
  // ("does switching to a biosimilar improve …").
  const words = terms(question);
  // So is the word between the question's opening auxiliary and such a verb ("does alendronate prevent …": the
  // tagger reads drug names in -ate as verbs).
  words.forEach((word, i) => {
    if (!EFFECT_VERBS.has(words[i + 1] ?? '')) return;
    if (i > 0 && /^(?:a|an|the)$/.test(words[i - 1]!)) restored.push(word);
    else if (i === 1 && QUESTION_AUXILIARIES.has(words[0]!)) restored.push(word);
  });
  for (const word of restored) notNouns.delete(word);
  // An adjective right before a specific word is part of the subject's name ("neuropathic pain", "suicidal ideation",
  // "dialectical behavior therapy"); before a generic word ("obese children") or none ("is effective") it is not.
  const attributive = new Set<string>();
  words.forEach((word, i) => {
    const next = words[i + 1];
    if (!notNouns.has(word) || unspecific(word) || next === undefined || unspecific(next)) return;
    // Participles ("developing diabetes", "activated cells") say what happens to a subject, not which it is.
    if (/(?:ing|ed)$/.test(word)) return;
    if (nlp(word).has('#Adjective') && !nlp(word).has('#Verb')) attributive.add(word);
  });
  for (const word of attributive) notNouns.delete(word);
  /** The phrase with the attributive adjectives and restored nouns the tagger left just before it. */
  const extended = (phrase: string): string[] => {
    const own = terms(phrase);
    if (own.length === 0) return own;
    const at = words.findIndex((_, i) => own.every((o, k) => words[i + k] === o));
    const before: string[] = [];
    for (let i = at - 1; i >= 0 && (attributive.has(words[i]!) || restored.includes(words[i]!)); i -= 1) {
      before.unshift(words[i]!);
    }
    return [...before, ...own];
  };
  const concepts: Concept[] = [];
  const seen = new Set<string>();
  for (const phrase of phrases) {
    let run: string[] = [];
    const flush = () => {
      if (run.length > 0) {
        const key = run.join(' ');
        if (!seen.has(key)) {
          seen.add(key);
          // The outermost adjective names a kind: "allogeneic" (mechanical circulatory support).
          const core = run.length > 1 && attributive.has(run[0]!) ? run.slice(1) : null;
          concepts.push({ phrase: key, words: run, stems: run.map(stem), ...(core ? { core } : {}) });
        }
      }
      run = [];
    };
    for (const word of extended(phrase)) {
      if (NAMING_HEADS.has(word) && run.length > 0) {
        run.push(word);
        flush();
      } else if (unspecific(word) || notNouns.has(word) || (word.length < 2 && run.length === 0)) flush();
      else run.push(word);
    }
    flush();
  }
  // The tagger may leave these words out of every noun phrase ("mentalization-" "based", "Can schema …").
  for (const word of restored) {
    if (seen.has(word) || concepts.some((c) => c.words.includes(word))) continue;
    if (STOPWORDS.has(word) || GENERIC.has(word) || FRAMING.has(word)) continue;
    seen.add(word);
    concepts.push({ phrase: word, words: [word], stems: [stem(word)] });
  }
  // A long form the question abbreviates is one concept, also named by its acronym, which papers may use alone
  // ("AMPK"): the concepts the tagger cut it into ("amp", "protein kinase") give way to it.
  for (const { acronym, long } of definedAcronyms(asked)) {
    const words = long.filter(
      (w, i) => (w.length > 1 && !unspecific(w) && !COMPOUND_SUFFIXES.includes(w)) || (i > 0 && NAMING_HEADS.has(w)),
    );
    if (words.length === 0) continue;
    const inside = concepts.filter((c) => c.words.every((w) => long.includes(w)));
    const place = inside.length > 0 ? concepts.indexOf(inside[0]!) : concepts.length;
    const merged: Concept = { phrase: words.join(' '), words, stems: words.map(stem), alias: [acronym] };
    concepts.splice(place, 0, merged);
    for (const c of inside) concepts.splice(concepts.indexOf(c), 1);
  }
  const at = (concept: Concept) => question.toLowerCase().indexOf(concept.words[0]!);
  return concepts.sort((a, b) => at(a) - at(b)).slice(0, 8);
}

/** Whether a text mentions a concept: every one of its words (stemmed). */
export function mentions(textStems: ReadonlySet<string>, concept: Concept): boolean {
  const forms = [concept.stems, ...(concept.alias ? [concept.alias.map(stem)] : [])];
  return forms.some((stems) => stems.every((s) => textStems.has(s)));
}

/**
 * Whether two words are the same word inflected ("implantation"/"implanted", "neuropathy"/"neuropathic",
 * "behaviour"/"behavior", "infectiveness"/"infectiousness"): equal, sharing seven or more first letters, or sharing five
 * or more with at most five letters after them on each. Stricter than the index's stemming, which makes
 * "mentalization" the word "mental".
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  return shared >= 7 || (shared >= 5 && a.length - shared <= 5 && b.length - shared <= 5);
}

/**
 * Whether a text names a concept: its words (see sameWord) all in one sentence, in any order ("cartilage repair" in
 * "repair of the articular cartilage", "insulin signaling" in "direct targets of systemic (insulin) and nutritional
 * signals"), not scattered over the text ("Schema" of a grading scale in one sentence, cell "therapy" in another).
 */
export function namesConcept(text: string, concept: Concept): boolean {
  return text
    .split(/[.!?;]\s+|\n+/)
    .map(terms)
    .some((sentence) =>
      conceptForms(concept).some((words) => words.every((w) => sentence.some((t) => sameWord(w, t)))),
    );
}

/** Whether one text (a paper's title and abstract) names every one of the concepts: evidence that connects them. */
export function connectsConcepts(text: string, concepts: readonly Concept[]): boolean {
  return concepts.every((concept) => namesConcept(text, concept));
}

/** Whether one passage (with its paper's title) mentions a concept. */
export function evidenceMentions(e: Evidence, concept: Concept): boolean {
  return mentions(new Set(contentTerms(`${e.paper.title ?? ''} ${e.text}`).map(stem)), concept);
}

/**
 * The first paper (of those given, best first) whose text names each concept at least in part: words (see sameWord)
 * carrying half or more of the concept's weight, each word weighted by its rarity (`weight`, an inverse document
 * frequency). "bbb breakdown" is named by a paper on "BBB" integrity, "estrogen therapy" is not by a paper on
 * "therapy". `unnamed` concepts may go unnamed when a rarer one is named: a passage that restates the question may
 * say a common concept in words the question does not use ("SNPs" for "a single nucleotide variant"), but a paper on
 * baclofen does not answer for zolpidem, the question's rarest concept. Null when none does.
 */
export function directMatch(
  papers: ReadonlyArray<{ id: string; text: string }>,
  concepts: readonly Concept[],
  weight: (word: string) => number,
  unnamed = 0,
): string | null {
  // A concept's rarity: its rarest word's.
  const rarity = new Map(concepts.map((concept) => [concept, Math.max(0, ...concept.words.map(weight))]));
  for (const paper of papers) {
    const words = new Set(terms(paper.text));
    const named = (concept: Concept) =>
      conceptForms(concept).some((form) => {
        const total = form.reduce((sum, w) => sum + weight(w), 0);
        const found = form.filter((w) => [...words].some((t) => sameWord(w, t))).reduce((sum, w) => sum + weight(w), 0);
        return total > 0 && found >= total / 2;
      });
    const missing = concepts.filter((concept) => !named(concept));
    if (missing.length === 0) return paper.id;
    const rarestNamed = Math.max(0, ...concepts.filter((c) => !missing.includes(c)).map((c) => rarity.get(c)!));
    if (
      missing.length <= unnamed &&
      missing.length < concepts.length &&
      missing.every((c) => rarity.get(c)! < rarestNamed)
    )
      return paper.id;
  }
  return null;
}
