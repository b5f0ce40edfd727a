/** The Cypher files of bibliometrics and science of science (cypher/analytics/), with their parameters. */
import {
  type Nullable,
  type Page,
  PAPER_FILTER,
  PAPER_SORT,
  type PaperFilterParams,
  type PaperSortParams,
  spec,
} from './query-spec';

export const ANALYTICS_QUERIES = {
  authorWorks: spec<PaperFilterParams & PaperSortParams & Page & { id: string }>('analytics/author-works', [
    'id',
    'skip',
    'limit',
    ...PAPER_FILTER,
    ...PAPER_SORT,
  ]),
  authorCoauthors: spec<PaperFilterParams & Page & { id: string }>('analytics/author-coauthors', [
    'id',
    'skip',
    'limit',
    ...PAPER_FILTER,
  ]),
  authorMetrics: spec<PaperFilterParams & { id: string }>('analytics/author-metrics', ['id', ...PAPER_FILTER]),
  authorTopics: spec<{ id: string; limit: number; minLevel: Nullable<number> }>('analytics/author-topics', [
    'id',
    'limit',
    'minLevel',
  ]),
  paperCitedBy: spec<Page & PaperSortParams & { id: string; textScores: null }>('analytics/paper-cited-by', [
    'id',
    'skip',
    'limit',
    'textScores',
    ...PAPER_SORT,
  ]),
  paperDisruption: spec<{ id: string; window: Nullable<number> }>('analytics/paper-disruption', ['id', 'window']),
  papersDisruption: spec<{ ids: string[]; minCiting: number }>('analytics/papers-disruption', ['ids', 'minCiting']),
  priorWorks: spec<{ ids: string[]; limit: number }>('analytics/prior-works', ['ids', 'limit']),
  derivativeWorks: spec<{ ids: string[]; limit: number }>('analytics/derivative-works', ['ids', 'limit']),
  citationPathDirected: spec<{ from: string; to: string; depth: number }>('analytics/citation-path-directed', [
    'from',
    'to',
    'depth',
  ]),
  citationPathUndirected: spec<{ from: string; to: string; depth: number }>('analytics/citation-path-undirected', [
    'from',
    'to',
    'depth',
  ]),
  authorProductivity: spec<PaperFilterParams>('analytics/author-productivity', [...PAPER_FILTER]),
  authorProductivityAll: spec<Record<string, never>>('analytics/author-productivity-all', []),
  filterPapers: spec<PaperFilterParams & { limit: number }>('analytics/filter-papers', ['limit', ...PAPER_FILTER]),
  internalCitations: spec<{ ids: string[] }>('analytics/internal-citations', ['ids']),
  normalisedImpact: spec<{ ids: string[] }>('analytics/normalised-impact', ['ids']),
  authorPaperIds: spec<{ id: string }>('analytics/author-paper-ids', ['id']),
  authorNames: spec<PaperFilterParams>('analytics/author-names', [...PAPER_FILTER]),
  authorNamesTop: spec<{ limit: number }>('analytics/author-names-top', ['limit']),
  authorPairEvidence: spec<{ pairs: string[][] }>('analytics/author-pair-evidence', ['pairs']),
  citationHistories: spec<PaperFilterParams & { ids: Nullable<string[]>; minCitations: number }>(
    'analytics/citation-histories',
    ['ids', 'minCitations', ...PAPER_FILTER],
  ),
  couplingEdges: spec<{ ids: string[]; minWeight: number }>('analytics/coupling-edges', ['ids', 'minWeight']),
  cocitationNetwork: spec<{ ids: string[]; limit: number; minWeight: number; stubs: boolean }>(
    'analytics/cocitation-network',
    ['ids', 'limit', 'minWeight', 'stubs'],
  ),
  topicCooccurrence: spec<PaperFilterParams & { limit: number; minWeight: number; minLevel: number }>(
    'analytics/topic-cooccurrence',
    ['limit', 'minWeight', 'minLevel', ...PAPER_FILTER],
  ),
  mapAuthorPapers: spec<PaperFilterParams & { groups: Array<{ id: string; records: string[] }> }>(
    'analytics/map-author-papers',
    ['groups', ...PAPER_FILTER],
  ),
  mapCitingTitles: spec<PaperFilterParams & { ids: string[] }>('analytics/map-citing-titles', ['ids', ...PAPER_FILTER]),
  mapTopicYears: spec<PaperFilterParams & { ids: string[] }>('analytics/map-topic-years', ['ids', ...PAPER_FILTER]),
  venuePaperCounts: spec<PaperFilterParams>('analytics/venue-paper-counts', [...PAPER_FILTER]),
  venuePaperCountsAll: spec<Record<string, never>>('analytics/venue-paper-counts-all', []),
  referenceYearCounts: spec<PaperFilterParams & { from: number; to: number; limit: number }>(
    'analytics/reference-year-counts',
    ['from', 'to', 'limit', ...PAPER_FILTER],
  ),
  topicYearCounts: spec<PaperFilterParams & { from: number; to: number; minLevel: Nullable<number>; limit: number }>(
    'analytics/topic-year-counts',
    ['from', 'to', 'minLevel', 'limit', ...PAPER_FILTER],
  ),
  coverageYears: spec<Record<string, never>>('analytics/coverage-years', []),
  topicYearCountsAll: spec<{ from: number; to: number; minLevel: Nullable<number>; limit: number }>(
    'analytics/topic-year-counts-all',
    ['from', 'to', 'minLevel', 'limit'],
  ),
  paperCocited: spec<Page & { id: string }>('analytics/paper-cocited', ['id', 'skip', 'limit']),
  paperCoupled: spec<Page & { id: string }>('analytics/paper-coupled', ['id', 'skip', 'limit']),
  topicById: spec<{ id: string }>('analytics/topic-by-id', ['id']),
  groupBy: spec<PaperFilterParams & { field: string; byKey: boolean; limit: number }>('analytics/group-by', [
    'field',
    'byKey',
    'limit',
    ...PAPER_FILTER,
  ]),
  topicPapers: spec<PaperFilterParams & PaperSortParams & Page & { id: string }>('analytics/topic-papers', [
    'id',
    'skip',
    'limit',
    ...PAPER_FILTER,
    ...PAPER_SORT,
  ]),
  topPapers: spec<PaperFilterParams & Page & { by: string }>('analytics/top-papers', [
    'by',
    'skip',
    'limit',
    ...PAPER_FILTER,
  ]),
  topAuthors: spec<PaperFilterParams & Page & { by: string }>('analytics/top-authors', [
    'by',
    'skip',
    'limit',
    ...PAPER_FILTER,
  ]),
  topAuthorsAll: spec<Page & { by: string }>('analytics/top-authors-all', ['by', 'skip', 'limit']),
  topPapersAll: spec<Page & { by: string }>('analytics/top-papers-all', ['by', 'skip', 'limit']),
  venueStats: spec<PaperFilterParams & Page>('analytics/venue-stats', ['skip', 'limit', ...PAPER_FILTER]),
  venueStatsAll: spec<Page>('analytics/venue-stats-all', ['skip', 'limit']),
  topicYears: spec<PaperFilterParams & { topicIds: string[]; from: number; to: number }>('analytics/topic-years', [
    'topicIds',
    'from',
    'to',
    ...PAPER_FILTER,
  ]),
  topicYearsAll: spec<{ topicIds: string[]; from: number; to: number }>('analytics/topic-years-all', [
    'topicIds',
    'from',
    'to',
  ]),
  papersYears: spec<{ ids: string[]; from: number; to: number }>('analytics/papers-years', ['ids', 'from', 'to']),
  topicSet: spec<
    PaperFilterParams & {
      query: string;
      phrase: string;
      minScore: number;
      limit: number;
      scan: number;
      similar: Array<{ id: string; similarity: number }>;
      concepts: string[];
    }
  >('analytics/topic-set', ['query', 'phrase', 'minScore', 'limit', 'scan', 'similar', 'concepts', ...PAPER_FILTER]),
  topicSeeds: spec<{
    query: string;
    phrase: string;
    minScore: number;
    limit: number;
    scan: number;
    concepts: string[];
  }>('analytics/topic-seeds', ['query', 'phrase', 'minScore', 'limit', 'scan', 'concepts']),
  topicConcepts: spec<{ query: string; limit: number }>('analytics/topic-concepts', ['query', 'limit']),
  topicSimilar: spec<{ vector: number[]; k: number; minCosine: number }>('analytics/topic-similar', [
    'vector',
    'k',
    'minCosine',
  ]),
  authorsByOrcid: spec<{ orcids: string[] }>('analytics/authors-by-orcid', ['orcids']),
  coauthorIds: spec<{ ids: string[]; maxTopicShare: number; rareTopicPapers: number }>('analytics/coauthor-ids', [
    'ids',
    'maxTopicShare',
    'rareTopicPapers',
  ]),
  personMetrics: spec<{ ids: string[] }>('analytics/person-metrics', ['ids']),
  personCoauthors: spec<{ ids: string[]; limit: number }>('analytics/person-coauthors', ['ids', 'limit']),
  venuesByName: spec<{ name: string; limit: number }>('analytics/venues-by-name', ['name', 'limit']),
  venuesOfPapers: spec<{ ids: string[]; limit: number }>('analytics/venues-of-papers', ['ids', 'limit']),
  institutionsOfPapers: spec<{ ids: string[]; limit: number }>('analytics/institutions-of-papers', ['ids', 'limit']),
  countriesOfPapers: spec<{ ids: string[]; limit: number }>('analytics/countries-of-papers', ['ids', 'limit']),
  emergingTopics: spec<
    PaperFilterParams & {
      from: number;
      to: number;
      split: number;
      minSupport: number;
      minScore: number;
      minLevel: Nullable<number>;
    }
  >('analytics/emerging-topics', ['from', 'to', 'split', 'minSupport', 'minScore', 'minLevel', ...PAPER_FILTER]),
  emergingTopicsAll: spec<{ from: number; to: number; split: number; minSupport: number; minLevel: Nullable<number> }>(
    'analytics/emerging-topics-all',
    ['from', 'to', 'split', 'minSupport', 'minLevel'],
  ),
  collaborationNodes: spec<PaperFilterParams & { limit: number }>('analytics/collaboration-nodes', [
    'limit',
    ...PAPER_FILTER,
  ]),
  collaborationNodesAll: spec<{ limit: number }>('analytics/collaboration-nodes-all', ['limit']),
  collaborationEdges: spec<PaperFilterParams & { authorIds: string[]; minJoint: number; maxEdges: number }>(
    'analytics/collaboration-edges',
    ['authorIds', 'minJoint', 'maxEdges', ...PAPER_FILTER],
  ),
} as const;
