import { openAlexRecord, writeJsonl } from './openalex-corpus';

/** A small fixed corpus with known answers: exact-term matches, paraphrases, citations, years, authors, venues. */
export const SEARCH_CORPUS = [
  {
    id: 'W901',
    year: 1995,
    author: 'A901',
    venue: 'S901',
    topic: 'C901',
    title: 'Low-dose aspirin and the prevention of myocardial infarction',
    abstract:
      'In a randomised trial of 22,071 physicians, low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent. Bleeding was more frequent with aspirin.',
    refs: [],
  },
  {
    id: 'W902',
    year: 2001,
    author: 'A902',
    venue: 'S902',
    topic: 'C902',
    title: 'Statins lower cholesterol and cardiovascular events',
    abstract:
      'Statin therapy lowered LDL cholesterol and reduced major cardiovascular events in patients at high risk. Muscle pain was the most common adverse effect.',
    refs: ['W901'],
  },
  {
    id: 'W903',
    year: 2005,
    author: 'A901',
    venue: 'S901',
    topic: 'C902',
    title: 'Interleukin-6 signalling through STAT3 in CD4 T cells',
    abstract:
      'IL-6 activates STAT3 in CD4 T cells and drives Th17 differentiation. Blocking the IL-6 receptor prevented STAT3 phosphorylation.',
    refs: ['W901', 'W902'],
  },
  {
    id: 'W904',
    year: 2010,
    author: 'A903',
    venue: 'S902',
    topic: 'C903',
    title: 'Sleep deprivation impairs memory consolidation',
    abstract:
      'Participants who stayed awake the night after learning remembered fewer word pairs than those who slept. Slow-wave sleep predicted recall.',
    refs: [],
  },
  {
    id: 'W905',
    year: 2015,
    author: 'A903',
    venue: 'S903',
    topic: 'C903',
    title: 'Rodent object recognition depends on the hippocampus',
    abstract:
      'Rats with hippocampal lesions failed to discriminate a familiar object in a new context, while object recognition in the same context was spared.',
    refs: ['W904'],
  },
  {
    id: 'W906',
    year: 2018,
    author: 'A904',
    venue: 'S903',
    topic: 'C901',
    title: 'Heart attack risk after stopping antiplatelet drugs',
    abstract:
      'Patients who discontinued antiplatelet medication had a higher rate of heart attacks in the following year than patients who continued treatment.',
    refs: ['W901'],
  },
  {
    id: 'W907',
    year: 2020,
    author: 'A904',
    venue: 'S901',
    topic: 'C901',
    title: 'Cardiology review of platelet inhibitors',
    abstract:
      'A review of platelet inhibitors in coronary disease, comparing clopidogrel and ticagrelor for secondary prevention.',
    refs: ['W901', 'W906'],
  },
  {
    id: 'W908',
    year: 2021,
    author: 'A905',
    venue: 'S904',
    topic: 'C904',
    title: 'Deep learning for protein structure prediction',
    abstract:
      'Neural networks trained on known structures predict the three-dimensional fold of proteins from their amino-acid sequence with high accuracy.',
    refs: [],
  },
] as const;

/** Writes the corpus as OpenAlex-shaped records and returns the file. */
export function writeSearchCorpus(): string {
  return writeJsonl(
    'search-corpus',
    SEARCH_CORPUS.map((paper) =>
      openAlexRecord({
        ...paper,
        authors: [{ id: paper.author, name: `Author ${paper.author}` }],
        venue: { id: paper.venue, name: `Venue ${paper.venue}` },
        concepts: [{ id: paper.topic, name: `Topic ${paper.topic}`, level: 1, score: 0.9 }],
      }),
    ),
  );
}
