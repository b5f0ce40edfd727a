import { badInput } from './errors';

/**
 * The one paging vocabulary of the API: every list is an offset page, its cursors are opaque `offset:N` strings, and
 * one validator checks `first` and `after` before any query runs.
 */

/** Largest page of any list, so that no request can walk the whole graph. */
export const MAX_PAGE = 200;

/** Deepest offset a cursor may point at: far past any real list here, and far below what Cypher's integers allow. */
export const MAX_OFFSET = 1_000_000;

/** An offset page: rows skipped and rows wanted. */
export interface PageRequest {
  readonly skip: number;
  readonly limit: number;
}

/** A page of a bounded list, with the list's size. */
export interface Slice<T> {
  readonly total: number;
  readonly items: T[];
  readonly skip: number;
  readonly limit: number;
}

/** A page whose list size is counted only when a client asks (counting is the cost the page avoided). */
export interface LazySlice<T> {
  readonly total: () => Promise<number>;
  readonly items: T[];
  readonly skip: number;
  readonly limit: number;
  /** Known from a page fetched one row long. */
  readonly hasNextPage: boolean;
}

/** The cursor of the item at `offset`. */
export function encodeOffset(offset: number): string {
  return Buffer.from(`offset:${offset}`, 'utf8').toString('base64url');
}

/** The offset just after the item a cursor names (0 without a cursor). Throws BAD_USER_INPUT for a forged cursor. */
export function decodeOffset(cursor: string | null | undefined, argument = 'after'): number {
  if (cursor === null || cursor === undefined || cursor === '') return 0;
  const decoded = cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^offset:(\d{1,7})$/.exec(decoded);
  const offset = match ? Number(match[1]) : Number.NaN;
  if (!Number.isInteger(offset) || offset >= MAX_OFFSET) {
    throw badInput(`${argument} is not a cursor this API gave out`, { argument });
  }
  return offset + 1;
}

/** Something that hears of a capped list (the request context): capping is never silent. */
export interface WarningSink {
  warn(message: string): void;
}

/**
 * Checks `first` and `after` of a list: `first` must be a whole number ≥ 0 (BAD_USER_INPUT naming the argument);
 * above `max` it is capped, and the cap is reported to `warnings`.
 */
export function pageRequest(
  first: number | null | undefined,
  after: string | null | undefined,
  options: { fallback?: number; max?: number; field?: string; argument?: string; warnings?: WarningSink | null } = {},
): PageRequest {
  const max = options.max ?? MAX_PAGE;
  const field = options.field ?? 'the list';
  const argument = options.argument ?? 'first';
  const wanted = first ?? options.fallback ?? 20;
  if (!Number.isSafeInteger(wanted) || wanted < 0) {
    throw badInput(`${argument} must be a whole number from 0 to ${max}, got ${String(wanted).slice(0, 20)}`, {
      argument,
    });
  }
  if (wanted > max)
    options.warnings?.warn(`${field}: ${argument} ${wanted} is above the limit; ${max} returned at most`);
  return { skip: decodeOffset(after), limit: Math.min(wanted, max) };
}
