/**
 * The Cypher files of the store: ingest, aggregates, collections, schema, reads and lookups, document sets, retrieval
 * and the ask pipeline, with their parameters.
 */
import { type Page, PAPER_FILTER, PAPER_SORT, type PaperFilterParams, type PaperSortParams, spec } from './query-spec';

export const STORE_QUERIES = {
  existingPapers: spec<{ ids: string[] }>('ingest/existing-papers', ['ids']),
  upsertPapers: spec<{ papers: unknown[]; collection: string }>('ingest/upsert-papers', ['papers', 'collection']),
  replaceAuthorships: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-authorships', ['papers', 'rows']),
  replaceVenues: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-venues', ['papers', 'rows']),
  replaceTopics: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-topics', ['papers', 'rows']),
  replaceChunks: spec<{ papers: string[]; chunks: unknown[] }>('ingest/replace-chunks', ['papers', 'chunks']),
  replaceCitations: spec<{ papers: string[]; rows: unknown[] }>('ingest/replace-citations', ['papers', 'rows']),
  chunksMissingEmbedding: spec<{ limit: number; after: string; property: string }>('ingest/chunks-missing-embedding', [
    'limit',
    'after',
    'property',
  ]),
  countChunksMissingEmbedding: spec<{ property: string }>('ingest/count-chunks-missing-embedding', ['property']),
  setChunkEmbeddings: spec<{ rows: unknown[]; property: string }>('ingest/set-chunk-embeddings', ['rows', 'property']),
  clearChunkEmbeddings: spec<{ limit: number; property: string }>('ingest/clear-chunk-embeddings', [
    'limit',
    'property',
  ]),
  embeddingSpace: spec<{ space: string; property: string }>('schema/embedding-space', ['space', 'property']),
  recordEmbeddingSpace: spec<{ space: string; model: string }>('schema/record-embedding-space', ['space', 'model']),
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
  denseChunks: spec<PaperFilterParams & { index: string; vector: number[]; k: number; limit: number }>(
    'retrieval/dense-chunks',
    ['index', 'vector', 'k', 'limit', ...PAPER_FILTER],
  ),
  denseChunksExact: spec<PaperFilterParams & { property: string; vector: number[]; k: number }>(
    'retrieval/dense-chunks-exact',
    ['property', 'vector', 'k', ...PAPER_FILTER],
  ),
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
  chunkTexts: spec<PaperFilterParams & { after: string; limit: number }>('retrieval/chunk-texts', [
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
  countCompanionPending: spec<Record<string, never>>('ingest/count-companion-pending', []),
  paperReferences: spec<Page & PaperSortParams & { id: string; textScores: null }>('read/paper-references', [
    'id',
    'skip',
    'limit',
    'textScores',
    ...PAPER_SORT,
  ]),
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
