/** Papers and people a question names: DOIs, quoted titles, acronyms of studies, descriptions, names of people. */
import nlp from 'compromise';
import { contentTerms } from '../text';

/** A DOI in the question. */
export const DOI = /\b(10\.\d{4,9}\/[^\s"'<>]+[^\s"'<>.,;?!)])/;
/**
 * A quoted title: "…", “…”, or '…' and ‘…’ opened after a space or the start and closed before a space or punctuation
 * (so that no possessive or elided apostrophe opens one; a title holding an apostrophe needs double quotes).
 */
export const QUOTED = /["“]([^"”]{8,400})["”]|(?<=^|[\s(:])['‘]([^'‘’]{8,400}?)['’](?=[\s?.!,;:)]|$)/;

/** The quoted title in a text, with the quotation as written (to take it out of the text), or null. */
export function quotedTitle(text: string): { quotation: string; title: string } | null {
  const match = QUOTED.exec(text);
  return match ? { quotation: match[0], title: (match[1] ?? match[2])! } : null;
}

/** Capitalised word sequences that look like a person ("Jane Doe", "J. A. Smith", "van der Berg"). */
const NAME =
  /\b((?:[A-Z][a-z'’-]+|[A-Z]\.)(?:\s+(?:[A-Z]\.|(?:van|von|de|der|den|da|di|le|la|du)\b|[A-Z][a-z'’-]+)){1,3})\b/g;
const NOT_NAMES = new Set(
  'Which What Who Whom Whose How When Where Why List Show Give Tell Find Name Is Are Does Did Has Have The A An In On Of For Between Compare Comparing Among Either Both Versus Rank Sort Order Publications Papers Works Citations'.split(
    ' ',
  ),
);

/** A question or framing word, contracted or not ("What's", "Who's"), that no name begins with. */
const notName = (word: string): boolean => NOT_NAMES.has(word.replace(/['’](?:s|re|ll|d|ve)$/, ''));

/** People the question names: compromise's people, then capitalised name-like sequences. */
export function peopleIn(question: string): string[] {
  const found = new Set<string>();
  for (const name of nlp(question).people().out('array') as string[]) {
    // A word that opens the question is no part of the name ("Between Giuseppe Filardo and …").
    const clean = name
      .replace(/[?.!,:;]+$/, '')
      .replace(/['’]s$/, '')
      .trim()
      .split(/\s+/)
      .filter((word, i) => i > 0 || !notName(word))
      .join(' ');
    if (clean.split(/\s+/).length >= 2 || /^[A-Z]/.test(clean)) found.add(clean);
  }
  for (const match of question.matchAll(NAME)) {
    // A possessive is not part of the name ("Clemens Kirschbaum's collaborators").
    const words = match[1]!
      .replace(/['’]s$/, '')
      .split(/\s+/)
      .filter((word) => !notName(word));
    if (words.length >= 2) found.add(words.join(' '));
  }
  // Surname first: "Filardo, Giuseppe", "Kirschbaum C" (initials only after it).
  for (const match of question.matchAll(
    /\b([A-Z][a-z'’-]+),\s+([A-Z][a-z'’-]+(?:\s+[A-Z]\.?)?)(?=[?.!]|$|\s+(?:in|on|and|or)\b)/g,
  )) {
    if (!NOT_NAMES.has(match[1]!)) found.add(`${match[1]}, ${match[2]}`);
  }
  for (const match of question.matchAll(/\b([A-Z][a-z'’-]{2,})\s+([A-Z]{1,2})\b(?![\w-])/g)) {
    if (!NOT_NAMES.has(match[1]!)) found.add(`${match[1]} ${match[2]}`);
  }
  // A longer name wins over its parts ("Jane Doe" over "Doe").
  return [...found].filter((name) => ![...found].some((other) => other !== name && other.includes(name)));
}

/** Capitalised abbreviations that are not names of a study. */
const NOT_ACRONYMS = new Set(
  'FDA EMA WHO NIH NICE USA UK EU RCT RCTS MRI CT PET DNA RNA HIV AIDS COVID ADHD PTSD BPD DBT MBT CBT TNF IBD HRT ORCID DOI'.split(
    ' ',
  ),
);

/**
 * A study named by its acronym ("the NOR-SWITCH trial", "HAVEN 4", "PLANETRA"): capitals, digits and hyphens, with a
 * number after it when there is one; resolved to the paper whose title holds it (src/pipeline/stages/computed/paper-resolution.ts).
 */
export function acronymIn(question: string): string | null {
  for (const match of question.matchAll(/\b([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*[A-Z0-9])(\s+\d{1,2}\b)?/g)) {
    const [, name, number] = match;
    if (name!.replace(/[^A-Z]/g, '').length < 3 || NOT_ACRONYMS.has(name!)) continue;
    return `${name}${number ?? ''}`;
  }
  return null;
}

/** Words that say what kind of work a reference names, not which one. */
const PAPER_KINDS = new Set(
  'trial trials study studies review reviews paper papers article articles report reports analysis meta cohort'.split(
    ' ',
  ),
);

/**
 * A study the question names by its acronym, with the description that follows it when there is one ("the HERS trial
 * of estrogen plus progestin"): the acronym alone when nothing but the kind of work follows ("the NOR-SWITCH trial"),
 * else the whole phrase, which is resolved by its words too (a record need not carry its acronym).
 */
export function studyNamed(question: string): string | null {
  const acronym = acronymIn(question);
  if (!acronym) return null;
  const start = question.indexOf(acronym);
  const after = question.slice(start);
  const phrase =
    /^\S+(?:\s+\d{1,2}\b)?(?:\s+(?:trial|study|cohort|review|paper|report|analysis|programme|program|project))?(?:\s+(?:of|on|for|in|with|comparing|testing|about)\s+[^?,;]+?)?(?=\s+(?:rely|relies|relied|draw|draws|drew|build|builds|built|cite|cites|cited|depend|depends|is|are|was|were|has|have|had|do|does|did|and|or|in the graph)\b|[?,;.]|$)/.exec(
      after,
    )?.[0] ?? acronym;
  return paperReference(phrase);
}

/** A paper the question refers to: its DOI, a quoted title, an acronym, else the description as written. */
function paperReference(text: string): string | null {
  const doi = DOI.exec(text)?.[1];
  if (doi) return doi;
  const quoted = quotedTitle(text);
  if (quoted) return quoted.title;
  const description = text
    .replace(/[?!.,;:]+\s*$/, '')
    .replace(/^\s*(?:the|a|an|that|this)\s+/i, '')
    .trim();
  // An acronym with nothing else but the kind of work ("the EAGLE trial") names the study; with a year or a
  // description beside it ("the CPAP trial of 2016") the whole description does.
  const acronym = acronymIn(text);
  if (acronym) {
    const rest = contentTerms(description.replace(acronym, ' ')).filter((w) => !PAPER_KINDS.has(w));
    if (rest.length === 0) return acronym;
  }
  return contentTerms(description).length > 0 ? description : null;
}

/** Kinds of work a description of one paper ends in ("Linehan's 1991 trial of …", "the 2004 comparison of …"). */
const DESCRIBED_PAPER = new RegExp(
  String.raw`(?:\b(?:the|a|an)\s+|\b[A-Z][\w'’-]*['’]s\s+)(?:(?!(?:the|a|an|this|that|cite[sd]?|citing|build|builds|built|graph|collection|database|papers|most|which|what|in|on|of)\b)[\w'’.-]+\s+){0,6}?(?:trial|study|review|paper|article|report|meta-analysis|analysis|comparison|cohort|survey|guidelines?|recommendations?|experiment|follow-up|evaluation|consensus|statement|investigation|assessment)\b(?:\s+(?:of|on|about|comparing|testing|in|for|with|by|from|that|evaluating|titled)\s+[^?;]+?)?(?=\s+(?:rely|relies|relied|draw|draws|drew|build|builds|built|cite|cites|cited|depend|depends|is|are|was|were|has|have|had|do|does|did|connected|linked|in the (?:graph|collection|database))\b|[?;]|$)`,
  'i',
);

/** A paper the question describes by the kind of work and its subject, for operations on one paper; else null. */
export function describedPaper(question: string): string | null {
  const match = DESCRIBED_PAPER.exec(question.replace(/[?!.]+\s*$/, ''));
  if (!match || /^(?:the|a|an)\s+(?:most|top|best|highest|leading)\b/i.test(match[0])) return null;
  return paperReference(match[0]);
}

/**
 * The two papers a citation-path question names ("from <paper> to <paper>", "between <paper> and <paper>",
 * "<paper> … connected to <paper>"), each as a DOI, quoted title, acronym or description; null unless two.
 */
export function twoPapersIn(question: string): [string, string] | null {
  const text = question.replace(/[?!.]+\s*$/, '');
  const split =
    /\bseparates?\s+(.+?)\s+(?:from|and)\s+(.+?)(?:\s+(?:by|through|via|over|in the graph)\b.*)?$/i.exec(text) ??
    /\bfrom\s+(.+?)\s+to\s+(.+?)(?:\s+(?:by|through|via|over|in the graph)\b.*)?$/i.exec(text) ??
    /\bbetween\s+(.+?)\s+and\s+(.+?)(?:\s+(?:by|through|via|over|in the graph)\b.*)?$/i.exec(text) ??
    /^(?:is|are|was|were|does|do|how is|how are)\s+(.+?)\s+(?:connected|linked|joined|related)\s+(?:(?:by|through|via) (?:a )?(?:chain of )?citations?\s+)?(?:to|with)\s+(.+?)(?:\s+(?:by|through|via|over)\b.*)?$/i.exec(
      text,
    ) ??
    /^(?:is|are|was|were|how (?:is|are))\s+(.+?)\s+and\s+(.+?)\s+(?:connected|linked|joined|related)\b/i.exec(text);
  if (!split) return null;
  const first = paperReference(split[1]!);
  const second = paperReference(split[2]!);
  return first && second && first !== second ? [first, second] : null;
}
