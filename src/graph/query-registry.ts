import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CitegraphError, ErrorCode } from '../errors';
import { PROJECT_ROOT } from '../config/settings';
import type { PaperFilter, PaperSort } from '../domain';

/** A Cypher statement with its parameters, ready for the executor; built by the registry, never by string pasting. */
export interface CompiledQuery {
  readonly name: string;
  readonly text: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A registered query: its file and the parameters its TypeScript type declares. */
export interface QuerySpec<P> {
  readonly file: string;
  readonly params: ReadonlyArray<keyof P & string>;
}

function spec<P extends Record<string, unknown>>(file: string, params: ReadonlyArray<keyof P & string>): QuerySpec<P> {
  return { file, params };
}

type Nullable<T> = T | null;

/** The one paper filter as registry parameters (`cypher/fragments/paper-filter.cypher`); null restricts nothing. */
export interface PaperFilterParams extends Record<string, unknown> {
  collections: Nullable<string[]>;
  yearFrom: Nullable<number>;
  yearTo: Nullable<number>;
  topics: Nullable<string[]>;
  authors: Nullable<string[]>;
  venues: Nullable<string[]>;
  institutions: Nullable<string[]>;
  countries: Nullable<string[]>;
  /** Paper id → relevance of the filter's text; null when the filter has no text. */
  textScores: Nullable<Record<string, number>>;
  hasDoi: Nullable<boolean>;
  citedByMin: Nullable<number>;
  citedByMax: Nullable<number>;
}

/** The parameters a query that includes the paper filter declares. */
export const PAPER_FILTER = [
  'collections',
  'yearFrom',
  'yearTo',
  'topics',
  'authors',
  'venues',
  'institutions',
  'countries',
  'textScores',
  'hasDoi',
  'citedByMin',
  'citedByMax',
] as const satisfies ReadonlyArray<keyof PaperFilterParams>;

/** Turns the one paper filter into registry parameters: empty lists and absent fields restrict nothing. */
export function paperFilterParams(filter: PaperFilter | null | undefined): PaperFilterParams {
  const list = (value: readonly string[] | null | undefined) => (value && value.length > 0 ? [...value] : null);
  if (filter?.text != null && filter.textScores == null) {
    throw new CitegraphError(
      ErrorCode.QUERY_REGISTRY,
      'a filter with text reached a query before its matches were read',
    );
  }
  return {
    collections: list(filter?.collections),
    yearFrom: filter?.yearFrom ?? null,
    yearTo: filter?.yearTo ?? null,
    topics: list(filter?.topics),
    authors: list(filter?.authors),
    venues: list(filter?.venues),
    institutions: list(filter?.institutions),
    countries: list(filter?.countries?.map((code) => code.toUpperCase())),
    textScores: filter?.textScores ? Object.fromEntries(filter.textScores) : null,
    hasDoi: filter?.hasDoi ?? null,
    citedByMin: filter?.citedByMin ?? null,
    citedByMax: filter?.citedByMax ?? null,
  };
}

/** Whether a filter restricts anything. */
export function isFiltered(filter: PaperFilter | null | undefined): boolean {
  return Object.values(paperFilterParams(filter)).some((value) => value !== null);
}

/** The one paper sort as registry parameters (`cypher/fragments/paper-sort-key` and `paper-order`). */
export interface PaperSortParams extends Record<string, unknown> {
  /** ID, YEAR, CITATIONS, INTERNAL_CITATIONS, TITLE or RELEVANCE; null keeps the query's own order. */
  sort: Nullable<string>;
  sortDescending: boolean;
}

/** The parameters a query that includes the paper sort declares. */
export const PAPER_SORT = ['sort', 'sortDescending'] as const satisfies ReadonlyArray<keyof PaperSortParams>;

/** Turns the one paper sort into registry parameters: no sort keeps each query's own order. */
export function paperSortParams(sort: PaperSort | null | undefined): PaperSortParams {
  return { sort: sort?.by ?? null, sortDescending: sort?.descending ?? false };
}

/** Offset paging of bounded lists. */
export interface Page extends Record<string, unknown> {
  skip: number;
  limit: number;
}

/** Every registered Cypher file (path under cypher/ without .cypher) and the parameters it takes. */
export const QUERY_SPECS = {
  existingPapers: spec<{ ids: string[] }>('ingest/existing-papers', ['ids']),
  upsertPapers: spec<{ papers: unknown[]; collection: string }>('ingest/upsert-papers', ['papers', 'collection']),
  replaceAuthorships: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-authorships', ['papers', 'rows']),
  replaceVenues: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-venues', ['papers', 'rows']),
  replaceTopics: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-topics', ['papers', 'rows']),
  replaceChunks: spec<{ papers: string[]; chunks: unknown[] }>('ingest/replace-chunks', ['papers', 'chunks']),
  replaceCitations: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-citations', ['papers', 'rows']),
  chunksMissingEmbedding: spec<{ limit: number }>('ingest/chunks-missing-embedding', ['limit']),
  countChunksMissingEmbedding: spec<Record<string, never>>('ingest/count-chunks-missing-embedding', []),
  setChunkEmbeddings: spec<{ rows: unknown[] }>('ingest/set-chunk-embeddings', ['rows']),
  papersByDoi: spec<{ dois: string[] }>('ingest/papers-by-doi', ['dois']),
  documentCandidates: spec<{ hash: string; doi: string | null; titleQuery: string }>('ingest/document-candidates', [
    'hash',
    'doi',
    'titleQuery',
  ]),
  writeDocument: spec<{
    paperId: string;
    newProps: Record<string, unknown>;
    documentProps: Record<string, unknown>;
    collection: string;
    chunks: unknown[];
    references: unknown[];
  }>('ingest/write-document', ['paperId', 'newProps', 'documentProps', 'collection', 'chunks', 'references']),
  referenceCandidates: spec<{ entries: unknown[] }>('ingest/reference-candidates', ['entries']),
  touchCollections: spec<{ ids: string[]; collection: string }>('ingest/touch-collections', ['ids', 'collection']),
  affectedBefore: spec<{ papers: string[] }>('aggregates/affected-before', ['papers']),
  refreshAggregates: spec<{ written: string[]; before: unknown[]; strongScore: number }>('aggregates/refresh', [
    'written',
    'before',
    'strongScore',
  ]),
  aggregatesMissing: spec<Record<string, never>>('aggregates/missing', []),
  refreshAllPapers: spec<Record<string, never>>('aggregates/refresh-all-papers', []),
  refreshAllPeople: spec<Record<string, never>>('aggregates/refresh-all-people', []),
  refreshAllVenues: spec<Record<string, never>>('aggregates/refresh-all-venues', []),
  clearYears: spec<Record<string, never>>('aggregates/clear-years', []),
  refreshAllYears: spec<{ strongScore: number }>('aggregates/refresh-all-years', ['strongScore']),
  refreshAllPaperYears: spec<Record<string, never>>('aggregates/refresh-all-paper-years', []),
  topicsNamed: spec<{ query: string; scan: number; limit: number }>('lookup/topics-named', ['query', 'scan', 'limit']),
  authorsNamed: spec<{ query: string; scan: number; limit: number }>('lookup/authors-named', [
    'query',
    'scan',
    'limit',
  ]),
  venuesNamed: spec<{ query: string; scan: number; limit: number }>('lookup/venues-named', ['query', 'scan', 'limit']),
  institutionsNamed: spec<{ query: string; scan: number; limit: number }>('lookup/institutions-named', [
    'query',
    'scan',
    'limit',
  ]),
  venueById: spec<{ id: string }>('lookup/venue-by-id', ['id']),
  institutionById: spec<{ id: string }>('lookup/institution-by-id', ['id']),
  papersInCollection: spec<{ collection: string }>('collection/papers-in-collection', ['collection']),
  leaveCollection: spec<{ ids: string[]; collection: string }>('collection/leave-collection', ['ids', 'collection']),
  removePapers: spec<{ ids: string[] }>('collection/remove-papers', ['ids']),
  removeOrphans: spec<{ stubs: string[]; authors: string[]; venues: string[]; topics: string[] }>(
    'collection/remove-orphans',
    ['stubs', 'authors', 'venues', 'topics'],
  ),
  papersDocuments: spec<{ ids: string[] }>('read/papers-documents', ['ids']),
  createSet: spec<{ id: string; owner: string; now: number; expiresAt: number; maxSets: number }>('sets/create-set', [
    'id',
    'owner',
    'now',
    'expiresAt',
    'maxSets',
  ]),
  setById: spec<{ id: string }>('sets/set-by-id', ['id']),
  setsOfOwner: spec<{ owner: string; now: number }>('sets/sets-of-owner', ['owner', 'now']),
  addSetDocument: spec<{
    setId: string;
    now: number;
    maxDocuments: number;
    document: Record<string, unknown>;
    chunks: unknown[];
    references: string[];
  }>('sets/add-document', ['setId', 'now', 'maxDocuments', 'document', 'chunks', 'references']),
  setChunks: spec<{ setIds: string[] }>('sets/set-chunks', ['setIds']),
  setDocuments: spec<{ ids: string[] }>('sets/set-documents', ['ids']),
  setDocumentText: spec<{ ids: string[] }>('sets/set-document-text', ['ids']),
  deleteSet: spec<{ id: string }>('sets/delete-set', ['id']),
  expiredSets: spec<{ now: number; limit: number }>('sets/expired-sets', ['now', 'limit']),
  setNodeCount: spec<{ id: string }>('sets/set-node-count', ['id']),
  stats: spec<Record<string, never>>('read/stats', []),
  collectionStats: spec<Record<string, never>>('read/collection-stats', []),
  topStubs: spec<{ collection: string | null; limit: number }>('read/top-stubs', ['collection', 'limit']),
  labelStubs: spec<{ rows: unknown[]; at: string }>('ingest/label-stubs', ['rows', 'at']),
  unknownFilterValues: spec<{
    collections: string[] | null;
    topics: string[] | null;
    authors: string[] | null;
    venues: string[] | null;
    institutions: string[] | null;
  }>('read/unknown-filter-values', ['collections', 'topics', 'authors', 'venues', 'institutions']),
  health: spec<Record<string, never>>('read/health', []),
  paperById: spec<{ id: string }>('read/paper-by-id', ['id']),
  paperByDoi: spec<{ doi: string }>('read/paper-by-doi', ['doi']),
  papersByIds: spec<{ ids: string[] }>('read/papers-by-ids', ['ids']),
  papersAuthors: spec<{ ids: string[] }>('read/papers-authors', ['ids']),
  papersVenues: spec<{ ids: string[] }>('read/papers-venues', ['ids']),
  papersTopics: spec<{ ids: string[]; limit: number }>('read/papers-topics', ['ids', 'limit']),
  papersChunks: spec<{ ids: string[]; limit: number }>('read/papers-chunks', ['ids', 'limit']),
  authorsByIds: spec<{ ids: string[] }>('read/authors-by-ids', ['ids']),
  papersPage: spec<PaperFilterParams & Page>('read/papers-page', ['skip', 'limit', ...PAPER_FILTER]),
  papersPageSorted: spec<PaperFilterParams & PaperSortParams & Page>('read/papers-page-sorted', [
    'skip',
    'limit',
    ...PAPER_FILTER,
    ...PAPER_SORT,
  ]),
  papersCount: spec<PaperFilterParams>('read/papers-count', [...PAPER_FILTER]),
  papersCountAll: spec<Record<string, never>>('read/papers-count-all', []),
  papersMatchingText: spec<{ query: string; limit: number }>('read/papers-matching-text', ['query', 'limit']),
  sparsePapers: spec<PaperFilterParams & { query: string; k: number; limit: number }>('retrieval/sparse-papers', [
    'query',
    'k',
    'limit',
    ...PAPER_FILTER,
  ]),
  denseChunks: spec<PaperFilterParams & { vector: number[]; k: number; limit: number }>('retrieval/dense-chunks', [
    'vector',
    'k',
    'limit',
    ...PAPER_FILTER,
  ]),
  denseChunksExact: spec<PaperFilterParams & { vector: number[]; k: number }>('retrieval/dense-chunks-exact', [
    'vector',
    'k',
    ...PAPER_FILTER,
  ]),
  paperPassages: spec<{ paperIds: string[]; vector: number[]; perPaper: number }>('retrieval/paper-passages', [
    'paperIds',
    'vector',
    'perPaper',
  ]),
  paperVectors: spec<{ paperIds: string[] }>('retrieval/paper-vectors', ['paperIds']),
  citationSignal: spec<{ candidateIds: string[]; seedIds: string[] }>('retrieval/citation-signal', [
    'candidateIds',
    'seedIds',
  ]),
  corpusTexts: spec<PaperFilterParams & { after: string; limit: number }>('retrieval/corpus-texts', [
    'after',
    'limit',
    ...PAPER_FILTER,
  ]),
  citingTitles: spec<PaperFilterParams & { after: string; limit: number }>('retrieval/citing-titles', [
    'after',
    'limit',
    ...PAPER_FILTER,
  ]),
  setEnrichment: spec<{ rows: unknown[] }>('retrieval/set-enrichment', ['rows']),
  indexSizes: spec<Record<string, never>>('retrieval/index-sizes', []),
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
  paperReferences: spec<Page & PaperSortParams & { id: string; textScores: null }>('read/paper-references', [
    'id',
    'skip',
    'limit',
    'textScores',
    ...PAPER_SORT,
  ]),
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
  coauthorIds: spec<{ ids: string[] }>('analytics/coauthor-ids', ['ids']),
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
  evidencePapers: spec<{ ids: string[] }>('pipeline/evidence-papers', ['ids']),
  authorsBySurname: spec<{ query: string; scan: number }>('pipeline/authors-by-surname', ['query', 'scan']),
  papersNaming: spec<PaperFilterParams & { name: string; limit: number }>('pipeline/papers-naming', [
    'name',
    'limit',
    ...PAPER_FILTER,
  ]),
  authorsByName: spec<{ name: string; limit: number }>('pipeline/authors-by-name', ['name', 'limit']),
  papersMentioning: spec<{ query: string; collections: string[] | null; limit: number; scan: number }>(
    'pipeline/papers-mentioning',
    ['query', 'collections', 'limit', 'scan'],
  ),
  citationLink: spec<{ a: string[]; b: string[]; limit: number }>('pipeline/citation-link', ['a', 'b', 'limit']),
  paperTexts: spec<{ ids: string[] }>('pipeline/paper-texts', ['ids']),
  authorsOfPapers: spec<{ ids: string[]; limit: number; by: 'papers' | 'global' | 'internal' }>(
    'pipeline/authors-of-papers',
    ['ids', 'limit', 'by'],
  ),
  chunkEmbeddings: spec<{ ids: string[] }>('pipeline/chunk-embeddings', ['ids']),
  clearDatabase: spec<Record<string, never>>('schema/clear-database', []),
} as const;

type Specs = typeof QUERY_SPECS;
type ParamsOf<S> = S extends QuerySpec<infer P> ? P : never;

/** The typed registry: `queries.paperById({ id })` gives a CompiledQuery. */
export type QueryRegistry = { readonly [K in keyof Specs]: (params: ParamsOf<Specs[K]>) => CompiledQuery };

export const CYPHER_DIR = path.join(PROJECT_ROOT, 'cypher');

/** The $parameters a Cypher text uses (comments and string literals excluded). */
export function cypherParameters(text: string): string[] {
  const code = text
    .replace(/\/\/[^\n]*/g, '')
    .replace(/'(?:[^'\\]|\\.)*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const names = new Set<string>();
  for (const match of code.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1]!);
  return [...names].sort();
}

/** Splits a schema file into statements (one per `;`-terminated line group), dropping comments. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** A line that takes in a fragment: `// include: fragments/paper-filter`, indented like the lines around it. */
const INCLUDE = /^(\s*)\/\/ include: ([a-z/-]+)\s*$/gm;

/** Reads a registered Cypher file with its `// include:` lines replaced by the fragments they name. */
export function readCypher(file: string, dir = CYPHER_DIR): string {
  const text = readFileSync(path.join(dir, `${file}.cypher`), 'utf8');
  return text.replace(INCLUDE, (_line, indent: string, fragment: string) =>
    readFileSync(path.join(dir, `${fragment}.cypher`), 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0 && !line.trim().startsWith('//'))
      .map((line) => `${indent}${line}`)
      .join('\n'),
  );
}

/**
 * Loads every registered file once and checks that its $parameters are exactly the ones its type declares, so a
 * mismatch fails at start-up instead of at the first request.
 */
export function loadQueryRegistry(dir = CYPHER_DIR): QueryRegistry {
  const registry: Record<string, (params: Record<string, unknown>) => CompiledQuery> = {};
  const problems: string[] = [];
  for (const [name, querySpec] of Object.entries(QUERY_SPECS) as Array<[string, QuerySpec<Record<string, unknown>>]>) {
    let text: string;
    try {
      text = readCypher(querySpec.file, dir);
    } catch (error) {
      problems.push(`${querySpec.file}.cypher: ${(error as Error).message}`);
      continue;
    }
    const used = cypherParameters(text);
    const declared = [...querySpec.params].sort();
    if (used.join(',') !== declared.join(',')) {
      problems.push(
        `${querySpec.file}.cypher uses [${used.join(', ')}] but its type declares [${declared.join(', ')}]`,
      );
    }
    registry[name] = (params) => ({ name, text, params });
  }
  if (problems.length > 0) {
    throw new CitegraphError(ErrorCode.QUERY_REGISTRY, `Cypher registry is inconsistent:\n${problems.join('\n')}`);
  }
  return Object.freeze(registry) as unknown as QueryRegistry;
}

let shared: QueryRegistry | undefined;

/** The registry of this process, loaded on first use. */
export function queries(): QueryRegistry {
  shared ??= loadQueryRegistry();
  return shared;
}
