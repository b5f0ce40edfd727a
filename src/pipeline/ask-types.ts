import type { AnalyticsService } from '../analytics/analytics-service';
import type { ScienceService } from '../analytics/science-service';
import type { CatalogService } from '../catalog/catalog-service';
import type { Settings } from '../config/settings';
import type { EvidencePaper, Evidence } from '../domain';
import type { Embedder } from '../embedding/embedder';
import type { FetchService } from '../external/fetch-service';
import type { PortfolioName } from '../external/portfolios';
import type { ProviderName } from '../external/provider-base';
import type { VerifiedCitation, VerifiedSentence } from '../generation/verify';
import type { IngestService } from '../ingest/ingest-service';
import type { RequestContext } from '../request-context';
import type { SearchService } from '../retrieval/search-service';
import type { DocumentScope } from '../sets/documents-corpus';
import type { Corpus } from '../retrieval/corpus';
import type { Sufficiency } from './evidence';
import type { EvidencePool } from './evidence-pool';
import type { AnalyticsPlan } from './plan-schema';
import type { RouteClassifier } from './route-classifier';
import type { Route, RouteDecision } from './router';

export interface AskOptions {
  /** Restrict evidence to these collections. */
  collections?: string[] | null;
  /** Force a route instead of classifying. */
  route?: Route | null;
  externalSearch?: boolean | null;
  graphExpansion?: boolean | null;
  /** Use the LLM when one is configured (default true). */
  useLlm?: boolean | null;
  maxSubQueries?: number | null;
  /**
   * The caller's private document sets to answer from (loaded for this request), alone or with the shared graph.
   * Set alone, the answer rests on the set only: no counting over the graph, no external search, no graph expansion.
   */
  documents?: DocumentScope | null;
}

/** Whether an ask answers from private document sets alone. */
export function setsOnly(options: AskOptions): boolean {
  return Boolean(options.documents && !options.documents.withSharedGraph);
}

export interface SubQuery {
  text: string;
  queryClass: 'precise_fact' | 'broad_synthesis' | 'reasoning';
  domain: string | null;
  evidenceCount: number;
}

export interface StageTrace {
  stage: string;
  ms: number;
  note: string;
}

export interface ExternalSearchRecord {
  /** The query as sent to the provider. */
  query: string;
  source: ProviderName;
  /** The search portfolio it belongs to (see src/external/portfolios.ts). */
  portfolio: PortfolioName;
  found: number;
  kept: number;
  /** The kept papers this search found (a paper found by several searches is listed under each). */
  keptIds: string[];
  error: string | null;
}

/**
 * The key figure of a computed (bibliometric or trend) answer, as data: what was counted or ranked, over which years,
 * so that a client or a benchmark reads the figure instead of parsing the sentence.
 */
export interface AnswerFigure {
  /**
   * count: a number of papers; top: a ranking; metrics: a person's measures; peak: a trend's peak year; choice: the
   * things compared, the larger first; share: a share in [0, 1] (Lotka: authors with one paper); value: one measure
   * (Bradford: core journals; a citation path: its links), null when there is nothing to measure.
   */
  readonly kind: 'count' | 'top' | 'metrics' | 'peak' | 'choice' | 'share' | 'value';
  /** The count, the peak year, the share or the measure; null for rankings, metrics and comparisons. */
  readonly value: number | null;
  /** Ranked items (papers by id, people, venues, institutions by name), or named measures of a person. */
  readonly items: ReadonlyArray<{ readonly id: string; readonly label: string; readonly value: number }>;
  /** The years counted over, once the window is resolved against the data. */
  readonly years: readonly [number, number] | null;
}

/** A subject of the question linked to the graph: the text it came from and what it was taken to be. */
export interface ResolvedEntity {
  readonly kind: 'topic' | 'person' | 'paper' | 'venue' | 'institution' | 'country';
  /** The words of the question (or of the plan) it was resolved from. */
  readonly text: string;
  /**
   * The graph id (a person's first record, a paper, a venue, an institution), a country's ISO code, or a topic's
   * concept when the graph has one; null for a topic without one, which is a set of papers.
   */
  readonly id: string | null;
  /** What it was taken to be: a name, a title, or the topic's size. */
  readonly label: string;
  /** How: the records counted as the person, the paper's year, the topic's rule. */
  readonly how: string;
}

export type AnswerGenerator = 'extractive' | 'llm' | 'bibliometric' | 'trend' | 'none';

export interface AskResult {
  question: string;
  answer: string;
  sentences: Array<VerifiedSentence & { citations: Array<VerifiedCitation & { paper: EvidencePaper }> }>;
  bibliography: Array<{ marker: number; paper: EvidencePaper; doiUrl: string | null; evidenceId: string }>;
  route: Route;
  routeReasons: string[];
  /** The analytics plan of a bibliometric or trend question (null on the content and current-world routes). */
  plan: AnalyticsPlan | null;
  /** The key figure of a computed answer (null on the content and current-world routes and when it abstains). */
  figure: AnswerFigure | null;
  /** The subjects a computed answer resolved in the graph, each with the text it came from. */
  entities: ResolvedEntity[];
  /** When a subject had another close reading: which one the answer took and what else it could mean. */
  clarification: string | null;
  rewrite: string;
  subQueries: SubQuery[];
  sufficiency: Sufficiency;
  abstained: boolean;
  abstentionReason: string | null;
  evidence: Evidence[];
  externalSearches: ExternalSearchRecord[];
  gaps: string[];
  contradictions: Array<{ a: string; b: string; similarity: number; note: string }>;
  droppedSentences: Array<{ text: string; reason: string }>;
  generator: AnswerGenerator;
  sourceNote: string | null;
  trace: StageTrace[];
  cost: {
    llmCalls: number;
    promptTokens: number;
    completionTokens: number;
    apiCalls: Array<{ provider: string; calls: number }>;
    estimatedUsd: number;
  };
  settingsHash: string;
}

/** What the stages are given; no stage reaches the graph except through these services. */
export interface AskDependencies {
  settings: Settings;
  catalog: CatalogService;
  search: SearchService;
  /** The shared graph as a corpus: where evidence comes from besides the caller's documents. */
  graph: Corpus;
  analytics: AnalyticsService;
  /** Science-of-science measures (Lotka, Bradford, the CD index, citation paths). */
  science: ScienceService;
  external: FetchService;
  ingest: IngestService;
  embedder: () => Promise<Embedder>;
  /** The learned half of the router (src/pipeline/route-classifier.ts); without it the rules route alone. */
  routeClassifier?: () => Promise<RouteClassifier>;
}

// ------------------------------------------------------------------------------------------ the state, stage by stage
// Each stage returns the state it was given with more fields filled; what a stage reads is proved present by the
// type it takes (the way Apollo Server types its request pipeline).

/** A checked question and the request it belongs to (its own fork of the request context). */
export interface AskRequest {
  readonly question: string;
  readonly options: AskOptions;
  readonly ctx: RequestContext;
  readonly started: number;
  readonly trace: StageTrace[];
}

/** After routing. */
export interface Routed extends AskRequest {
  readonly decision: RouteDecision;
  /** The question's sentence embedding (the classifier's input; passages are scored against it). */
  readonly questionVector: Float32Array;
}

/** After the rewrite: the searches to run and the question's vector. */
export interface Rewritten extends Routed {
  readonly rewrite: string;
  readonly subQueries: SubQuery[];
}

/** After local retrieval: an evidence pool and how sufficient it is. Later stages add to the pool. */
export interface Gathered extends Rewritten {
  readonly pool: EvidencePool;
  readonly sufficiency: Sufficiency;
  readonly externalSearches: ExternalSearchRecord[];
}
