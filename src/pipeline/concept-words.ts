/**
 * The words a concept is made of, or not: generic nouns, degrees and units, compound modifiers, naming heads, verbs of
 * effect, and the acronyms a question defines.
 */
import { STOPWORDS, terms } from '../text';
import { FRAMING } from './plan-subjects';

/** Nouns that name no subject of their own: populations, measures, study words. */
export const GENERIC = new Set(
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
    'vulnerability susceptibility tendency likelihood probability propensity chance chances odds strength strong weak ' +
    // stages of a process: "a key step in carcinogenesis" is about carcinogenesis
    'step steps stage stages phase phases ' +
    // degrees: which has more or fewer of something is the question, not its subject ("the fewest reoperations")
    'fewest fewer least most more less best worst better worse greatest lowest highest largest smallest ' +
    // units of time and surroundings: "40mg/day", "a Th2 cell environment"
    'day days week weeks month months hour hours minute minutes environment environments setting settings context'
  ).split(/\s+/),
);

/**
 * The candidate concepts of a question: its noun phrases (compromise) cut at stopwords, generic words and numbers into
 * runs of specific words ("hormone replacement therapy", "factor viii", "emicizumab"), each matched in the graph as an
 * exact phrase. Which of them are key is decided against the graph (see judgeConnection): the rarest known ones.
 */
export const COMPOUND_SUFFIXES =
  'based related induced associated dependent mediated specific derived focused oriented driven guided assisted targeted positive negative resistant sparing naive free'.split(
    ' ',
  );
export const MODIFIER_COMPOUND = new RegExp(String.raw`\b(\p{L}{3,})-(?:${COMPOUND_SUFFIXES.join('|')})\b`, 'giu');

/**
 * Nouns that are generic alone but name a subject after specific words: "schema therapy" and "behavior therapy" are
 * subjects, "therapy" is not.
 */
export const NAMING_HEADS = new Set(['therapy', 'therapies', 'treatment', 'treatments', 'psychotherapy']);

/**
 * Verbs of effect ("does X improve Y"), which the tagger may read as nouns after a word it does not know ("a biosimilar
 * improve …"): a boundary between concepts, never part of one. Base and -s forms only: participles name subjects
 * ("impaired glucose tolerance", "induced pluripotent stem cells").
 */
export const EFFECT_VERBS = new Set(
  (
    'improve improves reduce reduces raise raises prevent prevents cure cures affect affects predict predicts impair ' +
    'impairs enhance enhances worsen worsens alter alters modify modifies trigger triggers induce induces inhibit ' +
    'inhibits promote promotes suppress suppresses protect protects boost boosts restore restores cause kill kills impede impedes ' +
    'interfere interferes contribute contributes increase increases lower lowers decrease decreases delay delays'
  ).split(' '),
);

/** Words that open a yes-or-no question before its subject ("does", "can", "is"). */
export const QUESTION_AUXILIARIES: ReadonlySet<string> = new Set(
  'does do did can could will would may might should is are was were has have had'.split(' '),
);

/** Whether a word is a stopword, generic, framing or a verb of effect: no part of a concept's specific words. */
export function unspecific(word: string): boolean {
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
export function definedAcronyms(question: string): Array<{ acronym: string; long: string[] }> {
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
