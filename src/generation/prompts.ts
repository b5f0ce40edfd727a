import type { ChatMessage } from '../request-context';

/**
 * Every prompt citegraph sends to a model, in one place, so that what the model is asked can be read (and changed)
 * without reading the pipeline. Each returns the messages of one call; JSON answers are parsed by `parseJsonObject`.
 */

/** The router: which of the four routes a question takes. JSON `{"route": …}`. */
export function routePrompt(question: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Classify the research question. Answer JSON {"route": "content"|"bibliometric"|"trend"|"current_world"}. bibliometric: about authors, counts, citations, venues. trend: change over years. current_world: news, markets, regulation, this year. content: what the literature says.',
    },
    { role: 'user', content: question },
  ];
}

/** A technical rewrite and sub-queries, words of the question or standard vocabulary only. JSON `{"rewrite", "subQueries"}`. */
export function rewritePrompt(question: string, maxSubQueries: number): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `Rewrite the research question as a technically explicit search query and up to ${maxSubQueries} sub-queries. Use only terms from the question or standard technical vocabulary; never invent titles, names or numbers. JSON {"rewrite": string, "subQueries": string[]}`,
    },
    { role: 'user', content: question },
  ];
}

/** Query expansion: the vocabulary an answering paper would use, never the answer. JSON `{"terms": string[]}`. */
export function expansionPrompt(query: string, maxTerms: number): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `List up to ${maxTerms} single words or short technical terms that a scientific paper answering this search would use but the search itself lacks (synonyms, acronyms, technical names). Do not answer the question. JSON {"terms": string[]}`,
    },
    { role: 'user', content: query },
  ];
}

/**
 * A report's front, first stage: what its papers found, written without citations (attribution is the second stage,
 * done by the verifier sentence by sentence). Plain text.
 */
export function reportDraftPrompt(subject: string, front: string, passages: readonly string[]): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You write one paragraph of a related-work section. Using only the passages given, write at most four sentences on what these papers report about the subject. State findings, not the papers titles. Do not cite, do not add anything the passages do not say.',
    },
    {
      role: 'user',
      content: `Subject: ${subject}\nResearch front: ${front}\n\nPassages:\n${passages.map((p) => `- ${p}`).join('\n')}`,
    },
  ];
}

/** HyDE: a passage as a paper answering the search would write it, for the dense retriever (plain text). */
export function hydePrompt(query: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Write one short paragraph (at most four sentences) in the style of a scientific abstract that answers the search. Plain text, no title, no references.',
    },
    { role: 'user', content: query },
  ];
}

/** Corpus-side enrichment: search terms for a paper that its text lacks. JSON `{"terms": string[]}`. */
export function enrichmentPrompt(paperText: string, maxTerms: number): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `Give up to ${maxTerms} search terms a researcher would type to find this paper that do not appear in it (synonyms, acronyms, broader names). JSON {"terms": string[]}`,
    },
    { role: 'user', content: paperText.slice(0, 3000) },
  ];
}

/** The veto over papers found outside: which could help answer. JSON `{"keep": number[]}`. */
export function vetoPrompt(question: string, titles: readonly string[]): ChatMessage[] {
  return [
    { role: 'system', content: 'Which of these papers could help answer the question? JSON {"keep": number[]}' },
    {
      role: 'user',
      content: `Question: ${question}\n${titles.map((title, index) => `${index}: ${title}`).join('\n')}`,
    },
  ];
}

/** The answer: only from the evidence, every factual sentence citing the labels it rests on. */
export function answerPrompt(
  question: string,
  evidence: ReadonlyArray<{ label: string; source: string; text: string }>,
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Answer the research question only from the evidence. After every factual sentence cite the evidence it rests on as [E1], [E2]. Use only the given labels. If the evidence does not answer the question, say so.',
    },
    {
      role: 'user',
      content: `Question: ${question}\n\nEvidence:\n${evidence.map((e) => `[${e.label}] (${e.source}) ${e.text}`).join('\n\n')}`,
    },
  ];
}

/**
 * The analytics planner: a bibliometric or trend question as a typed plan. JSON with exactly the fields of
 * `planSchema` (src/pipeline/planner.ts); the answer is checked against it and the rules' plan stands if it fails.
 */
export function planPrompt(question: string, operations: readonly string[], route: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content: `Turn the ${route} question into a plan for a citation-graph analytics service. Answer JSON {"operation": one of ${operations.map((o) => `"${o}"`).join('|')}, "topic": the subject phrase without question or counting words (or null), "person": a person's name as written (or null), "paper": a DOI, a quoted title, a study's acronym or a description such as "the 1998 gabapentin trial" (or null), "relation": "cocited"|"coupled"|"related"|null, "yearFrom": number|null, "yearTo": number|null, "lastYears": number|null (3 for "in recent years" or "lately": counted back from the data's last year), "venue": a journal name|null, "citationBasis": "internal"|"global", "rankBy": "papers"|"citations" (how top_authors ranks people), "firstStep": "most_prolific_author"|"most_cited_author"|"most_cited_paper"|null (when the person or paper is reached through a ranking on the topic), "second": the other topic or person of a comparison (compare_topics, compare_topics_trend, compare_people) or the other paper of a citation_path|null, "periods": [{"from": year, "to": year}, {"from": year, "to": year}]|null (the two windows of compare_periods)}. Never invent names, titles or years the question does not contain.`,
    },
    { role: 'user', content: question },
  ];
}
