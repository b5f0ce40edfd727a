import nlp from 'compromise';
import type { Evidence } from '../domain';
import { contentTerms, stem, STOPWORDS, terms } from '../text';
import { FRAMING } from './plan-subjects';

/**
 * Relational sufficiency: whether the question's key concepts are connected. A concept is a noun phrase of the
 * question reduced to its specific words; two concepts the graph knows are connected when a paper mentions both (title
 * or abstract, every word of each), or when a paper mentioning one cites (or is cited by) a paper mentioning the other.
 * A question joining concepts the graph never connects ("emicizumab for borderline personality disorder", when the
 * graph has papers on each and none on both) cannot be answered from it, however good the passages on each are.
 */

/** Nouns that name no subject of their own: populations, measures, study words. */
const GENERIC = new Set(
  (
    'dose doses dosage risk risks effect effects role roles level levels patient patients people person persons ' +
    'individual individuals subject subjects participant participants child children adult adults women men woman ' +
    'man physician physicians study studies outcome outcomes result results treatment treatments use uses usage ' +
    'rate rates increase increases decrease decreases change changes association associations factor factors type ' +
    'types form forms way ways number numbers amount amounts cause causes evidence analysis analyses data method ' +
    'methods approach approaches question questions impact impacts benefit benefits population populations group ' +
    'groups case cases year years time times property properties function functions activity activities process ' +
    'processes mechanism mechanisms response responses condition conditions term terms development developments ' +
    'quality value values difference differences relationship relationships influence performance ability ' +
    'potential presence absence lack part parts area areas kind kinds paper papers research literature work ' +
    'recommendation recommendations trial trials model models system systems therapy therapies ' +
    // nouns of change and of measurement: what is said about a subject, not a subject
    'depletion reduction reductions loss losses deficiency elevation activation inhibition regulation expression ' +
    'induction formation production accumulation release exposure indicator indicators marker markers predictor ' +
    'predictors determinant determinants measure measures measurement progression onset severity incidence ' +
    'prevalence frequency duration efficacy effectiveness safety tolerability improvement improvements ' +
    'developing develop develops developed deterioration failure success survival mortality morbidity reliable significant important major high low ' +
    'higher lower short long term short-term long-term non anti pre post self multi semi capacity pressure ' +
    'vulnerability susceptibility tendency likelihood probability propensity strength strong weak ' +
    // degrees: which has more or fewer of something is the question, not its subject ("the fewest reoperations")
    'fewest fewer least most more less best worst better worse greatest lowest highest largest smallest ' +
    // units of time and surroundings: "40mg/day", "a Th2 cell environment"
    'day days week weeks month months hour hours minute minutes environment environments setting settings context'
  ).split(/\s+/),
);

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

/**
 * The candidate concepts of a question: its noun phrases (compromise) cut at stopwords, generic words and numbers into
 * runs of specific words ("hormone replacement therapy", "factor viii", "emicizumab"), each matched in the graph as an
 * exact phrase. Which of them are key is decided against the graph (see judgeConnection): the rarest known ones.
 */
const COMPOUND_SUFFIXES =
  'based related induced associated dependent mediated specific derived focused oriented driven guided assisted targeted positive negative resistant sparing naive free'.split(
    ' ',
  );
const MODIFIER_COMPOUND = new RegExp(String.raw`\b(\p{L}{3,})-(?:${COMPOUND_SUFFIXES.join('|')})\b`, 'giu');

/**
 * Nouns that are generic alone but name a subject after specific words: "schema therapy" and "behavior therapy" are
 * subjects, "therapy" is not.
 */
const NAMING_HEADS = new Set(['therapy', 'therapies', 'treatment', 'treatments', 'psychotherapy']);

/**
 * Verbs of effect ("does X improve Y"), which the tagger may read as nouns after a word it does not know ("a biosimilar
 * improve …"): a boundary between concepts, never part of one. Base and -s forms only: participles name subjects
 * ("impaired glucose tolerance", "induced pluripotent stem cells").
 */
const EFFECT_VERBS = new Set(
  (
    'improve improves reduce reduces raise raises prevent prevents cure cures affect affects predict predicts impair ' +
    'impairs enhance enhances worsen worsens alter alters modify modifies trigger triggers induce induces inhibit ' +
    'inhibits promote promotes suppress suppresses protect protects boost boosts restore restores cause kill kills impede impedes'
  ).split(' '),
);

/** Whether a word is a stopword, generic, framing or a verb of effect: no part of a concept's specific words. */
function unspecific(word: string): boolean {
  // A word opening with a digit is a number or an amount ("40mg"), not a subject ("cd4", "th2" stay).
  return STOPWORDS.has(word) || GENERIC.has(word) || FRAMING.has(word) || EFFECT_VERBS.has(word) || /^\d/.test(word);
}

/**
 * An acronym the question defines in parentheses after its long form ("A T helper 2 cell (Th2) environment",
 * "AMP-activated protein kinase (AMPK)"): its letters are the first letters of the words (or hyphenated parts) just
 * before it, in order, and digits stand for themselves.
 */
const DEFINED = /\(([A-Za-z][A-Za-z0-9-]{1,9})\)/g;

/** The words of the long form an acronym abbreviates, read back from the text before it; null when it does not. */
function longForm(before: string, acronym: string): string[] | null {
  const letters = acronym.toLowerCase().replace(/[^a-z0-9]/g, '');
  const parts = before
    .toLowerCase()
    .split(/[\s-]+/)
    .filter(Boolean)
    .slice(-8);
  // Read backwards: the acronym's last letters open one of the last parts, the letters before them an earlier part, …
  let at = letters.length - 1;
  let first = parts.length;
  for (let i = parts.length - 1; i >= 0 && at >= 0; i -= 1) {
    const part = parts[i]!;
    // A part may give more than one letter ("AMPK" takes a, m, p from "AMP-activated"): the longest it opens with.
    for (let start = 0; start <= at; start += 1) {
      if (part.startsWith(letters.slice(start, at + 1))) {
        at = start - 1;
        first = i;
        break;
      }
    }
  }
  return at < 0 ? parts.slice(first) : null;
}

/** The acronyms a question defines, each with the words of its long form. */
function definedAcronyms(question: string): Array<{ acronym: string; long: string[] }> {
  const out: Array<{ acronym: string; long: string[] }> = [];
  for (const match of question.matchAll(DEFINED)) {
    const long = longForm(question.slice(0, match.index), match[1]!);
    if (long) out.push({ acronym: match[1]!.toLowerCase().replace(/-/g, ''), long: terms(long.join(' ')) });
  }
  return out;
}

/** The question without the acronyms it defines: the concepts are read from the long forms. */
export function withoutDefinedAcronyms(question: string): string {
  return question.replace(DEFINED, (match, acronym: string, offset: number) =>
    longForm(question.slice(0, offset), acronym) ? '' : match,
  );
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
  words.forEach((word, i) => {
    if (i > 0 && /^(?:a|an|the)$/.test(words[i - 1]!) && EFFECT_VERBS.has(words[i + 1] ?? '')) restored.push(word);
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

/** Fewest papers a concept needs in the graph to count as one the graph knows (fewer: specificity's business). */
export const MIN_CONCEPT_PAPERS = 2;
/** How many of the known concepts, the rarest, are the question's key concepts. */
export const KEY_CONCEPTS = 3;

/**
 * The key concepts: those the graph knows (MIN_CONCEPT_PAPERS or more papers), the KEY_CONCEPTS rarest, in question
 * order. Rare phrases name what a question is about; common ones ("therapy") join any two subjects.
 */
export function keyConcepts(concepts: readonly Concept[], paperCount: (concept: Concept) => number): Concept[] {
  return concepts
    .map((concept, index) => ({ concept, index, count: paperCount(concept) }))
    .filter((c) => c.count >= MIN_CONCEPT_PAPERS)
    .sort((a, b) => a.count - b.count || a.index - b.index)
    .slice(0, KEY_CONCEPTS)
    .sort((a, b) => a.index - b.index)
    .map((c) => c.concept);
}

/** What the graph says about a pair of concepts. */
export interface PairEvidence {
  /** Papers mentioning both (title or abstract). */
  together: string[];
  /** Whether a paper on one cites, or is cited by, a paper on the other. */
  cited: boolean;
  /**
   * Found through the question's best passages on one concept (which may word it otherwise), not its name alone: the
   * papers of those passages that a citation reaches.
   */
  bridging?: string[];
}

export interface ConceptConnection {
  concepts: Concept[];
  /** The key concepts (see keyConcepts). */
  known: Concept[];
  /** Pairs of known concepts no paper and no citation connects. */
  unconnected: Array<[string, string]>;
  /** Papers mentioning every known concept (a few), for the answer to quote. */
  connectingPapers: string[];
  /**
   * Papers of the question's evidence through which a pair is connected by citation (see PairEvidence.bridging): the
   * answer's context holds them, since they may word a concept otherwise.
   */
  bridgingPapers: string[];
  /**
   * Concepts no paper of the graph mentions at all (every word, title or abstract): the question is about something
   * the graph does not hold, whatever its passages on the other concepts say.
   */
  absent: string[];
  /** 0–100: share of known pairs that are connected (100 with fewer than two known concepts). */
  score: number;
  reason: string;
}

/**
 * Judges the connection from what the graph holds: the key concepts, `pairs` per "i|j" index pair of them, `all` the
 * papers mentioning every key concept. Pure: the queries are the caller's.
 */
export function judgeConnection(
  concepts: readonly Concept[],
  known: readonly Concept[],
  pairs: ReadonlyMap<string, PairEvidence>,
  all: readonly string[],
): ConceptConnection {
  const unconnected: Array<[string, string]> = [];
  const throughEvidence: string[] = [];
  const bridging = new Set<string>();
  let total = 0;
  for (let i = 0; i < known.length; i += 1) {
    for (let j = i + 1; j < known.length; j += 1) {
      total += 1;
      const pair = pairs.get(`${i}|${j}`);
      if (!pair || (pair.together.length === 0 && !pair.cited)) unconnected.push([known[i]!.phrase, known[j]!.phrase]);
      else if (pair.bridging) {
        throughEvidence.push(`"${known[i]!.phrase}" with "${known[j]!.phrase}"`);
        for (const id of pair.bridging) bridging.add(id);
      }
    }
  }
  const score = total === 0 ? 100 : Math.round((100 * (total - unconnected.length)) / total);
  const named = (list: readonly Concept[]) => list.map((c) => `"${c.phrase}"`).join(', ');
  const reason =
    known.length < 2
      ? `${known.length} of ${concepts.length} key concepts known to the graph${concepts.length ? ` (${named(concepts)})` : ''}`
      : unconnected.length === 0
        ? `the key concepts ${named(known)} are connected (${all.length} papers mention all of them${all.length === 0 ? '; pairs are joined by shared papers or citations' : ''}${throughEvidence.length > 0 ? `; ${throughEvidence.join(', ')} through citations between papers naming one and the question's best passages on the other (which may word it otherwise)` : ''})`
        : `no paper and no citation in the graph connects ${unconnected.map(([a, b]) => `"${a}" with "${b}"`).join('; ')}`;
  return {
    concepts: [...concepts],
    known: [...known],
    unconnected,
    absent: [],
    connectingPapers: [...all],
    bridgingPapers: unconnected.length === 0 ? [...bridging] : [],
    score,
    reason,
  };
}
