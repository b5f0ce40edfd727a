import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CitegraphError, ErrorCode } from '../errors';
import { PROJECT_ROOT } from '../config/settings';

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

/** Filter parameters shared by paper listings. */
export interface PaperFilterParams extends Record<string, unknown> {
  collections: Nullable<string[]>;
  yearFrom: Nullable<number>;
  yearTo: Nullable<number>;
  topicId: Nullable<string>;
  venueId: Nullable<string>;
}

/** Filter parameters shared by the retrievers. */
export interface SearchFilterParams extends Record<string, unknown> {
  collections: Nullable<string[]>;
  yearFrom: Nullable<number>;
  yearTo: Nullable<number>;
  topics: Nullable<string[]>;
  authors: Nullable<string[]>;
  venues: Nullable<string[]>;
}

/** Filter parameters of the bibliometric queries. */
export interface AnalyticsFilterParams extends Record<string, unknown> {
  yearFrom: Nullable<number>;
  yearTo: Nullable<number>;
  topicId: Nullable<string>;
  venueId: Nullable<string>;
  collections: Nullable<string[]>;
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
  setChunkEmbeddings: spec<{ rows: unknown[] }>('ingest/set-chunk-embeddings', ['rows']),
  papersByDoi: spec<{ dois: string[] }>('ingest/papers-by-doi', ['dois']),
  touchCollections: spec<{ ids: string[]; collection: string }>('ingest/touch-collections', ['ids', 'collection']),
  stats: spec<Record<string, never>>('read/stats', []),
  collectionStats: spec<Record<string, never>>('read/collection-stats', []),
  health: spec<Record<string, never>>('read/health', []),
  paperById: spec<{ id: string }>('read/paper-by-id', ['id']),
  paperByDoi: spec<{ doi: string }>('read/paper-by-doi', ['doi']),
  papersByIds: spec<{ ids: string[] }>('read/papers-by-ids', ['ids']),
  paperAuthors: spec<{ id: string }>('read/paper-authors', ['id']),
  paperVenue: spec<{ id: string }>('read/paper-venue', ['id']),
  paperTopics: spec<{ id: string; limit: number }>('read/paper-topics', ['id', 'limit']),
  paperReferences: spec<{ id: string; limit: number }>('read/paper-references', ['id', 'limit']),
  paperChunks: spec<{ id: string }>('read/paper-chunks', ['id']),
  authorById: spec<{ id: string }>('read/author-by-id', ['id']),
  authorPapers: spec<{ id: string; limit: number }>('read/author-papers', ['id', 'limit']),
  papersPage: spec<PaperFilterParams & { after: Nullable<string>; limit: number }>('read/papers-page', [
    'after',
    'limit',
    'collections',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
  ]),
  papersCount: spec<PaperFilterParams>('read/papers-count', [
    'collections',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
  ]),
  vectorChunks: spec<{ k: number; vector: number[]; collections: Nullable<string[]> }>('read/vector-chunks', [
    'k',
    'vector',
    'collections',
  ]),
  sparsePapers: spec<SearchFilterParams & { query: string; k: number; limit: number }>('retrieval/sparse-papers', [
    'query',
    'k',
    'limit',
    'collections',
    'yearFrom',
    'yearTo',
    'topics',
    'authors',
    'venues',
  ]),
  denseChunks: spec<SearchFilterParams & { vector: number[]; k: number; limit: number }>('retrieval/dense-chunks', [
    'vector',
    'k',
    'limit',
    'collections',
    'yearFrom',
    'yearTo',
    'topics',
    'authors',
    'venues',
  ]),
  denseChunksExact: spec<SearchFilterParams & { vector: number[]; k: number }>('retrieval/dense-chunks-exact', [
    'vector',
    'k',
    'collections',
    'yearFrom',
    'yearTo',
    'topics',
    'authors',
    'venues',
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
  corpusTexts: spec<{ after: string; limit: number; collections: Nullable<string[]> }>('retrieval/corpus-texts', [
    'after',
    'limit',
    'collections',
  ]),
  citingTitles: spec<{ after: string; limit: number; collections: Nullable<string[]> }>('retrieval/citing-titles', [
    'after',
    'limit',
    'collections',
  ]),
  setEnrichment: spec<{ rows: unknown[] }>('retrieval/set-enrichment', ['rows']),
  indexSizes: spec<Record<string, never>>('retrieval/index-sizes', []),
  authorWorks: spec<AnalyticsFilterParams & Page & { id: string }>('analytics/author-works', [
    'id',
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  authorCoauthors: spec<AnalyticsFilterParams & Page & { id: string }>('analytics/author-coauthors', [
    'id',
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  authorMetrics: spec<AnalyticsFilterParams & { id: string }>('analytics/author-metrics', [
    'id',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  authorTopics: spec<{ id: string; limit: number; minLevel: Nullable<number> }>('analytics/author-topics', [
    'id',
    'limit',
    'minLevel',
  ]),
  paperCitedBy: spec<Page & { id: string }>('analytics/paper-cited-by', ['id', 'skip', 'limit']),
  paperReferencesPage: spec<Page & { id: string }>('analytics/paper-references-page', ['id', 'skip', 'limit']),
  paperCocited: spec<Page & { id: string }>('analytics/paper-cocited', ['id', 'skip', 'limit']),
  paperCoupled: spec<Page & { id: string }>('analytics/paper-coupled', ['id', 'skip', 'limit']),
  topicById: spec<{ id: string }>('analytics/topic-by-id', ['id']),
  topicPapers: spec<AnalyticsFilterParams & Page & { id: string }>('analytics/topic-papers', [
    'id',
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  topPapers: spec<AnalyticsFilterParams & Page & { by: string }>('analytics/top-papers', [
    'by',
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  topAuthors: spec<AnalyticsFilterParams & Page & { by: string }>('analytics/top-authors', [
    'by',
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  venueStats: spec<AnalyticsFilterParams & Page>('analytics/venue-stats', [
    'skip',
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  topicYears: spec<{
    topicIds: string[];
    from: number;
    to: number;
    venueId: Nullable<string>;
    collections: Nullable<string[]>;
  }>('analytics/topic-years', ['topicIds', 'from', 'to', 'venueId', 'collections']),
  papersYears: spec<{ ids: string[]; from: number; to: number }>('analytics/papers-years', ['ids', 'from', 'to']),
  emergingTopics: spec<{
    from: number;
    to: number;
    split: number;
    minSupport: number;
    minScore: number;
    minLevel: Nullable<number>;
    venueId: Nullable<string>;
    collections: Nullable<string[]>;
  }>('analytics/emerging-topics', [
    'from',
    'to',
    'split',
    'minSupport',
    'minScore',
    'minLevel',
    'venueId',
    'collections',
  ]),
  collaborationNodes: spec<AnalyticsFilterParams & { limit: number }>('analytics/collaboration-nodes', [
    'limit',
    'yearFrom',
    'yearTo',
    'topicId',
    'venueId',
    'collections',
  ]),
  collaborationEdges: spec<AnalyticsFilterParams & { authorIds: string[]; minJoint: number; maxEdges: number }>(
    'analytics/collaboration-edges',
    ['authorIds', 'minJoint', 'maxEdges', 'yearFrom', 'yearTo', 'topicId', 'venueId', 'collections'],
  ),
  evidencePapers: spec<{ ids: string[] }>('pipeline/evidence-papers', ['ids']),
  authorsByName: spec<{ name: string; limit: number }>('pipeline/authors-by-name', ['name', 'limit']),
  authorsOfPapers: spec<{ ids: string[]; limit: number }>('pipeline/authors-of-papers', ['ids', 'limit']),
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

export function readCypher(file: string, dir = CYPHER_DIR): string {
  return readFileSync(path.join(dir, `${file}.cypher`), 'utf8');
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
