/** A registered Cypher file and its parameters, and the parameter shapes many share: paper filters, sorts, pages. */
import { CitegraphError, ErrorCode } from '../errors';
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

export function spec<P extends Record<string, unknown>>(
  file: string,
  params: ReadonlyArray<keyof P & string>,
): QuerySpec<P> {
  return { file, params };
}

export type Nullable<T> = T | null;

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
