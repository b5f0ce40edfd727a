import type { AuthorRow, ChunkRow, InstitutionRow, PaperRow, TopicRow, VenueRow } from '../domain';
import type { AskResult } from '../pipeline/ask-service';
import type { SearchResult } from '../retrieval/search-types';
import type { YearPoint } from '../analytics/analytics-math';
import type { DocumentSetInfo, SetDocumentInfo } from '../sets/set-info';
import type { SleepingBeauty } from '../analytics/citation-impact';

/**
 * What the resolvers of each GraphQL type receive as `parent`: the services' own rows (GraphQL Code Generator maps
 * the schema's types onto these, see scripts/codegen.js). Fields the rows lack are computed by resolvers.
 */
export type PaperModel = PaperRow;
export type AuthorModel = AuthorRow & { readonly institutions?: InstitutionRow[]; readonly paperCount?: number };
export type VenueModel = VenueRow;
export type TopicModel = TopicRow & { readonly paperCount?: number };
export type InstitutionModel = InstitutionRow;
export type ChunkModel = ChunkRow;
export type DocumentSetModel = DocumentSetInfo;
export type SetDocumentModel = SetDocumentInfo;
export type SleepingBeautyModel = SleepingBeauty;

/** A page of a list as a service gives it; the connection resolvers make edges, cursors and page info of it. */
export interface ConnectionModel<T> {
  readonly items: readonly T[];
  readonly skip: number;
  /** The list's size, or a function that counts it when a client asks. */
  readonly total: number | (() => Promise<number>);
  /** Known without counting (a page fetched one row long). */
  readonly hasNextPage?: boolean;
}

/** One item of a page and its place in the whole list (its cursor). */
export interface EdgeModel<T> {
  readonly item: T;
  readonly offset: number;
}

export type ChunkConnectionModel = ConnectionModel<ChunkRow>;
export type ChunkEdgeModel = EdgeModel<ChunkRow>;
export type PaperConnectionModel = ConnectionModel<PaperRow>;
export type PaperEdgeModel = EdgeModel<PaperRow>;

export interface CountedPaper {
  readonly paper: PaperRow;
  readonly count: number;
}
export type CountedPaperConnectionModel = ConnectionModel<CountedPaper>;
export type CountedPaperEdgeModel = EdgeModel<CountedPaper>;

/** What `stats` reads at once; embedded and pending chunks are counted by their own resolvers, only when asked. */
export interface StatsModel {
  readonly papers: number;
  readonly stubPapers: number;
  readonly authors: number;
  readonly anonymousAuthors: number;
  readonly chunks: number;
  readonly citesBetweenPapers: number;
  readonly labels: ReadonlyArray<{ label: string; count: number }>;
  readonly relationships: ReadonlyArray<{ type: string; count: number }>;
  readonly collections: ReadonlyArray<{ collection: string; papers: number }>;
  /** Chunks without a vector, counted on the first call (a read of every chunk) and kept for the request. */
  readonly pendingChunks: () => Promise<number>;
  /** The model the graph's chunk vectors come from (see EmbeddingSpace), read when asked. */
  readonly embeddingModel: () => Promise<string | null>;
  readonly embeddingModelServed: string;
  /** The companion model's space as the graph records it, read when asked; null without one. */
  readonly companionModel: () => Promise<string | null>;
  readonly companionModelServed: string | null;
  /** Chunks with the model's vector and none of the companion's, counted when asked (a read of every chunk). */
  readonly pendingCompanionChunks: () => Promise<number>;
}

export interface ScoredPaperModel {
  readonly paper: PaperRow;
  readonly internal: number;
  readonly global: number;
  readonly score: number;
}
export type ScoredPaperConnectionModel = ConnectionModel<ScoredPaperModel>;
export type ScoredPaperEdgeModel = EdgeModel<ScoredPaperModel>;

export interface ScoredAuthorModel {
  readonly author: AuthorRow;
  readonly papers: number;
  /** What ranked the author: papers or citations, per `by`. */
  readonly score: number;
  readonly citations: number;
}
export type ScoredAuthorConnectionModel = ConnectionModel<ScoredAuthorModel>;
export type ScoredAuthorEdgeModel = EdgeModel<ScoredAuthorModel>;

export interface Coauthor {
  readonly author: AuthorRow;
  readonly joint: number;
}
export type CoauthorConnectionModel = ConnectionModel<Coauthor>;
export type CoauthorEdgeModel = EdgeModel<Coauthor>;

export interface VenueStatsModel {
  readonly venue: VenueRow;
  readonly papers: number;
  readonly globalCitations: number;
  readonly internalCitations: number;
  readonly firstYear: number | null;
  readonly lastYear: number | null;
}
export type VenueStatsConnectionModel = ConnectionModel<VenueStatsModel>;
export type VenueStatsEdgeModel = EdgeModel<VenueStatsModel>;

export interface TrendSeriesModel {
  readonly key: string;
  readonly topicId: string | null;
  readonly points: readonly YearPoint[];
  readonly total: number;
  readonly cagr: number | null;
}

export type SearchHitModel = SearchResult;
export type AskResultModel = AskResult;
