import nlp from 'compromise';
import { HOW_MUCH_WRITTEN } from './plan-cues';
import { QUOTED } from './plan-references';

/** The kinds of question citegraph answers differently. */
export type Route = 'content' | 'bibliometric' | 'trend' | 'current_world';
export const ROUTES: readonly Route[] = ['content', 'bibliometric', 'trend', 'current_world'];

export interface RouteDecision {
  route: Route;
  /** Which cues decided, for the trace. */
  reasons: string[];
  /** People named in the question (compromise). */
  people: string[];
  /** Year range named in the question, if any. */
  years: YearWords;
  /** The embedding classifier's guess, when it was consulted. */
  classifier?: { route: Route; confidence: number; probabilities: Record<Route, number> };
}

const CURRENT =
  /\b(latest|news|(?<!\bto )markets?(?!\s+(?:authori[sz]ations?|approvals?|entry|exclusivity))|regulations?|regulatory|regulators?|this (?:year|month|week|spring|summer|autumn|fall|winter)|today|todays|today's|right now|nowadays|currently|current|recent(?:ly)?|lately|newest|breaking|prices?|announced|recalls?|upcoming|guidance|guidelines|polic(?:y|ies)|insurance|nobel|startups?|compan(?:y|ies)|funding|raising money|investors?|shortages?|supply problems?)\b/i;
/**
 * Cues of the present that no stored literature answers: this week's news, today, prizes and awards, announcements.
 * The classifier does not overrule them (src/pipeline/stages/route.ts).
 */
export const NOW =
  /\b(?:this (?:week|month|morning)|today|todays|today's|yesterday|right now|breaking|(?:latest|recent) news|news (?:of|on|about|this)|(?:won|wins|win|awarded|received|got) (?:the |a |an |this year's |last year's )?(?:(?:most )?(?:recent|latest|last) )?(?:[\w-]+ ){0,3}(?:awards?|prizes?)|(?:most )?(?:recent|latest|newest) (?:awards?|prizes?)|awards? (?:winners?|ceremon(?:y|ies))|just (?:announced|approved|released|published))\b/i;

/**
 * Names of search engines, indexes and journals, masked before the cues are read: "Google Scholar" is not a
 * bibliometric cue, nor "Journal of Pain" a question about journals.
 */
const NAMED_SOURCES =
  /\b(?:Google Scholar|Semantic Scholar|Web of Science|Scopus|PubMed(?: Central)?|MEDLINE|Embase|OpenAlex|Crossref|Cochrane Library|ResearchGate|arXiv|bioRxiv|medRxiv|(?:The )?(?:American |British |European |International )?Journal of(?: the)?(?: [A-Z][\w&-]*)+|(?:[A-Z][\w&-]* )+Journal\b|Annals of(?: [A-Z][\w&-]*)+|Archives of(?: [A-Z][\w&-]*)+)(?:[- ](?:indexed|listed|based))?/g;

/**
 * The question as its cues are read: quoted titles are "the paper" (a title's words are the paper's, never cues: "cite
 * 'Trends in emicizumab use'" asks for no trend) and the names of sources masked (see maskSourceNames).
 */
export function routingText(question: string): string {
  return maskSourceNames(question.replace(QUOTED_TITLES, 'the paper'));
}

const QUOTED_TITLES = new RegExp(QUOTED.source, 'g');

/** The question with the names of sources masked (see NAMED_SOURCES); the same text when it names none. */
export function maskSourceNames(question: string): string {
  return question.replace(NAMED_SOURCES, 'the source');
}

/** Words for a body of literature: what trend questions count. */
const LITERATURE = String.raw`(?:research|publications?|papers?|studies|literature|interest|output|volume|topics?|areas?|fields?|work|popularity|number of (?:papers|studies|publications))`;
const CHANGE = String.raw`(?:increas\w*|decreas\w*|declin\w*|grow\w*|grew|growth|chang\w*|evolv\w*|develop\w*|rise|risen|rising|rose|fall|falls|fallen|fell|dropped|dropping|shr[iu]nk\w*|peak\w*)`;
/**
 * The year a literature was largest ("which year had the most emicizumab publications?"), not a paper's year: a course
 * over the years, however much its "most" sounds like a ranking.
 */
export const PEAK_YEAR =
  /\b(?:which|what) year\b[^.?!]{0,60}\b(?:most|fewest|highest|lowest|largest|peak\w*|record)\b(?=[^.?!]{0,60}\b(?:papers|articles|publications|studies|research|output|literature)\b)/i;
const TREND = new RegExp(
  [
    String.raw`\b(?:over time|trends?|per (?:year|decade)|by (?:year|decade)|year by year|every year|each year|which years|what years|yearly|annual(?:ly)?|evolution|history|historical|take off|took off|emerging|fastest[- ]growing|over the (?:last|past) (?:decade|\d+ years))\b`,
    // "by publication count" is a ranking's basis, not a course over time.
    String.raw`(?<!\bby )\b(?:publication|paper|study|article) (?:counts?|numbers?|output)\b|\bnumber of [a-z-]+ (?:studies|papers|publications|articles)\b`,
    String.raw`\bsince (?:the )?\d{4}s?\b|\bbetween \d{4} and \d{4}\b|\bfrom \d{4} to \d{4}\b`,
    PEAK_YEAR.source,
    // "Did X publishing reach its highest point in a particular year?"
    String.raw`\b(?:reach|reached|reaches|hit|hits) (?:its|their|a) (?:highest point|high point|peak|maximum)\b`,
    // Two decades set against each other ("the 1990s or the 2000s").
    String.raw`\b(?:19|20)\d0['’]?s\b[^.?!]{0,20}\b(?:or|than|and|to|versus|vs\.?|with)\b[^.?!]{0,20}\b(?:19|20)\d0['’]?s\b`,
    // A change word tied to the literature ("research … declined", "growth of … publications"), not to a finding.
    // A finding reported by the literature ("studies show that blood pressure falls") is content, not its course.
    String.raw`\b${LITERATURE}\b(?:(?!\b(?:show|shows|showed|shown|find|finds|found|suggest|suggests|suggested|report|reports|reported|indicate|indicates|indicated|demonstrate|demonstrates|demonstrated|confirm|confirms|confirmed|prove|proves|proved|that|whether|if)\b)[^.?!]){0,40}\b${CHANGE}\b`,
    String.raw`\b${CHANGE}\b (?:of|in) [^.?!]{0,40}\b${LITERATURE}\b`,
  ].join('|'),
  'i',
);
/** Quantities a study measures and papers report the course of: their change over years is content. */
const MEASURED =
  /\b(?:incidence|prevalence|mortality|morbidity|death rates?|deaths|survival|life expectancy|case numbers|admissions|hospitali[sz]ations|prescri(?:ptions|bing)|consumption|sales|spending|uptake|(?:obesity|smoking|vaccination|infection|birth|suicide|crime|poverty|unemployment) rates?)\b/i;
const LITERATURE_NAMED = new RegExp(String.raw`\b${LITERATURE}\b`, 'i');

/**
 * Up to three words between "how many" and what is counted ("how many Hemlibra (emicizumab) papers"), none of them a
 * thing a study counts ("how many patients in the trials" asks about content).
 */
export const BEFORE_WORKS = String.raw`(?:(?!(?:patients|people|participants|subjects|women|men|children|adults|cases|deaths|times|days|weeks|months|years|hours|doses|cells|animals|rats|mice)\b)[\w()'’-]+ ){0,3}?`;
/** "How much literature", "how much published research" … : a question about the size of a literature. */
export const HOW_MUCH_LITERATURE = String.raw`how much (?:(?:[\w-]+ ){0,2}?(?:literature|publications|papers)|${HOW_MUCH_WRITTEN})`;
/** "The size of the (object recognition memory) literature": a question about the size of a literature. */
export const SIZE_OF_LITERATURE = String.raw`size of the (?:[\w-]+ ){0,5}?(?:literature|field|body of (?:work|literature|research|evidence))`;
/** "Papers on X published since 2018: how many?": what is counted first, the question last. */
export const WORKS_THEN_HOW_MANY = String.raw`^(?:papers|articles|studies|publications|works|records)\b[^?]{0,160}\bhow many`;
const BIBLIOMETRIC = new RegExp(
  String.raw`\b(${WORKS_THEN_HOW_MANY}\b|who|whom|how many ${BEFORE_WORKS}(?:papers|articles|authors|citations|studies|pieces|items|works|publications|records|documents|reports|trials)|${HOW_MUCH_LITERATURE}|how (?:big|large|extensive|sizeable|sizable) (?:is|are) (?:the )?(?:[\w-]+ ){0,3}?(?:literature|body of|field)|${SIZE_OF_LITERATURE}|(?:volume|amount|quantity) of (?:the )?(?:literature|research|work|papers|publications|studies)|number of publications by|(?:more|less|fewer) (?:has been |is |was |gets |got )?(?:written|published|studied|researched|investigated)\b|(?:larger|bigger|smaller|greater) (?:literature|body of)|(?:literature|body of (?:work|research|literature)) (?:on|about) [^.?!]{1,80}?\b(?:larger|bigger|smaller|greater|more extensive) than|head ?count|most[- ]cited|top cited|cited|cite|citations?|referenc(?:e|es|ed|ing) the paper|the paper referenc\w*|(?:references|sources|bibliography) of the paper|h[- ]?index|prolific|co-?authors?|co-?authored|collaborat\w*|journals?|venues?|institutions?|count|authors?|researchers|research groups?|labs?|co-citation|bibliometric)\b`,
  'i',
);

/** Years a question names: a window whose open ends are null, or the last `last` years the data covers. */
export interface YearWords {
  from: number | null;
  to: number | null;
  /** "In recent years", "lately": RECENT_YEARS, counted back from the last year the counted papers cover. */
  last?: number;
}

/**
 * How many years "recent years", "lately" and "the last few years" mean: no calendar window, so they are counted back
 * from the last year the counted papers cover (a collection gathered in 2021 has its recent years in 2019–2021).
 */
export const RECENT_YEARS = 3;

/**
 * Years the question names, from its words: "between 2000 and 2020", "from 1990 to 2010", "2010-2014", "in the
 * 1990s", "before 2000", "until 2005", "since 2015", "2005 onward", "after 2002", "in the last decade" (from ten years before the
 * current year), "over the past 5 years", "in recent years". A window the words leave open ("since 2015", "the last
 * decade") has `to: null`, and a vague one ("in recent years") has `last`: both end at the last year the counted
 * papers cover, which only the data knows — never at the current year, which a collection gathered earlier does not
 * reach.
 */
export function yearRange(question: string, currentYear = new Date().getFullYear()): YearWords {
  const year = String.raw`((?:1[89]|20)\d{2})`;
  let match = new RegExp(String.raw`\b(?:between|from)\s+${year}\s+(?:and|to|until|through|-|–)\s+${year}\b`, 'i').exec(
    question,
  );
  if (match) return { from: Number(match[1]), to: Number(match[2]) };
  match = new RegExp(String.raw`\b${year}\s*[-–]\s*${year}\b`).exec(question);
  if (match) return { from: Number(match[1]), to: Number(match[2]) };
  match = new RegExp(String.raw`\b(?:in|during|of|over)\s+the\s+${year.slice(0, -1)})[’']?s\b`, 'i').exec(question);
  if (match) return { from: Number(match[1]), to: Number(match[1]) + 9 };
  match = new RegExp(String.raw`\b(?:since|from)\s+(?:the\s+)?${year}s?\b`, 'i').exec(question);
  if (match) return { from: Number(match[1]), to: null };
  // A bare "on" only at the end of a clause: "papers in 2015 on glaucoma" is one year's, not a window.
  match = new RegExp(
    String.raw`\b${year}\s+(?:onwards?|on(?=\s*(?:[,.;:!?)]|$))|and (?:later|after|beyond)|or later)\b`,
    'i',
  ).exec(question);
  if (match) return { from: Number(match[1]), to: null };
  match = new RegExp(String.raw`\bafter\s+${year}\b`, 'i').exec(question);
  if (match) return { from: Number(match[1]) + 1, to: null };
  match = new RegExp(String.raw`\bbefore\s+${year}\b`, 'i').exec(question);
  if (match) return { from: null, to: Number(match[1]) - 1 };
  match = new RegExp(String.raw`\b(?:until|up to|through|by)\s+${year}\b`, 'i').exec(question);
  if (match) return { from: null, to: Number(match[1]) };
  match =
    /\b(?:over|in|during|within|for) the (?:last|past|previous) (\d+|two|three|four|five|ten|twenty) years\b/i.exec(
      question,
    );
  if (match) return { from: currentYear - (NUMBER_WORDS[match[1]!.toLowerCase()] ?? Number(match[1])), to: null };
  if (/\b(?:last|past|previous) decade\b/i.test(question)) return { from: currentYear - 10, to: null };
  if (/\b(?:(?:in|over|during) recent years|(?:last|past) few years|lately|recently|of late)\b/i.test(question))
    return { from: null, to: null, last: RECENT_YEARS };
  return { from: null, to: null };
}

const NUMBER_WORDS: Record<string, number> = { two: 2, three: 3, four: 4, five: 5, ten: 10, twenty: 20 };

/**
 * Offline router: time-sensitive cues (news, market, regulation, "this year") mean the current world; change over
 * time means a trend; people, counts and citations mean bibliometrics; everything else asks about content.
 */
export function routeQuestion(asked: string): RouteDecision {
  const reasons: string[] = [];
  const question = routingText(asked);
  const people = (nlp(question).people().out('array') as string[])
    .map((name) => name.replace(/[?.!,]+$/, '').trim())
    .filter(Boolean);
  const years = yearRange(question);
  // A year at most one year back ("approved in 2026") is about the current world too.
  const thisYear = new Date().getFullYear();
  const recentYear = [...question.matchAll(/\b(19|20)\d{2}\b/g)]
    .map((m) => Number(m[0]))
    .find((year) => year >= thisYear - 1);
  const current =
    NOW.exec(question) ??
    CURRENT.exec(question) ??
    (recentYear !== undefined && !/\b(?:between|from|since)\b/i.test(question) ? [`${recentYear}`] : null);
  // A change of a measured quantity ("incidence of sepsis has fallen from 2009 to 2014") is a finding to look up, not
  // the course of a literature, unless the literature is named too.
  const measured = MEASURED.exec(question);
  const changeCue = TREND.exec(question);
  const trend = measured && !LITERATURE_NAMED.test(question) ? null : changeCue;
  if (changeCue && !trend) reasons.push(`a change of "${measured![0]}", not of a literature`);
  const biblio = BIBLIOMETRIC.exec(question);
  let route: Route = 'content';
  if (current) {
    route = 'current_world';
    reasons.push(`time-sensitive cue "${current[0]}"`);
  } else if (trend) {
    route = 'trend';
    reasons.push(`change-over-time cue "${trend[0]}"`);
  } else if (biblio) {
    route = 'bibliometric';
    reasons.push(`bibliometric cue "${biblio[0]}"`);
  } else if (people.length > 0) {
    route = 'bibliometric';
    reasons.push(`names a person (${people.join(', ')})`);
  } else {
    reasons.push('no bibliometric, trend or current-world cue');
  }
  return { route, reasons, people, years };
}
