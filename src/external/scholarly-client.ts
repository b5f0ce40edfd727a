import type { WorkRecord } from '../domain';
import type { RequestContext } from '../request-context';
import { nonEmpty } from '../text';
import type { ProviderQuery } from './portfolios';
import type { ProviderName } from './provider-base';

/** An author as a provider returns it. */
export interface ExternalAuthor {
  id: string;
  name: string;
  worksCount: number | null;
  citationCount: number | null;
  source: ProviderName;
}

/** What every scholarly API client offers, where the API allows it. */
export interface ScholarlyClient {
  readonly provider: ProviderName;
  /** A search of the given kind (see ProviderQuery); each provider has its default and ignores kinds it lacks. */
  searchWorks(ctx: RequestContext, text: string, cap?: number, kind?: ProviderQuery['kind']): Promise<WorkRecord[]>;
  getWork(ctx: RequestContext, id: string): Promise<WorkRecord | null>;
  /** Works this work cites. */
  references(ctx: RequestContext, id: string, cap?: number): Promise<WorkRecord[]>;
  /** Works that cite this work (not offered by Crossref). */
  citations(ctx: RequestContext, id: string, cap?: number): Promise<WorkRecord[]>;
  searchAuthors(ctx: RequestContext, name: string, cap?: number): Promise<ExternalAuthor[]>;
  authorWorks(ctx: RequestContext, authorId: string, cap?: number): Promise<WorkRecord[]>;
  close(): Promise<void>;
}

/** A string field's text, trimmed, or null when it holds none (the APIs pad some fields). */
export const text = (value: unknown): string | null => nonEmpty(value)?.trim() ?? null;
export const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;

/** Graph id of a work known only by DOI or a Semantic Scholar id. */
export function externalWorkId(ids: {
  openalex?: string | undefined;
  doi?: string | null | undefined;
  s2?: string | undefined;
}): string | null {
  if (ids.openalex) return ids.openalex;
  if (ids.doi) return `doi:${ids.doi}`;
  if (ids.s2) return `s2:${ids.s2}`;
  return null;
}

export function emptyRecord(id: string, source: string): WorkRecord {
  return {
    id,
    ids: {},
    doi: null,
    title: null,
    abstract: null,
    year: null,
    publicationDate: null,
    type: null,
    citedByCount: null,
    isRetracted: false,
    source,
    authorships: [],
    venue: null,
    topics: [],
    references: [],
  };
}

/** "199-208" (or an en dash, or one page "e1234") → first and last page. */
export function pageRange(pages: string | null): { firstPage: string | null; lastPage: string | null } {
  const match = pages ? /^\s*([^\s\-–—]+)\s*(?:[-–—]+\s*([^\s\-–—]+))?\s*$/.exec(pages) : null;
  return match ? { firstPage: match[1]!, lastPage: match[2] ?? null } : { firstPage: null, lastPage: null };
}
