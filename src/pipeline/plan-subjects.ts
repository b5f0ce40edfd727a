/** The subject of a question: its topic phrase with the framing words taken off, two topics, two periods. */
import nlp from 'compromise';
import { contentTerms } from '../text';
import { DOI, QUOTED } from './plan-references';

/** Framing words of bibliometric and trend questions: what is counted and how, never what about. */
export const FRAMING: ReadonlySet<string> = new Set(
  (
    'who whom whose which what how many much number count counts counting list show give tell find name identify ' +
    'papers paper articles article publications publication studies study works work research literature output ' +
    'volume records documents items authors author researchers researcher scientists scientist investigators ' +
    'experts groups group labs lab teams team scholars journals journal venues venue outlets outlet periodicals ' +
    'conferences proceedings publishers institutions institution institutes universities university affiliations ' +
    'centers centres hospitals organisations organizations countries schools most top best highly cited citation ' +
    'citations canonical landmark seminal classic influential key foundational important essential known rank ranked ' +
    'ranking leading prolific productive published publish publishes publishing appear appears appeared often ' +
    'frequently wrote written write writes trend trends trending over time years year yearly annual annually per ' +
    'decade decades since history historical evolution evolved evolve growth grown grow grew growing changed change ' +
    'changes emerging rising fastest new hot topics topic subtopics themes directions areas area field fields graph ' +
    'corpus collection database dataset here there exist exists existing held holds contain contains contained ' +
    'available recorded indexed present overall global worldwide internal inside total altogether between from ' +
    'period timeline trajectory peak peaked increase increased decrease decreased declined decline take took off ' +
    'recent recently last past first earliest latest mainly mostly primarily focus focused working active ' +
    'contributed contribute contributors contributor rise rises rose risen fall falls fell fallen shift shifts ' +
    'shifted attention interest popularity deal deals dealing concerned momentum gaining picking connected linked ' +
    'tied through via authorship coauthorship co collaboration collaborations roughly ballpark approximately big large extensive sizeable ' +
    'sizable size more fewer less larger smaller bigger faster slower higher lower compare compared comparison ' +
    'versus vs than together alongside lotka lotkas bradford bradfords scattered scattering disruptive ' +
    'disruptiveness consolidating country nation nations nationality geography geographic geographically quickly ' +
    'rapidly steeply beauties fwci bursts bursting bursty fronts rediscovered overlooked unnoticed streams strands ' +
    'camps surges come comes came coming originate originates originated across among around wrote only one share ' +
    'proportion fraction percentage occasional stored hold usually typically generally commonly developed cooled ' +
    'cooling waned waning faded fading frequent productivity people persons players figures dominate dominates ' +
    'dominated references reference count size sizes literatures sits sit lives resides reside housed onwards ' +
    'onward afterwards thereafter headcount sum summed received receive receives garnered earned accumulated particular'
  ).split(/\s+/),
);

/**
 * Names of measures that are several words, some of them subjects elsewhere ("object recognition", "spine surgery",
 * "sudden cardiac death"): taken out as a whole before the subject is read, never word by word.
 */
const MEASURE_NAMES =
  /\b(?:(?:(?:in|on|per|by|from|according to|going by|as counted by) )?(?:OpenAlex|Crossref|Semantic Scholar|Google Scholar|Scopus|Web of Science)(?:['’]s)?(?: (?:citation )?(?:counts?|figures|data|numbers|records|tallies))?|(?:(?:their|his|her|its) )?h[- ]?index(?:es)?|in (?:lotka|bradford)['’]?s? sense|(?:follows?|obeys?|fits?|conforms? to|consistent with) (?:lotka|bradford)['’]?s? laws?|(?:lotka|bradford)['’]?s? (?:laws?|core|zones?|distribution)|inverse[- ]square law|cd[- ]index|disruption index|citation (?:paths?|chains?|routes?|trails?)|(?:paths?|chains?|trails?) of citations|core (?:journals|venues|set of journals)|(?:sit|sits|are|lie|lies|fall|falls|belong|belongs) in the core(?: zone)?|(?:reach|reached|reaches|hit|hits) (?:its|their|a) (?:highest point|high point|peak|maximum|height|high)|(?:in )?(?:a|any) (?:particular|specific|single) year|which one|(?:look|looks|looked|looking) like|(?:(?:19|20)\d{2} )?(?:or|and) (?:later|after|afterwards|beyond|earlier|before)\b|(?:size|volume) of the body of (?:work|literature|research|evidence)|body of (?:work|literature|research|evidence)|(?:which|what) (?:parts?|regions?) of the world|where in the world|author(?:ship)? productivity (?:distribution|law|pattern)|(?:one|single)[- ](?:paper|time|off) (?:authors|researchers|contributors)|(?:with |having |on )?(?:only |just )?(?:a single|a lone|exactly one|only one|one) (?:paper|article|publication|study)|(?:concentrated|clustered) in (?:a )?(?:few|small number of|handful of) (?:journals|venues)|(?:grew|grow(?:s|n|ing)?|expand(?:ed|s|ing)?) (?:faster|more(?: quickly| rapidly| steeply)?|quicker)|sleeping[- ]beaut(?:y|ies)|delayed recognition|main (?:citation )?paths?|(?:backbone|main line|main trunk|spine) of (?:the )?(?:citations?|literature|field|research)|knowledge (?:flow|trajectory|diffusion) (?:paths?|routes?)|search path counts?|(?:field[- ])?normali[sz]ed (?:citation )?(?:impact|citations?|citation rates?)|field[- ]weighted(?: citation)? impact|relative citation (?:impact|ratio|rates?)|citation impact|sudden (?:surges?|spikes?|rises?|jumps?|bursts?)|spikes? (?:of|in) (?:attention|interest|activity)|research fronts?|schools? of thought|lines of (?:research|work)|(?:split|divided?|fall|clustered) into (?:\w+ )?(?:groups|clusters|camps|streams|strands)|(?:clusters|communities) (?:of|in|within))\b/gi;

/** A request opening the question ("Plot X per year", "Could you chart X"): what to do, never what about. */
const REQUEST_VERB =
  /^\s*(?:please,?\s+)?(?:(?:can|could|would|will) you\s+(?:please\s+)?)?(?:plot|chart|graph|draw|display|tabulate|visuali[sz]e|sketch|map out|break down|summari[sz]e|outline|describe)\b/i;

/** Words that introduce the subject of a bibliometric question: "on X", "about X", "related to X". */
const SUBJECT_INTRO =
  /\b(?:on|about|regarding|concerning|into|covering|addressing|studying|investigating|examining|for|of|in the (?:field|area|literature|domain) of|related to|(?:deal|deals|dealing) with|in)\s+(.+)$/i;

/** Trailing framing after the subject: years, "over time", "in the graph". */
const TRAILING =
  /\s+(?:(?:were|was|have been|has been|are|is|got|get)\s+)?(?:published\s+)?(?:(?:since|between|from|after|before|during|until|in|by|over|per|each|every|across)\s+(?:the\s+)?(?:\d{4}s?|last|past|years?|time|decades?|period)\b.*|over time.*|(?:in|within|inside|going by|according to|judging (?:by|from)|based on) (?:the|this|your|our) (?:knowledge )?(?:graph|corpus|collection|database|dataset|index).*|(?:in|within) (?:recent|the last|the past).*)$/i;

/** Nouns that close a subject: in "glaucoma research consistent with X" the subject ends at "research". */
const SUBJECT_HEADS = new Set(['research', 'literature', 'studies', 'papers', 'publications', 'articles', 'field']);

/** Strips framing from a candidate phrase and keeps its content words in order. */
function cleanTopic(phrase: string, leadingVerbs = false): string | null {
  let words = contentTerms(phrase.replace(TRAILING, ''));
  const head = words.findIndex(
    (word, i) => SUBJECT_HEADS.has(word) && words.slice(0, i).some((w) => !FRAMING.has(w) && !/^\d{4}s?$/.test(w)),
  );
  if (head > 0) words = words.slice(0, head);
  const kept = words.filter((word) => !FRAMING.has(word) && !/^\d{4}s?$/.test(word));
  // Without a word introducing the subject, a verb before it is the question's, not the subject's ("which nations
  // produce … sleep apnea papers"); after "on", "about" … the subject starts at once ("on object recognition"). A verb
  // both in the question and in the subject's own words: the tagger reads "muscle" in "see more muscle relaxant
  // papers" as a verb, but not in "muscle relaxant".
  if (leadingVerbs) {
    const asked = verbsIn(phrase);
    while (kept.length > 1 && asked.has(kept[0]!) && verbsIn(kept.join(' ')).has(kept[0]!)) kept.shift();
  }
  return kept.length > 0 ? kept.join(' ') : null;
}

/** The words compromise tags as verbs and not nouns in a text ("produce" in "which nations produce …"). */
function verbsIn(text: string): Set<string> {
  return new Set(
    (nlp(text).json() as Array<{ terms: Array<{ normal: string; tags: string[] }> }>).flatMap((sentence) =>
      sentence.terms.filter((t) => t.tags.includes('Verb') && !t.tags.includes('Noun')).map((t) => t.normal),
    ),
  );
}

/**
 * The topic of a bibliometric or trend question: the phrase after "on", "about", "related to" …, without question and
 * counting words, years and trailing framing; otherwise the question's content words without framing.
 */
export function topicPhrase(question: string, exclude: readonly string[] = []): string | null {
  let text = question
    .replace(REQUEST_VERB, ' ')
    .replace(DOI, ' ')
    .replace(QUOTED, ' ')
    .replace(MEASURE_NAMES, ' ')
    .replace(/[?!.]+\s*$/, '');
  for (const name of exclude) text = text.replace(new RegExp(escapeRegExp(name), 'ig'), ' ');
  // The first introducer whose tail still has content words is the subject ("journals publish most on X").
  const candidates: Array<{ intro: string; before: string; tail: string }> = [];
  let rest = text;
  for (let guard = 0; guard < 8; guard += 1) {
    const match = SUBJECT_INTRO.exec(rest);
    if (!match) break;
    const intro = match[0]
      .slice(0, match[0].length - match[1]!.length)
      .trim()
      .toLowerCase();
    candidates.push({ intro, before: rest.slice(0, match.index), tail: match[1]! });
    rest = match[1]!;
  }
  for (const { intro, before, tail } of candidates) {
    const topic = cleanTopic(tail);
    if (!topic) continue;
    // "in" and "for" also join the words of one subject ("object recognition memory in rodents", "muscle relaxant
    // research for spasticity"): the subject words right before them belong to it.
    const lead = intro === 'in' || intro === 'for' ? subjectLead(before) : [];
    return [...lead, topic].join(' ');
  }
  return cleanTopic(text, true);
}

/**
 * The subject words that end a text, read backwards until a framing word or a year ("Where is object recognition
 * memory" → object recognition memory); a closing "research"/"literature" is skipped, a leading verb dropped.
 */
function subjectLead(before: string): string[] {
  const words = contentTerms(before);
  while (words.length > 0 && SUBJECT_HEADS.has(words[words.length - 1]!)) words.pop();
  const lead: string[] = [];
  for (let i = words.length - 1; i >= 0; i -= 1) {
    const word = words[i]!;
    if (FRAMING.has(word) || /^\d{4}s?$/.test(word)) break;
    lead.unshift(word);
  }
  if (lead.length === 0) return lead;
  const verbs = verbsIn(lead.join(' '));
  while (lead.length > 0 && verbs.has(lead[0]!)) lead.shift();
  return lead;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Two windows the question compares ("in 2010-2014 or in 2015-2019", "the 1990s with the 2000s"), else null. */
export function periodsIn(question: string): Array<{ from: number; to: number }> | null {
  const found: Array<{ at: number; from: number; to: number }> = [];
  for (const m of question.matchAll(/\b((?:19|20)\d{2})\s*(?:-|–|to|until)\s*((?:19|20)\d{2})\b/g))
    found.push({ at: m.index, from: Number(m[1]), to: Number(m[2]) });
  for (const m of question.matchAll(/\b((?:19|20)\d)0['’]?s\b/g))
    found.push({ at: m.index, from: Number(m[1]) * 10, to: Number(m[1]) * 10 + 9 });
  if (found.length !== 2) return null;
  const [a, b] = found.sort((x, y) => x.at - y.at);
  return a!.from <= a!.to && b!.from <= b!.to ? [a!, b!].map(({ from, to }) => ({ from, to })) : null;
}

/** A side of a comparison that is a time, not a topic. */
const TIME_WORDS =
  /^(?:(?:it )?(?:was|were|did|used to be) )?(?:before|earlier|later|then|now|today|previously|formerly|in the past|(?:ten|five|\d+) years ago|a decade ago)\b/i;

/** The two topics a question compares ("more papers on X or on Y", "X versus Y"), else null. */
export function twoTopics(question: string): [string, string] | null {
  // "more or less frequent" asks about one topic's course, not two topics.
  if (/\bmore or less\b/i.test(question)) return null;
  // Years are a window, not part of either topic ("which grew faster between 2005 and 2020, X or Y").
  const text = question
    .replace(/[?!.]+\s*$/, '')
    .replace(
      /,?\s*\b(?:between|from|since|after|before|in|during|until|over)\s+(?:the\s+)?(?:19|20)\d{2}s?(?:\s*(?:and|to|-|–|until)\s*(?:19|20)\d{2}s?)?\b,?/gi,
      ' ',
    );
  // "Compare X and Y" names two topics with "and" ("compare the size of the X and Y literatures").
  const split =
    /\s+(?:or|versus|vs\.?|than)\s+/i.exec(text) ?? (/^\s*compare\b/i.test(text) ? /\s+and\s+/i.exec(text) : null);
  if (!split) return null;
  const left = text.slice(0, split.index);
  const right = text
    .slice(split.index + split[0].length)
    .replace(/^(?:(?:that|those|papers|articles|studies|research|work) )*(?:on|about|in|for|of)\s+/i, '');
  // "now than before", "then or later": two times of one topic, not two topics.
  if (TIME_WORDS.test(right.trim())) return null;
  const first = topicPhrase(left.replace(/:/g, ' '));
  const second = cleanTopic(right);
  return first && second && first !== second ? [first, second] : null;
}
