import { PORTFOLIO_NAMES, type Portfolio, type PortfolioName } from '../external/portfolios';
import { terms } from '../text';
import { unspecific } from './concept-words';
import { type Concept, questionConcepts } from './concepts';

/**
 * The search portfolios of a question (see src/external/portfolios.ts): its concepts with their other names, their
 * truncated stems, and the question itself.
 */

/** Concepts a primary query requires at most: each one more narrows a provider's answer to nothing. */
const MAX_GROUPS = 3;

/**
 * British and American spellings of medical and general words, as [British, American] patterns over one word. A
 * variant that is no word only adds an alternative that finds nothing.
 */
const SPELLINGS: ReadonlyArray<[RegExp, string, RegExp, string]> = [
  [/^(h|p|an|leuk|isch|orthop|gyn)ae/, '$1e', /^(h|p|an|leuk|isch|orthop|gyn)e(m|d|st|col)/, '$1ae$2'],
  [/^oe(str|soph|dem)/, 'e$1', /^e(stro|stra|soph|dem)/, 'oe$1'],
  [/^foet/, 'fet', /^fet(us|al)/, 'foet$1'],
  [/rrhoea/, 'rrhea', /rrhea/, 'rrhoea'],
  [
    /(behavi|colo|tum|hum|lab|favo|neighb|odo|vig)our(s|al|ed)?$/,
    '$1or$2',
    /(behavi|colo|tum|hum|lab|favo|neighb|odo|vig)or(s|al|ed)?$/,
    '$1our$2',
  ],
  [/(\w{4,})is(ation|ations|ed|ing)$/, '$1iz$2', /(\w{4,})iz(ation|ations|ed|ing|e|es)$/, '$1is$2'],
  [/(cen|li|me|fib)tre(s)?$/, '$1ter$2', /(cen|li|me|fib)ter(s)?$/, '$1tre$2'],
];

/** Words the -ise pattern must leave alone: "revised", "raised", "exercised", "surprised". */
const NOT_ISE = /(?:v|r|c|pr)is(?:ed|ing)$/;

/** The word in American (`to = 'american'`) or British spelling; unchanged when it has no other. */
function spelled(word: string, to: 'american' | 'british'): string {
  for (const [british, american, americanForm, britishForm] of SPELLINGS) {
    if (to === 'american' && british.test(word) && !NOT_ISE.test(word)) return word.replace(british, american);
    if (to === 'british' && americanForm.test(word)) return word.replace(americanForm, britishForm);
  }
  return word;
}

/** A phrase's other spellings: all American, all British (without the phrase itself). */
export function spellingVariants(phrase: string): string[] {
  const words = phrase.split(/\s+/);
  const variants = (['american', 'british'] as const).map((to) => words.map((word) => spelled(word, to)).join(' '));
  return [...new Set(variants)].filter((variant) => variant !== phrase);
}

/**
 * Concepts the question lists as alternatives ("infliximab, etanercept or adalimumab", "obesity, blood pressure and
 * insulin resistance") are one requirement, any of them: a paper on etanercept answers for the list.
 */
function coordinated(question: string, concepts: readonly Concept[]): Concept[][] {
  const lower = question.toLowerCase();
  const placed = concepts
    .map((concept) => {
      const match = new RegExp(String.raw`\b${concept.words.join(String.raw`\W+`)}\b`).exec(lower);
      return { concept, start: match?.index ?? -1, end: match ? match.index + match[0].length : -1 };
    })
    .sort((a, b) => a.start - b.start);
  const groups: Concept[][] = [];
  placed.forEach((place, i) => {
    const previous = placed[i - 1];
    const between = previous && previous.end >= 0 && place.start >= 0 ? lower.slice(previous.end, place.start) : null;
    // Words the concept left out may stand before the conjunction ("blood pressure and insulin resistance"). Two
    // concepts joined by "and" alone are both required ("hair cortisol and obesity" asks about the two together);
    // "or", and "and" closing a list of commas, join alternatives.
    const joint = between?.match(/^([\s\p{L}-]*?)(,|,?\s*\b(?:and|or|and\/or)\b|\/)\s*$/u);
    const alternative =
      joint && terms(joint[1]!).every(unspecific) && (!/^\s*and$/.test(joint[2]!) || groups.at(-1)!.length > 1);
    if (alternative) groups.at(-1)!.push(place.concept);
    else groups.push([place.concept]);
  });
  return groups;
}

const SUFFIXES = ['ations', 'ation', 'ities', 'ity', 'ical', 'ics', 'ic', 'ies', 'ing', 'ed', 'es', 's', 'y'];

/** A word cut to the stem a truncated search matches (`obesity` → `obes`, `spasticity` → `spastic`), ≤ 10 letters. */
export function truncation(word: string): string {
  let stemmed = word;
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 4) {
      stemmed = word.slice(0, -suffix.length);
      break;
    }
  }
  return stemmed.slice(0, 10);
}

/**
 * The portfolios of a question, in the order given (all four by default). `synonyms` adds other names of a concept
 * (by its phrase), such as an LLM's or the corpus's; spellings and the acronyms the question defines are always added.
 */
export function questionPortfolios(
  question: string,
  options: { names?: readonly PortfolioName[]; synonyms?: ReadonlyMap<string, readonly string[]>; text?: string } = {},
): Portfolio[] {
  const concepts = questionConcepts(question);
  const coordination = coordinated(question, concepts).slice(0, MAX_GROUPS);
  const groups = coordination.map((members) => {
    const names = members.flatMap((concept) => [
      concept.phrase,
      ...(concept.alias ?? []),
      ...(options.synonyms?.get(concept.phrase) ?? []),
    ]);
    return [...new Set(names.flatMap((name) => [name, ...spellingVariants(name)]))];
  });
  // Each concept by its specific words truncated, noise words left out; spellings as alternatives.
  const stems = coordination
    .map((members) =>
      members.flatMap((concept) => {
        const words = concept.words.filter((word) => word.length >= 4 && !unspecific(word));
        if (words.length === 0) return [];
        const phrase = words.join(' ');
        return [phrase, ...spellingVariants(phrase)].map((name) => name.split(' ').map(truncation).join(' '));
      }),
    )
    .map((names) => [...new Set(names)])
    .filter((names) => names.length > 0);
  return (options.names ?? PORTFOLIO_NAMES).map((name) => ({
    name,
    groups,
    stems,
    text: options.text ?? question,
  }));
}

/** A work the portfolios found, rescored: its similarity to the question and how many searches agree on it. */
export interface RescoredFind<W> {
  work: W;
  /** Cosine to the question, on MiniLM's reference scale. */
  similarity: number;
  /** Σ over the searches that found it of K / (K + rank): 1 for a first place, less further down, summed. */
  consensus: number;
  score: number;
}

/** Rank damping of the consensus: the lists are short (10 per search), so a small K. */
export const CONSENSUS_K = 10;

/**
 * What a search's agreement adds to the similarity, per unit of consensus. Zero: on bench:portfolios' dev subjects
 * every weight tried (0.02, 0.05, 0.1, consensus alone) kept fewer of the reviews' included papers than similarity
 * alone, so agreement only breaks ties.
 */
export const CONSENSUS_WEIGHT = 0;

/** Each search (portfolio at provider) counts once, at its best rank. */
export function consensusOf(hits: ReadonlyArray<{ portfolio: string; source: string; rank: number }>): number {
  const best = new Map<string, number>();
  for (const hit of hits) {
    const key = `${hit.portfolio}/${hit.source}`;
    best.set(key, Math.min(best.get(key) ?? Infinity, hit.rank));
  }
  return [...best.values()].reduce((sum, rank) => sum + CONSENSUS_K / (CONSENSUS_K + rank), 0);
}

/** Works best first by similarity plus `weight` × consensus (ties by consensus). */
export function rescoreFinds<W extends { hits: ReadonlyArray<{ portfolio: string; source: string; rank: number }> }>(
  works: readonly W[],
  similarities: readonly number[],
  weight = CONSENSUS_WEIGHT,
): Array<RescoredFind<W>> {
  return works
    .map((work, index) => {
      const similarity = similarities[index]!;
      const consensus = consensusOf(work.hits);
      return { work, similarity, consensus, score: similarity + weight * consensus };
    })
    .sort((a, b) => b.score - a.score || b.consensus - a.consensus);
}
