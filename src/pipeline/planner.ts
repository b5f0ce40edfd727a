import nlp from 'compromise';
import { z } from 'zod';
import { contentTerms } from '../text';
import { yearRange, type YearWords } from './router';

/** What a bibliometric or trend question asks to be computed. */
export const PLAN_OPERATIONS = [
  'count_papers',
  'top_papers',
  'top_authors',
  'top_venues',
  'top_institutions',
  'coauthors',
  'author_metrics',
  'related_papers',
  'topic_trend',
  'emerging_topics',
  'collaboration_network',
  'derivative_works',
  'prior_works',
  'compare_topics',
  'compare_people',
  'compare_periods',
  'compare_topics_trend',
  'top_countries',
  'lotka',
  'bradford',
  'disruptive_papers',
  'citation_path',
  'sleeping_beauties',
  'main_path',
  'research_fronts',
  'topic_bursts',
  'normalised_impact',
] as const;
export type PlanOperation = (typeof PLAN_OPERATIONS)[number];

/** How a paper's neighbours are found for `related_papers`. */
export type PaperRelation = 'cocited' | 'coupled' | 'related';

/** Operations about a person (they need `person`). */
export const PERSON_OPERATIONS: ReadonlySet<PlanOperation> = new Set(['coauthors', 'author_metrics', 'compare_people']);
/** Operations about one paper (they need `paper`). */
export const PAPER_OPERATIONS: ReadonlySet<PlanOperation> = new Set([
  'related_papers',
  'derivative_works',
  'prior_works',
  'citation_path',
]);
/** Every other operation is about a topic (the whole graph when none is named). */
export const TOPIC_OPERATIONS: ReadonlySet<PlanOperation> = new Set(
  PLAN_OPERATIONS.filter((op) => !PERSON_OPERATIONS.has(op) && !PAPER_OPERATIONS.has(op)),
);

/**
 * A typed plan: the operation, its subject (a topic phrase without question words, a person, a paper by title or DOI)
 * and filters. The rules make one offline; an LLM may make one, checked against the same schema.
 */
export const planSchema = z
  .object({
    operation: z.enum(PLAN_OPERATIONS),
    topic: z.string().trim().min(1).max(200).nullable(),
    person: z.string().trim().min(1).max(120).nullable(),
    paper: z.string().trim().min(1).max(400).nullable(),
    relation: z.enum(['cocited', 'coupled', 'related']).nullable(),
    yearFrom: z.number().int().min(1000).max(2200).nullable(),
    yearTo: z.number().int().min(1000).max(2200).nullable(),
    /**
     * A window counted back from the last year the counted papers cover ("in recent years", "lately": 3); yearFrom and
     * yearTo are set from it when the plan runs.
     */
    lastYears: z.number().int().min(1).max(100).nullable().default(null),
    venue: z.string().trim().min(1).max(200).nullable(),
    /** An institution the question restricts to, as named ("at Harvard University"). */
    institution: z.string().trim().min(1).max(200).nullable().default(null),
    /** A country the question restricts to (ISO 3166 alpha-2: papers with an author affiliated there). */
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .nullable()
      .default(null),
    citationBasis: z.enum(['internal', 'global']),
    /** How a ranking of authors is ordered: by their papers on the topic, or by the citations of those papers. */
    rankBy: z.enum(['papers', 'citations']).default('papers'),
    /**
     * A first step that finds the subject on the topic: its most prolific author, its most cited author, or its most
     * cited paper; the operation then runs on that person or paper.
     */
    firstStep: z.enum(['most_prolific_author', 'most_cited_author', 'most_cited_paper']).nullable().default(null),
    /** The other topic or person of a comparison (compare_topics, compare_people). */
    second: z.string().trim().min(1).max(200).nullable().default(null),
    /** The two windows of compare_periods. */
    periods: z
      .array(
        z.object({ from: z.number().int().min(1000).max(2200), to: z.number().int().min(1000).max(2200) }).strict(),
      )
      .length(2)
      .nullable()
      .default(null),
  })
  .strict();
export type PlanFields = z.infer<typeof planSchema>;

export interface AnalyticsPlan extends PlanFields {
  /** Who made the plan. */
  readonly source: 'rules' | 'llm';
  /** Which cue chose the operation, for the trace. */
  readonly reason: string;
}

/** Operation cues, first match wins; each needs its subject (checked by the planner). */
const OPERATION_CUES: ReadonlyArray<{ operation: PlanOperation; cue: RegExp }> = [
  {
    operation: 'main_path',
    cue: /\b(?:main (?:citation )?paths?|(?:backbone|main line|main trunk|main thread|main route|spine) of (?:the )?(?:citations?|literature|field|research|knowledge)|knowledge (?:flow|trajectory|diffusion) (?:path|route)s?|(?:main|key) citation (?:routes?|chains?|trajector(?:y|ies))|search path counts?)\b/i,
  },
  {
    operation: 'sleeping_beauties',
    cue: /\b(?:sleeping[- ]beaut(?:y|ies)|delayed recognition|(?:overlooked|ignored|unnoticed|neglected) (?:for (?:years|decades|a long time)|at first)|(?:woke|awoke|awakened|awakening|rediscovered)\b)/i,
  },
  {
    operation: 'normalised_impact',
    cue: /\b(?:(?:field[- ])?normali[sz]ed (?:impact|citations?|citation impact|citation rates?)|fwci|field[- ]weighted|relative citation (?:impact|ratio|rates?)|citations? relative to (?:the |their )?fields?|above (?:the |their )?field(?:'s)? (?:average|mean))\b/i,
  },
  {
    operation: 'topic_bursts',
    cue: /\b(?:burst(?:s|ing|y)?|sudden (?:surges?|spikes?|rises?|jumps?|bursts?)|spikes? (?:of|in) (?:attention|interest|activity|publications?))\b/i,
  },
  {
    operation: 'research_fronts',
    cue: /\b(?:research fronts?|schools? of thought|(?:clusters?|communities|camps?) (?:of|in|within) (?:the )?(?:research|literature|field|papers|studies)|(?:main|major|distinct|separate) (?:research )?(?:streams|strands|clusters|schools of thought|lines of (?:research|work))|(?:research|literature) (?:streams|strands|clusters)|(?:split|divide[sd]?|fall|cluster(?:ed)?) into (?:\w+ )?(?:groups|clusters|camps|streams|strands))\b/i,
  },
  {
    operation: 'citation_path',
    cue: /\b(?:citation (?:path|chain|route|trail)s?|(?:path|chain|trail)s? of citations|(?:connected|linked|joined|reach\w*) (?:to|with|from)? ?.{0,160}?\b(?:by|through|via|over) (?:a )?(?:chain of )?citations?|(?:lead|leads|led) by citations|citation (?:steps|links|hops)|(?:steps|links|hops) (?:separate|apart|lie between|between)|(?:connected|linked|joined) (?:by|through|via) (?:a )?(?:chain of )?citations? (?:to|with)\b)\b/i,
  },
  {
    operation: 'lotka',
    cue: /\b(?:lotka\w*|inverse[- ]square law|author(?:ship)? productivity (?:distribution|law|pattern)|(?:share|proportion|fraction|percentage|per ?cent|how many) of (?:the |all )?(?:[\w-]+ ){0,4}?(?:authors|researchers|contributors|scientists)\b.{0,100}?\b(?:only|just|exactly|a single|one) (?:one |single )?(?:paper|article|publication|study)|(?:one|single)[- ](?:paper|time|off) (?:authors|researchers|contributors)|occasional (?:authors|contributors)|(?:authors|researchers|contributors|scientists)\b.{0,40}?\b(?:publish(?:es|ed)?|wr(?:ite|ote|itten)|appear(?:s|ed)?) (?:only |just )?once)\b/i,
  },
  {
    operation: 'bradford',
    cue: /\b(?:bradford\w*|core (?:journals|venues|set of journals)|(?:scatter(?:ed|ing)?|spread|dispersed?|dispersion) (?:across|over|among|of) (?:the )?(?:journals|venues)|(?:concentrated|clustered) in (?:a )?(?:few|small number of|handful of) (?:journals|venues))\b/i,
  },
  {
    operation: 'disruptive_papers',
    // "Disruptive" as a measure of papers, not "disruptive behaviour" or "memory consolidation".
    cue: /\b(?:(?:most|least|more|less|truly|highly|really|how) disruptive|disruptive (?:papers|works|studies|articles|contributions|research|science|publications|findings)|disruptiveness|cd[- ]index|disruption (?:index|scores?|metric)|consolidating (?:papers|works|studies|articles)|(?:papers|works|studies|articles) (?:that |which )?(?:were |are )?(?:disruptive|consolidating)|(?:broke|break|breaking) with (?:the )?(?:past|prior work|earlier work)|(?:made|make) (?:earlier|prior) work obsolete)\b/i,
  },
  {
    operation: 'prior_works',
    cue: /\b(?:earlier|prior|previous|preceding) (?:work|works|studies|research|papers|literature)|(?:rel(?:y|ies|ied) on|draws? on|builds? upon)\b(?=.{0,12}\?|\s*$)|\b(?:references|reference list|bibliography) of\b|\bdoes (?:the )?.{2,200}? (?:cite|reference)\b(?! together| alongside| jointly)/i,
  },
  {
    operation: 'derivative_works',
    cue: /\b(?:build(?:s|ing)? on|builds? upon|follow(?:ed)?[- ]up(?!\s+of\b)|later work|derivative|(?:papers|studies|works|articles) (?:(?:in|of) (?:the|this) (?:graph|collection|database|corpus) |here )?(?:that |which )?cit(?:e|ed|ing)\b(?! together| alongside| with)|(?<!co-?|(?:most|highly|top|best|least|frequently|often) )cit(?:e|es|ed|ing) (?!(?:the )?(?:most|least)\b)(?:the |this |that )?(?!together|alongside|with\b)\S|cited by (?:how many|which|what)|(?:citing|citations? of|citations? to) (?:the |this |that )?\S)/i,
  },
  {
    operation: 'compare_people',
    cue: /\b(?:compare|comparison|versus|vs\.?|who has (?:more|fewer|the (?:higher|larger|bigger))|(?:more|fewer|higher|larger|bigger) .{0,40}\b(?:or|than)\b|or\b.{1,60}\b(?:more|fewer|higher|larger|bigger)\b)/i,
  },
  {
    operation: 'compare_periods',
    cue: /\b(?:compare|comparison|versus|vs\.?|(?:more|fewer|faster|slower|larger|bigger)\b.{0,80}\b(?:or|than)\b|or\b.{1,80}\b(?:more|fewer|faster|slower|larger|bigger)|with the)\b/i,
  },
  {
    operation: 'compare_topics_trend',
    cue: /\b(?:(?:grew|grow(?:s|n|ing)?|expand(?:ed|s|ing)?|ris(?:en|ing)|rose|increas(?:ed|ing)|took off) (?:faster|more(?: quickly| rapidly| steeply)?|quicker|the most|most)|faster[- ]growing|(?:compare|comparison of|contrast) (?:the )?(?:growth|trends?|trajector(?:y|ies)|rise|expansion|evolution)|(?:growth|trends?|trajector(?:y|ies)) of .{1,80}\b(?:and|versus|vs\.?|compared)\b)/i,
  },
  {
    operation: 'compare_topics',
    cue: /\b(?:compare|comparison|versus|vs\.?|(?:more|fewer|larger|bigger|smaller)\b.{0,80}\bor\b|(?:more|fewer) .{0,60}\bthan\b|or\b.{1,80}\b(?:more|fewer|larger|bigger|smaller)\b)/i,
  },
  {
    operation: 'author_metrics',
    cue: /\b(?:h[- ]?index|i10|citation (?:metrics|profile|record|impact)|publication (?:record|profile)|profile of|how (?:productive|prolific|influential|often cited)|how many (?:papers|articles|publications|works|citations) (?:has|have|did|does)\b|how (?:much|many times|often|frequently) (?:has|have|is|was|were|are) .{1,60}\b(?:cited|published))/i,
  },
  {
    operation: 'coauthors',
    cue: /\b(?:co-?authors?|co-?authored|collaborat\w*|with whom|worked (?:with|alongside)|work(?:s|ed)? together|written (?:papers )?with|wrote (?:papers |most )?(?:together )?with|(?:write|writes|writing|publish|publishes|publishing) (?:\w+ ){0,2}?with|partners?|joint papers)\b/i,
  },
  {
    operation: 'collaboration_network',
    cue: /\b(?:(?:collaboration|co-?authorship|collaborative) (?:network|graph|clusters?|structure|communities|ties|links|connections)|who (?:collaborates|works|publishes) with whom|(?:connected|linked|tied) (?:to each other |to one another )?(?:through|by|via) (?:co-?authorship|collaboration|joint papers))\b/i,
  },
  {
    operation: 'related_papers',
    cue: /\b(?:co-?cit\w*|cit(?:e|es|ed|ing) (?:\w+ ){0,2}?(?:together|alongside|jointly|along with|next to|in tandem)|bibliographic(?:ally)? coupl\w*|coupl\w*|share (?:many |the most |most )?references|reference (?:overlap|lists?)|overlapping references|similar references|(?:papers|work|studies) (?:related|similar) to|related (?:papers|work|studies) (?:of|to|for))\b/i,
  },
  {
    operation: 'emerging_topics',
    cue: /\b(?:emerging|fastest[- ]growing|(?:new|rising|hot|up-and-coming|growing) (?:[\w-]+ )?(?:topics|subtopics|themes|directions|areas|concepts|sub-?fields)|(?:topics|subtopics|themes|concepts|directions|areas) (?:[\w-]+ ){0,4}(?:gaining|that gained|on the rise|are rising|have grown|picking up))\b/i,
  },
  {
    operation: 'topic_trend',
    // Change over time; a year range alone is a filter ("how many papers since 2010" is a count).
    cue: /\b(?:over time|over the years|per (?:year|decade)|by (?:year|decade)|year[- ]by[- ]year|each year|every year|yearly|annual(?:ly)?|trends?|trajectory|timeline|history|historical|evolv\w*|evolution|grown|growth|grew|growing|take off|took off|peak(?:ed)?|declin\w*|rise and fall|chang(?:e|ed|es|ing)|increas\w*|decreas\w*|ris(?:e|en|ing)|rose|fell|(?:which|what) years?|when did|year of|over the (?:last|past) (?:decade|\d+ years))\b/i,
  },
  {
    operation: 'count_papers',
    cue: /\b(?:(?<!\bby )how many|(?<!\bby (?:the )?)number of|(?<!citations? |\bby (?:the )?(?:publication |paper |article |citation )?)count(?:s| of)?|how much (?:research|literature|work)|volume of|size of the (?:literature|field|evidence|body of (?:work|literature|research|evidence))|how (?:big|large|extensive|sizeable|sizable) (?:is|are) (?:the )?(?:[\w-]+ ){0,3}?(?:literature|body of|field|research|evidence))\b/i,
  },
  {
    operation: 'top_venues',
    cue: /\b(?:journals?|venues?|outlets?|periodicals?|conferences?|proceedings|publishers?|where (?:is|are|was|were|do|does|did|have|has|would|should) .{0,60}\bpublish(?:ed|es|ing)?\b|published where)\b/i,
  },
  {
    operation: 'top_countries',
    cue: /\b(?:countr(?:y|ies)|nations?|nationalit(?:y|ies)|(?:which|what) (?:part|parts|region|regions) of the world|geograph\w*|where in the world)\b/i,
  },
  {
    operation: 'top_institutions',
    cue: /\b(?:institutions?|institutes?|universit(?:y|ies)|affiliations?|affiliated|centers?|centres?|hospitals?|organi[sz]ations?|schools?)\b/i,
  },
  {
    operation: 'top_authors',
    cue: /\b(?:who|whose|authors?|researchers?|scientists?|investigators?|experts?|scholars?|groups?|labs?|teams?|prolific|(?:leading|key|main|central|important|big|top) (?:figures|names|people|persons|players|contributors)|wrote|written by|published the most|dominat\w*)\b/i,
  },
  {
    operation: 'top_papers',
    cue: /\b(?:most[- ]cited|highly[- ]cited|top[- ]cited|best[- ]cited|canonical|landmark|seminal|classic|influential|key (?:papers|works|studies|articles|references)|foundational|must[- ]read|important (?:papers|works|studies)|top papers|best[- ]known|essential (?:papers|reading)|citations?|cited)\b/i,
  },
];

/** The cues of operations on one paper. */
const PAPER_CUES = OPERATION_CUES.filter(
  (c) => PAPER_OPERATIONS.has(c.operation) && c.operation !== 'citation_path',
).map((c) => c.cue);

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
    'dominated references reference count size sizes literatures sits sit lives resides reside housed'
  ).split(/\s+/),
);

/**
 * Names of measures that are several words, some of them subjects elsewhere ("object recognition", "spine surgery",
 * "sudden cardiac death"): taken out as a whole before the subject is read, never word by word.
 */
const MEASURE_NAMES =
  /\b(?:in (?:lotka|bradford)['’]?s? sense|(?:follows?|obeys?|fits?|conforms? to|consistent with) (?:lotka|bradford)['’]?s? laws?|(?:lotka|bradford)['’]?s? (?:laws?|core|zones?|distribution)|inverse[- ]square law|cd[- ]index|disruption index|citation (?:paths?|chains?|routes?|trails?)|(?:paths?|chains?|trails?) of citations|core (?:journals|venues|set of journals)|(?:size|volume) of the body of (?:work|literature|research|evidence)|body of (?:work|literature|research|evidence)|(?:which|what) (?:parts?|regions?) of the world|where in the world|author(?:ship)? productivity (?:distribution|law|pattern)|(?:one|single)[- ](?:paper|time|off) (?:authors|researchers|contributors)|(?:concentrated|clustered) in (?:a )?(?:few|small number of|handful of) (?:journals|venues)|(?:grew|grow(?:s|n|ing)?|expand(?:ed|s|ing)?) (?:faster|more(?: quickly| rapidly| steeply)?|quicker)|sleeping[- ]beaut(?:y|ies)|delayed recognition|main (?:citation )?paths?|(?:backbone|main line|main trunk|spine) of (?:the )?(?:citations?|literature|field|research)|knowledge (?:flow|trajectory|diffusion) (?:paths?|routes?)|search path counts?|(?:field[- ])?normali[sz]ed (?:citation )?(?:impact|citations?|citation rates?)|field[- ]weighted(?: citation)? impact|relative citation (?:impact|ratio|rates?)|citation impact|sudden (?:surges?|spikes?|rises?|jumps?|bursts?)|spikes? (?:of|in) (?:attention|interest|activity)|research fronts?|schools? of thought|lines of (?:research|work)|(?:split|divided?|fall|clustered) into (?:\w+ )?(?:groups|clusters|camps|streams|strands)|(?:clusters|communities) (?:of|in|within))\b/gi;

/** Words that introduce the subject of a bibliometric question: "on X", "about X", "related to X". */
const SUBJECT_INTRO =
  /\b(?:on|about|regarding|concerning|into|covering|addressing|studying|investigating|examining|for|of|in the (?:field|area|literature|domain) of|related to|(?:deal|deals|dealing) with|in)\s+(.+)$/i;

/** Trailing framing after the subject: years, "over time", "in the graph". */
const TRAILING =
  /\s+(?:(?:were|was|have been|has been|are|is|got|get)\s+)?(?:published\s+)?(?:(?:since|between|from|after|before|during|until|in|by|over|per|each|every|across)\s+(?:the\s+)?(?:\d{4}s?|last|past|years?|time|decades?|period)\b.*|over time.*|in (?:the|this) (?:graph|corpus|collection|database|dataset).*|(?:in|within) (?:recent|the last|the past).*)$/i;

/** A DOI in the question. */
const DOI = /\b(10\.\d{4,9}\/[^\s"'<>]+[^\s"'<>.,;?!)])/;
/**
 * A quoted title: "…", “…”, or '…' and ‘…’ opened after a space or the start and closed before a space or punctuation
 * (so that no possessive or elided apostrophe opens one; a title holding an apostrophe needs double quotes).
 */
const QUOTED = /["“]([^"”]{8,400})["”]|(?<=^|[\s(:])['‘]([^'‘’]{8,400}?)['’](?=[\s?.!,;:)]|$)/;

/** The quoted title in a text, with the quotation as written (to take it out of the text), or null. */
function quotedTitle(text: string): { quotation: string; title: string } | null {
  const match = QUOTED.exec(text);
  return match ? { quotation: match[0], title: (match[1] ?? match[2])! } : null;
}

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

/** Capitalised word sequences that look like a person ("Jane Doe", "J. A. Smith", "van der Berg"). */
const NAME =
  /\b((?:[A-Z][a-z'’-]+|[A-Z]\.)(?:\s+(?:[A-Z]\.|(?:van|von|de|der|den|da|di|le|la|du)\b|[A-Z][a-z'’-]+)){1,3})\b/g;
const NOT_NAMES = new Set(
  'Which What Who Whom Whose How When Where Why List Show Give Tell Find Name Is Are Does Did Has Have The A An In On Of For'.split(
    ' ',
  ),
);

/** People the question names: compromise's people, then capitalised name-like sequences. */
export function peopleIn(question: string): string[] {
  const found = new Set<string>();
  for (const name of nlp(question).people().out('array') as string[]) {
    const clean = name
      .replace(/[?.!,]+$/, '')
      .replace(/['’]s$/, '')
      .trim();
    if (clean.split(/\s+/).length >= 2 || /^[A-Z]/.test(clean)) found.add(clean);
  }
  for (const match of question.matchAll(NAME)) {
    // A possessive is not part of the name ("Clemens Kirschbaum's collaborators").
    const words = match[1]!
      .replace(/['’]s$/, '')
      .split(/\s+/)
      .filter((word) => !NOT_NAMES.has(word));
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

/** A subject the question reaches through a ranking ("the most prolific author on X", "the most cited X paper"). */
export function firstStepIn(question: string): AnalyticsPlan['firstStep'] {
  const ranked =
    /\bthe (?:single )?(?:most|top|best|highest|leading)[- ]?(prolific|productive|published|cited|influential|ranked)?\s+(?:[\w-]+\s+){0,3}?(authors?|researchers?|scientists?|investigators?|scholars?|persons?|people|writers?|papers?|articles?|studies|study|works?|publications?|reports?|trials?)\b/i.exec(
      question,
    );
  if (!ranked) return null;
  const [, how, what] = ranked;
  if (/^(?:paper|article|stud|work|publication|report|trial)/i.test(what!))
    return !how || /cited|influential|ranked/i.test(how) ? 'most_cited_paper' : null;
  return how && /cited|influential/i.test(how) ? 'most_cited_author' : 'most_prolific_author';
}

/** An institution named as a filter: "at/from/by <… University|Institute|Hospital …>" or "<University of …>". */
const INSTITUTION_FILTER =
  /\b(?:at|from|by|of researchers at|by authors at|by researchers at)\s+(?:the\s+)?((?:[A-Z][\w'’&.-]*\s+){0,5}(?:University|Institute|Hospital|College|Center|Centre|Clinic|Foundation|School of Medicine|Medical School|Medical Center|Medical Centre)(?:\s+(?:of|for|at)\s+(?:the\s+)?[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3}|(?:\s+[A-Z][\w'’&-]*){1,2})?|(?:University|Institute) of\s+(?:the\s+)?[A-Z][\w'’&.-]*(?:\s+[A-Z][\w'’&.-]*){0,3})/;

/** Country names (English, as Intl names ISO 3166 regions) and common short forms, lower-cased, to their codes. */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });

/** A country's English name from its ISO 3166 code (the code itself when unknown). */
export function countryName(code: string): string {
  try {
    return REGION_NAMES.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

const COUNTRY_CODES: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters)
    for (const b of letters) {
      const code = `${a}${b}`;
      const name = countryName(code);
      // Unknown codes come back as themselves; groupings ("European Union", "world") are no country.
      if (name !== code && !/union|world|unknown|outlying|zone|nations/i.test(name)) map.set(name.toLowerCase(), code);
    }
  const short: Array<[string, string]> = [
    ['usa', 'US'],
    ['the us', 'US'],
    ['the usa', 'US'],
    ['the united states', 'US'],
    ['united states of america', 'US'],
    ['america', 'US'],
    ['uk', 'GB'],
    ['the uk', 'GB'],
    ['britain', 'GB'],
    ['great britain', 'GB'],
    ['england', 'GB'],
    ['scotland', 'GB'],
    ['wales', 'GB'],
    ['the netherlands', 'NL'],
    ['holland', 'NL'],
    ['south korea', 'KR'],
    ['korea', 'KR'],
  ];
  for (const [name, code] of short) map.set(name, code);
  return map;
})();

/** Adjectives of nationality that name a country before authors, researchers, institutions or papers. */
const NATIONALITIES: ReadonlyMap<string, string> = new Map([
  ['american', 'US'],
  ['british', 'GB'],
  ['english', 'GB'],
  ['german', 'DE'],
  ['french', 'FR'],
  ['dutch', 'NL'],
  ['italian', 'IT'],
  ['spanish', 'ES'],
  ['japanese', 'JP'],
  ['chinese', 'CN'],
  ['canadian', 'CA'],
  ['australian', 'AU'],
  ['swedish', 'SE'],
  ['danish', 'DK'],
  ['norwegian', 'NO'],
  ['finnish', 'FI'],
  ['swiss', 'CH'],
  ['belgian', 'BE'],
  ['austrian', 'AT'],
  ['korean', 'KR'],
  ['indian', 'IN'],
  ['brazilian', 'BR'],
]);

/**
 * A country the question restricts to: "from/in/based in <country>" (a name Intl knows, or a common short form) or
 * "<nationality> authors/researchers/institutions/papers"; with the words it came from.
 */
export function countryIn(question: string): { code: string; text: string } | null {
  for (const match of question.matchAll(
    /\b(?:from|in|based in|out of)\s+((?:the\s+)?[A-Z][\w'’.-]*(?:\s+(?:of\s+)?[A-Z][\w'’.-]*){0,3})/g,
  )) {
    const words = match[1]!.split(/\s+/);
    // The longest run of capitalised words that names a country ("the United States" before "the United").
    for (let n = words.length; n >= 1; n -= 1) {
      const name = words
        .slice(0, n)
        .join(' ')
        .replace(/[.,;:?!]+$/, '');
      const code =
        COUNTRY_CODES.get(name.toLowerCase()) ?? COUNTRY_CODES.get(name.toLowerCase().replace(/^the\s+/, ''));
      if (code) return { code, text: `${match[0].slice(0, match[0].length - match[1]!.length)}${name}` };
    }
  }
  // "by Japanese authors" as a whole, so that neither the nationality nor "authors" is read as the subject or a cue.
  const nationality =
    /(?:\bby\s+)?\b([A-Z][a-z]+)\s+(?:authors|researchers|scientists|institutions|universities|groups|teams|papers|studies|research|hospitals)\b/.exec(
      question,
    );
  const code = nationality ? NATIONALITIES.get(nationality[1]!.toLowerCase()) : undefined;
  if (!code) return null;
  // A noun that names what is counted ("British papers") stays in the question; authors and their places go.
  const text = /(?:papers|studies|research)$/.test(nationality![0]) ? nationality![1]! : nationality![0];
  return { code, text };
}

/** Words asking for a ranking of people by citations ("the most cited researchers", "who is cited most"). */
const RANK_BY_CITATIONS =
  /\b(?:most[- ]cited|(?:highly|top|best|most often|most frequently)[- ]cited|cited (?:the )?most|citations?|cited|influential)\b/i;

/** Words asking for citations from the graph's own papers. */
const INTERNAL_CITATIONS =
  /\b(?:(?:inside|within) (?:the |this )?(?:graph|collection|corpus|database)|by other papers|internal(?:ly)?|in-graph)\b/i;

/** A single year ("in 2015") as a one-year window, when no range is named. */
function yearsOf(question: string): YearWords {
  const range = yearRange(question);
  if (range.from !== null || range.to !== null || range.last) return range;
  const single = /\b(?:in|during|of)\s+((?:19|20)\d{2})\b/i.exec(question);
  if (single) return { from: Number(single[1]), to: Number(single[1]) };
  return range;
}

/**
 * The offline plan of a bibliometric or trend question. The first operation cue whose subject the question provides
 * wins (author metrics and co-authors need a person, related papers a paper); a trend-routed question without a cue
 * is a topic trend, a bibliometric one without a cue asks for the top papers.
 */
export function planQuestion(question: string, route: 'bibliometric' | 'trend'): AnalyticsPlan {
  // A journal named as a filter: "in the journal X", "has the journal X published", "appeared in X".
  const venueMatch =
    /\b(?:(?:in|published in) )?the journal ([A-Z][\w&:,' -]{1,80}?)(?=[?.!,]|\s+(?:since|between|from|in|on|about|during|published|publish|printed|print|carried|carry|has|have)\b|$)/.exec(
      question,
    ) ??
    /\b(?:appeared|appear|appears|appearing|published|printed) in (?:the )?((?:[A-Z][\w&:,'-]*)(?: (?:[A-Z][\w&:,'-]*|of|and|in|for|the|&))*)(?=[?.!,]|\s+(?:since|between|from|in|on|about|during)\b|$)/.exec(
      question,
    );
  const venue = venueMatch?.[1];
  // An institution or a country named as a filter ("at Harvard University", "from Japan", "by British authors").
  const institutionMatch = INSTITUTION_FILTER.exec(question);
  const country = countryIn(question);
  // The journal's, institution's and country's names are neither cues nor people nor the subject ("published in the
  // Journal of Clinical Endocrinology", "papers from Erasmus University").
  let cueText = question;
  for (const named of [venueMatch?.[0], institutionMatch?.[0], country?.text])
    if (named) cueText = cueText.replace(named, ' ');
  const quotedPaper = quotedTitle(question);
  // A quoted title names a paper, never a person ("cite 'Emicizumab Prophylaxis in Hemophilia A'").
  const people = peopleIn(quotedPaper ? cueText.replace(quotedPaper.quotation, ' ') : cueText);
  const doi = DOI.exec(question)?.[1] ?? null;
  const quoted = quotedPaper?.title ?? null;
  const paper = doi ?? quoted ?? studyNamed(question);
  const years = yearsOf(question);
  const person = people[0] ?? null;
  let operation: PlanOperation | null = null;
  let reason = '';
  const periods = periodsIn(question);
  const topics = twoTopics(question);
  const step = firstStepIn(question);
  const stepToPerson = !person && (step === 'most_prolific_author' || step === 'most_cited_author');
  const stepToPaper = !paper && step === 'most_cited_paper';
  const pathPapers = twoPapersIn(question);
  const described = paper ? null : describedPaper(question);
  for (const { operation: candidate, cue } of OPERATION_CUES) {
    const match = cue.exec(cueText);
    if (!match) continue;
    if (candidate === 'compare_people' && people.length < 2) continue;
    if (PERSON_OPERATIONS.has(candidate) && !person && !stepToPerson) continue;
    if (candidate === 'citation_path' && !pathPapers) continue;
    if (candidate !== 'citation_path' && PAPER_OPERATIONS.has(candidate) && !paper && !stepToPaper && !described)
      continue;
    if (candidate === 'compare_periods' && !periods) continue;
    if ((candidate === 'compare_topics' || candidate === 'compare_topics_trend') && (!topics || people.length > 0))
      continue;
    // "versus" inside a paper's description ("the trial of X versus Y") is no comparison when a paper cue is there.
    if (candidate.startsWith('compare_') && (paper || described) && PAPER_CUES.some((c) => c.test(cueText))) continue;
    // "How many papers has Jane Doe published?" is her profile, not a topic count.
    operation = candidate === 'count_papers' && (person || stepToPerson) ? 'author_metrics' : candidate;
    reason = `cue "${match[0]}"`;
    break;
  }
  // A ranking cue ("cited") with a person and no topic asks for that person's figures ("how often has X been cited").
  if (operation === 'top_papers' && /cit/i.test(reason) && person && !topicPhrase(question, [person])) {
    operation = 'author_metrics';
    reason += `; names ${person} and no topic`;
  }
  if (!operation) {
    if (person) operation = 'author_metrics';
    else if (paper) operation = 'related_papers';
    else operation = route === 'trend' ? 'topic_trend' : 'top_papers';
    reason = person ? `names ${person}` : paper ? 'names a paper' : `no operation cue; ${route} default`;
  }
  const relation: PaperRelation | null =
    operation !== 'related_papers'
      ? null
      : /co-?cit|cit(?:e|es|ed|ing) (?:\w+ ){0,2}?(?:together|alongside|jointly|along with|next to|in tandem)/i.test(
            question,
          )
        ? 'cocited'
        : /coupl|share (?:[\w-]+ ){0,2}references|reference (?:overlap|lists?)|overlapping references|similar references/i.test(
              question,
            )
          ? 'coupled'
          : 'related';
  const firstStep =
    (PERSON_OPERATIONS.has(operation) && operation !== 'compare_people' && stepToPerson) ||
    (PAPER_OPERATIONS.has(operation) && operation !== 'citation_path' && stepToPaper)
      ? step
      : null;
  if (firstStep) reason += `; first the ${firstStep.replace(/_/g, ' ')} on the topic`;
  const comparesTopics = operation === 'compare_topics' || operation === 'compare_topics_trend';
  const isPath = operation === 'citation_path';
  const topic = comparesTopics
    ? topics![0]
    : TOPIC_OPERATIONS.has(operation) || firstStep
      ? topicPhrase(cueText, person ? [person] : [])
      : null;
  const comparesPeriods = operation === 'compare_periods';
  // People are ranked by their papers on the topic unless the question asks who is cited most; then, as a
  // researcher's own citations are, by global citation counts unless it asks for citations inside the graph.
  const rankBy = operation === 'top_authors' && RANK_BY_CITATIONS.test(cueText) ? 'citations' : 'papers';
  return {
    operation,
    topic,
    person: PERSON_OPERATIONS.has(operation) ? person : null,
    paper: isPath ? pathPapers![0] : PAPER_OPERATIONS.has(operation) ? (paper ?? (firstStep ? null : described)) : null,
    relation,
    // A citation path's years describe its papers ("the 1998 trial"), not a window.
    yearFrom: comparesPeriods || isPath ? null : years.from,
    yearTo: comparesPeriods || isPath ? null : years.to,
    // Emerging subtopics are recent by definition: "lately" is what they compare with the years before, no window.
    lastYears: comparesPeriods || isPath || operation === 'emerging_topics' ? null : (years.last ?? null),
    venue: venue?.trim() ?? null,
    institution: institutionMatch?.[1]?.trim() ?? null,
    country: country?.code ?? null,
    // Papers are ranked by citations inside the graph unless the question says otherwise; a researcher's citations
    // are her global count unless the question asks for citations inside the graph.
    citationBasis:
      /\b(?:global(?:ly)?|overall|worldwide|in all|all[- ]time|total citations)\b/i.test(question) ||
      ((firstStep === 'most_cited_author' || rankBy === 'citations') && !INTERNAL_CITATIONS.test(question))
        ? 'global'
        : 'internal',
    rankBy,
    firstStep,
    second: comparesTopics ? topics![1] : operation === 'compare_people' ? people[1]! : isPath ? pathPapers![1] : null,
    periods: comparesPeriods ? periods : null,
    source: 'rules',
    reason,
  };
}

/** The plan as one line, for the trace and answers. */
export function describePlan(plan: AnalyticsPlan): string {
  const subject = plan.topic
    ? `topic "${plan.topic}"`
    : plan.person
      ? `person "${plan.person}"`
      : plan.paper
        ? `paper "${plan.paper.slice(0, 80)}"`
        : 'the whole graph';
  const years =
    plan.yearFrom !== null || plan.yearTo !== null
      ? `, years ${plan.yearFrom ?? '…'}–${plan.yearTo ?? '…'}`
      : plan.lastYears
        ? `, the last ${plan.lastYears} years the papers cover`
        : '';
  return `${plan.operation}${plan.relation ? ` (${plan.relation})` : ''} of ${subject}${years}${plan.venue ? `, journal "${plan.venue}"` : ''}; ${plan.source}: ${plan.reason}`;
}
