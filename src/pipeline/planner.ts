/**
 * The planner: a bibliometric or trend question read into a typed plan — the operation its words ask for, its subject,
 * the people, papers, years and filters it names (see plan-schema, plan-cues, plan-subjects, plan-references,
 * plan-places).
 */
import { yearRange, type YearWords } from './router';
import { COUPLING, OPERATION_CUES, PAPER_CUES } from './plan-cues';
import { countryIn, INSTITUTION_FILTER } from './plan-places';
import { describedPaper, DOI, peopleIn, quotedTitle, studyNamed, twoPapersIn } from './plan-references';
import {
  type AnalyticsPlan,
  PAPER_OPERATIONS,
  type PaperRelation,
  PERSON_OPERATIONS,
  type PlanOperation,
  TOPIC_OPERATIONS,
} from './plan-schema';
import { periodsIn, topicPhrase, twoTopics } from './plan-subjects';

/** A word for a paper rather than a person ("study", "trials"), as a ranking's head noun. */
const PAPER_WORD = /^(?:paper|article|stud|work|publication|report|trial)/i;

/** Head nouns of a ranking's subject: people or papers ("the most cited emicizumab paper", "the author cited most"). */
const RANKED_HEADS = String.raw`authors?|researchers?|scientists?|investigators?|scholars?|persons?|writers?|papers?|articles?|studies|study|works?|publications?|reports?|trials?`;

/** A subject the question reaches through a ranking ("the most prolific author on X", "the most cited X paper"). */
export function firstStepIn(question: string): AnalyticsPlan['firstStep'] {
  const ranked = new RegExp(
    String.raw`\bthe (?:single )?(?:most|top|best|highest|leading)[- ]?(prolific|productive|published|cited|influential|ranked)?\s+(?:[\w-]+\s+){0,3}?(${RANKED_HEADS}|people)\b`,
    'i',
  ).exec(question);
  // "the author with the most cartilage repair papers", "the paper with the most citations".
  const holding =
    /\bthe (author|researcher|scientist|investigator|scholar|person|writer|paper|article|study|work|publication|report|trial) (?:with|having|that has|who has) the (?:most|largest number of|highest number of|greatest number of|highest) (?:[\w-]+\s+){0,4}?(papers|articles|studies|publications|works|citations|cites)\b/i.exec(
      question,
    );
  // "Who has the most X papers, and what is their h-index?": the person a ranking finds, then asked about.
  const who =
    /\bwho (?:(?:has|have|had|wrote|writes|published|publishes|authored|holds) (?:the )?most (?:[\w-]+\s+){0,4}?(papers|articles|studies|publications|works|citations)|is (?:the )?most[- ]cited|is cited (?:the )?most)\b[^?]*?\b(?:their|his|her)\b/i.exec(
      question,
    );
  if (who) return !who[1] || /^cit/i.test(who[1]) ? 'most_cited_author' : 'most_prolific_author';
  // The ranking after its head noun: "the emicizumab paper cited most inside the graph", "the author cited most".
  const after = new RegExp(
    String.raw`\bthe (?:[\w-]+\s+){0,4}?(${RANKED_HEADS}) (?:that is |that's |which is |that gets |that has been |which has been )?(?:cited|referenced) (?:the )?most\b`,
    'i',
  ).exec(question);
  if (after) return PAPER_WORD.test(after[1]!) ? 'most_cited_paper' : 'most_cited_author';
  if (holding) {
    const [, holder, counted] = holding;
    if (PAPER_WORD.test(holder!)) return /^cit/i.test(counted!) ? 'most_cited_paper' : null;
    return /^cit/i.test(counted!) ? 'most_cited_author' : 'most_prolific_author';
  }
  if (!ranked) return null;
  const [, how, what] = ranked;
  if (PAPER_WORD.test(what!)) return !how || /cited|influential|ranked/i.test(how) ? 'most_cited_paper' : null;
  return how && /cited|influential/i.test(how) ? 'most_cited_author' : 'most_prolific_author';
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
  // A quoted title's words are the paper's, never cues ("'Timolol versus latanoprost …'" compares nothing).
  const operationText = quotedPaper ? cueText.replace(quotedPaper.quotation, ' the paper ') : cueText;
  for (const { operation: candidate, cue } of OPERATION_CUES) {
    const match = cue.exec(operationText);
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
    if (candidate.startsWith('compare_') && (paper || described) && PAPER_CUES.some((c) => c.test(operationText)))
      continue;
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
        : COUPLING.test(question)
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
      // Counts of a citation index ("the highest citation counts in OpenAlex") are global.
      /\b(?:OpenAlex|Crossref|Semantic Scholar|Google Scholar|Scopus|Web of Science)\b/i.test(question) ||
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
