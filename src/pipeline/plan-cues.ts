/** The words that ask for each plan operation, first match first (see planQuestion). */
import { PAPER_OPERATIONS, type PlanOperation } from './plan-schema';

/** "How much has been written (was published) on X": the size of a literature, asked without naming papers. */
export const HOW_MUCH_WRITTEN = String.raw`(?:(?:has|have|had) been|is|was|gets|got) (?:written|published)`;

/**
 * Words for bibliographic coupling: two papers sharing references ("share the most references", "sharing references",
 * "references in common", "cite the same literature").
 */
export const COUPLING_WORDS = String.raw`coupl\w*|shar(?:e|es|ed|ing) (?:[\w-]+ ){0,2}(?:references|bibliograph\w*)|reference (?:overlap|lists?)|(?:overlapping|similar|common|shared) references|references in common|cit(?:e|es|ed|ing) the same (?:papers|works|sources|studies|literature|references)`;

/** COUPLING_WORDS anywhere in a question. */
export const COUPLING = new RegExp(COUPLING_WORDS, 'i');

/** Operation cues, first match wins; each needs its subject (checked by the planner). */
export const OPERATION_CUES: ReadonlyArray<{ operation: PlanOperation; cue: RegExp }> = [
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
    cue: /\b(?:lotka\w*|inverse[- ]square law|author(?:ship)? productivity (?:distribution|law|pattern)|(?:share|proportion|fraction|percentage|per ?cent|how many) of (?:the |all )?(?:[\w-]+ ){0,4}?(?:authors|researchers|contributors|scientists|people|persons|writers)\b.{0,100}?\b(?:only|just|exactly|a single|one) (?:one |single )?(?:paper|article|publication|study)|(?:authors|researchers|contributors|scientists|people|persons|writers)\b.{0,100}?\bhow many (?:appear|feature|show up|are named) on (?:only |just )?(?:a single|one|exactly one) (?:paper|article|publication|study)|(?:one|single)[- ](?:paper|time|off) (?:authors|researchers|contributors)|occasional (?:authors|contributors)|(?:authors|researchers|contributors|scientists)\b.{0,40}?\b(?:publish(?:es|ed)?|wr(?:ite|ote|itten)|appear(?:s|ed)?) (?:only |just )?once)\b/i,
  },
  {
    operation: 'bradford',
    cue: /\b(?:bradford\w*|core (?:journals|venues|set of journals|zones?)|(?:scatter(?:ed|ing)?|spread|dispersed?|dispersion) (?:across|over|among|of) (?:the )?(?:journals|venues)|(?:concentrated|clustered) in (?:a )?(?:few|small number of|handful of) (?:journals|venues))\b/i,
  },
  {
    operation: 'disruptive_papers',
    // "Disruptive" as a measure of papers, not "disruptive behaviour" or "memory consolidation".
    cue: /\b(?:(?:most|least|more|less|truly|highly|really|how) disruptive|disruptive (?:papers|works|studies|articles|contributions|research|science|publications|findings)|disruptiveness|cd[- ]index|disruption (?:index|scores?|metric)|consolidating (?:papers|works|studies|articles)|(?:papers|works|studies|articles) (?:that |which )?(?:were |are )?(?:disruptive|consolidating)|(?:broke|break|breaking) with (?:the )?(?:past|prior work|earlier work)|(?:made|make) (?:earlier|prior) work obsolete)\b/i,
  },
  {
    operation: 'prior_works',
    // What a paper draws on: its references ("what does '<title>' draw on from within this collection", "the
    // in-collection sources of '<title>'", "how many earlier graph papers does '<title>' rely on").
    cue: /\b(?:earlier|prior|previous|preceding|older) (?:[\w-]+ ){0,2}?(?:work|works|studies|research|papers|literature|sources)|\b(?:does|do|did)\b.{1,200}?\b(?:rel(?:y|ies) (?:on|upon)|draws? (?:on|upon|from)|builds? (?:on|upon)|(?:is|are) based on)\b(?=[^?]{0,40}\?|\s*$)|\b(?:references|reference list|bibliography|sources) of\b|\bdoes (?:the )?.{2,200}? (?:cite|reference)\b(?! together| alongside| jointly)/i,
  },
  {
    operation: 'derivative_works',
    cue: /\b(?:build(?:s|ing)? on|builds? upon|follow(?:ed)?[- ]up(?!\s+of\b)|later work|derivative|(?:papers|studies|works|articles) (?:(?:in|of) (?:the|this) (?:graph|collection|database|corpus) |here )?(?:that |which )?(?:cit(?:e|ed|ing)|referenc(?:e|ed|ing))\b(?! together| alongside| with| the same)|referenced by (?:how many|which|what)|(?<!co-?|(?:most|highly|top|best|least|frequently|often|\w+ly) )cit(?:e|es|ed|ing) (?!(?:the )?(?:most|least|same)\b)(?:the |this |that )?(?!together|alongside|with\b)\S|cited by (?:how many|which|what)|(?:citing|citations? of|citations? to) (?:the |this |that )?\S)/i,
  },
  {
    operation: 'compare_people',
    // Checked only when two people are named (see planQuestion): then a word of comparison or ranking between them is
    // enough ("between A and B, who has written more", "does A outpublish B", "who's ahead: A or B", "rank A and B");
    // not "most", which asks for co-authors as often ("the most frequent co-authors of A and B").
    cue: /\b(?:compare[sd]?|comparing|comparison|versus|vs\.?|against|which of|between (?!\d|the\b)|out-?(?:publish|cite|rank|perform)\w*|ahead|rank|order|sort|exceed\w*|surpass\w*|beats?|(?:more|fewer|higher|highest|larger|largest|bigger|greater|better|stronger|lower)\b)/i,
  },
  {
    operation: 'compare_periods',
    // Two windows named as a move from one to the other ("grow from 2010-2014 to 2015-2019"); the planner checks that
    // both are windows (periodsIn), so "from 2010 to 2015" stays one window.
    cue: /\b(?:compare|comparison|versus|vs\.?|(?:more|fewer|faster|slower|larger|bigger)\b.{0,80}\b(?:or|than)\b|or\b.{1,80}\b(?:more|fewer|faster|slower|larger|bigger)|with the|(?:from|between) (?:the )?(?:19|20)\d{2}s?\b.{0,12}?\b(?:to|and) (?:the )?(?:19|20)\d{2}s?)\b/i,
  },
  {
    operation: 'compare_topics_trend',
    cue: /\b(?:(?:grew|grow(?:s|n|ing)?|expand(?:ed|s|ing)?|ris(?:en|ing)|rose|increas(?:ed|ing)|took off) (?:faster|more(?: quickly| rapidly| steeply)?|quicker|the most|most)|faster[- ]growing|(?:compare|comparison of|contrast) (?:the )?(?:growth|trends?|trajector(?:y|ies)|rise|expansion|evolution)|(?:growth|trends?|trajector(?:y|ies)) of .{1,80}\b(?:and|versus|vs\.?|compared)\b)/i,
  },
  {
    operation: 'compare_topics',
    cue: /\b(?:compare|comparison|versus|vs\.?|(?:more|fewer|larger|bigger|smaller)\b.{0,80}\bor\b|(?:more|fewer) .{0,60}\bthan\b|(?:larger|bigger|smaller|greater|more extensive) than\b|or\b.{1,80}\b(?:more|fewer|larger|bigger|smaller)\b)/i,
  },
  {
    operation: 'author_metrics',
    cue: /\b(?:h[- ]?index|i10|citation (?:metrics|profile|record|impact)|publication (?:record|profile)|profile of|how (?:productive|prolific|influential|often cited)|how many (?:papers|articles|publications|works|citations) (?:has|have|did|does)\b|how (?:much|many times|often|frequently) (?:has|have|is|was|were|are) .{1,60}\b(?:cited|published))/i,
  },
  {
    operation: 'coauthors',
    cue: /\b(?:co-?authors?|co-?authored|collaborat\w*|with whom|worked (?:with|alongside)|work(?:s|ed)? together|(?:written|wrote|write|writes|writing|co-?wrote|published|publish|publishes|publishing) (?:[\w-]+ ){0,3}?(?:together )?with|partners?|joint papers)\b/i,
  },
  {
    operation: 'collaboration_network',
    cue: /\b(?:(?:collaboration|co-?authorship|collaborative) (?:network|graph|clusters?|structure|communities|ties|links|connections)|who (?:collaborates|works|publishes) with whom|(?:connected|linked|tied) (?:to each other |to one another )?(?:through|by|via) (?:co-?authorship|collaboration|joint papers))\b/i,
  },
  {
    operation: 'related_papers',
    cue: new RegExp(
      String.raw`\b(?:co-?cit\w*|cit(?:e|es|ed|ing) (?:\w+ ){0,2}?(?:together|alongside|jointly|along with|next to|in tandem)|${COUPLING_WORDS}|(?:papers|work|studies) (?:related|similar) to|related (?:papers|work|studies) (?:of|to|for))\b`,
      'i',
    ),
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
    cue: new RegExp(
      String.raw`\b(?:(?<!\bby )how many|tall(?:y|ies)(?: up)?|head ?count|(?<!\bby (?:the )?|(?:largest|highest|greatest|biggest|most|top) )number of|(?<!citations? |\bby (?:the )?(?:publication |paper |article |citation )?)count(?:s| of)?|how much (?:research|literature|work|${HOW_MUCH_WRITTEN})|volume of|size of the (?:[\w-]+ ){0,5}?(?:literature|field|evidence|body of (?:work|literature|research|evidence))|how (?:big|large|extensive|sizeable|sizable) (?:is|are) (?:the )?(?:[\w-]+ ){0,3}?(?:literature|body of|field|research|evidence))\b`,
      'i',
    ),
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
export const PAPER_CUES = OPERATION_CUES.filter(
  (c) => PAPER_OPERATIONS.has(c.operation) && c.operation !== 'citation_path',
).map((c) => c.cue);
