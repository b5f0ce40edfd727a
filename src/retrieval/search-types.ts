/** What a search takes and gives: options (the retrieval settings, per request), results, traces, and their checks. */
import { expectation, schemaOf, type Setting } from '../config/setting-schema';
import { type RetrievalSettings, SETTINGS_SCHEMA } from '../config/settings';
import { badInput } from '../errors';
import type { CitationField, PaperRow } from '../domain';

/**
 * Every stage can be switched per request; unset fields take the settings' defaults (CITEGRAPH_SEARCH_*,
 * CITEGRAPH_RRF_*, …), so that the settings hash stamped on answers covers them.
 */
export type SearchOptions = { -readonly [K in keyof RetrievalSettings]: RetrievalSettings[K] };

export function defaultSearchOptions(settings: RetrievalSettings): SearchOptions {
  return { ...settings };
}

export interface Passage {
  chunkId: string;
  text: string;
  start: number;
  end: number;
  ordinal: number;
  section: string | null;
  sectionKind?: string | null;
  field: CitationField;
  pageStart: number | null;
  pageEnd: number | null;
  score: number;
}

/** Why a result is where it is. */
export interface ResultTrace {
  sparse: { rank: number; score: number } | null;
  dense: { rank: number; score: number } | null;
  /** Its rank in the companion model's dense list, when that list was fused. */
  companion: { rank: number; score: number } | null;
  /** Its rank in the SPLADE list, when that list was fused. */
  splade: { rank: number; score: number } | null;
  expanded: { rank: number; score: number } | null;
  fusedScore: number;
  fusedRank: number;
  citation: { cocited: number; coupled: number; direct: number; boost: number } | null;
  pagerank: number | null;
  finalScore: number;
  /** Stages that changed this result's rank, with the rank before and after. */
  moves: Array<{ stage: string; from: number; to: number }>;
}

export interface SearchResult {
  paper: PaperRow;
  rank: number;
  score: number;
  passages: Passage[];
  trace: ResultTrace;
}

export interface SearchTrace {
  query: string;
  luceneQuery: string | null;
  expansionTerms: string[];
  expansionCandidates: string[];
  /** Where the expansion candidates came from: the LLM, or pseudo-relevance feedback. */
  expansionSource: 'llm' | 'feedback' | null;
  options: SearchOptions;
  timings: Record<string, number>;
  counts: { sparse: number; dense: number; companion: number; splade: number; fused: number };
  /**
   * The companion model (CITEGRAPH_COMPANION_MODEL) and whether its dense list was fused; `skipped` says why not when
   * one is set and was not used. Null without a companion.
   */
  companion: { model: string; fused: boolean; skipped: string | null } | null;
  /**
   * The SPLADE list (option `splade`): the query's terms with their weights as sent to Lucene, or why the list was
   * left out. Null when the search did not ask for it.
   */
  splade: { terms: Array<{ term: string; weight: number }>; skipped: string | null } | null;
  /**
   * HyDE (option `hyde`): the passage the LLM wrote, whose embedding (averaged with the query's) the dense retriever
   * searched with, or why it was not used. Null when the search did not ask for it.
   */
  hyde: { passage: string | null; skipped: string | null } | null;
}

/** A trace before any retriever ran: the query and options, nothing counted. */
export function emptyTrace(query: string, options: SearchOptions): SearchTrace {
  return {
    query,
    luceneQuery: null,
    expansionTerms: [],
    expansionCandidates: [],
    expansionSource: null,
    options,
    timings: {},
    counts: { sparse: 0, dense: 0, companion: 0, splade: 0, fused: 0 },
    companion: null,
    splade: null,
    hyde: null,
  };
}

export interface SearchResponse {
  results: SearchResult[];
  trace: SearchTrace;
}

export interface Candidate {
  id: string;
  score: number;
  fusedScore: number;
  fusedRank: number;
  ranks: Record<string, { rank: number; score: number | undefined }>;
  citation: ResultTrace['citation'];
  pagerank: number | null;
  moves: ResultTrace['moves'];
}

/** Milliseconds since a `process.hrtime.bigint()` reading. */
export function elapsed(started: bigint): number {
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Validates and completes options given by a client, against the same types and bounds as the settings. */
export function resolveOptions(base: SearchOptions, overrides: Partial<SearchOptions> | undefined): SearchOptions {
  const options = { ...base };
  for (const [name, value] of Object.entries(overrides ?? {})) {
    if (value === undefined || value === null) continue;
    const setting = (SETTINGS_SCHEMA.retrieval as Record<string, Setting>)[name];
    if (!setting) throw badInput(`unknown search option ${name}`);
    const parsed = schemaOf(setting).safeParse(value);
    if (!parsed.success || typeof parsed.data !== typeof base[name as keyof SearchOptions]) {
      throw badInput(`${name} must be ${expectation(setting)}, got ${JSON.stringify(value).slice(0, 40)}`);
    }
    (options as Record<string, unknown>)[name] = parsed.data;
  }
  if (!options.sparse && !options.dense && !options.splade)
    throw badInput('at least one of sparse, dense and splade retrieval must be on');
  return options;
}

/** A search's page size: a whole number in [1, 200] (BAD_USER_INPUT otherwise). */
/** A query must hold a letter or a digit: anything else is an empty query. */
export function checkQueryText(query: string): void {
  if (!/[\p{L}\p{N}]/u.test(query)) throw badInput('the query is empty');
}

export function checkFirst(first: number): void {
  if (!Number.isInteger(first) || first < 1 || first > 200)
    throw badInput(`first must be an integer in [1, 200], got ${first}`);
}
