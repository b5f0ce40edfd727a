import type { PaperFilter, PaperSort, PaperSortField } from '../domain';
import type { FilterMiss } from '../catalog/name-lookup';
import { badInput } from '../errors';
import type { WarningSink } from '../paging';
import { graphId } from '../text';
import type { PaperSort as PaperSortInput, WorkFilter } from './generated/graphql';

/** Most values one list argument of a filter may carry. */
export const MAX_FILTER_VALUES = 200;

/** Most papers a filter's text selects (the most relevant); a text matching more is reported. */
export const MAX_TEXT_MATCHES = 20_000;

/** Longest filter text, in characters. */
export const MAX_FILTER_TEXT = 1000;

function list(name: string, values: readonly string[] | null | undefined): string[] | null {
  if (!values || values.length === 0) return null;
  if (values.length > MAX_FILTER_VALUES) {
    throw badInput(`filter.${name} takes at most ${MAX_FILTER_VALUES} values, got ${values.length}`, {
      argument: `filter.${name}`,
    });
  }
  return [...values];
}

function filterText(text: string | null | undefined): string | null {
  if (text == null) return null;
  if (text.length > MAX_FILTER_TEXT) {
    throw badInput(`filter.text is longer than ${MAX_FILTER_TEXT} characters`, { argument: 'filter.text' });
  }
  return text;
}

/** The GraphQL `WorkFilter` as the services' one paper filter, checked before any query runs. */
export function toPaperFilter(filter: WorkFilter | null | undefined): PaperFilter {
  if (!filter) return {};
  const from = filter.years?.from ?? null;
  const to = filter.years?.to ?? null;
  if (from !== null && to !== null && from > to) {
    throw badInput(`filter.years: from ${from} is after to ${to}`, { argument: 'filter.years' });
  }
  const min = filter.citedBy?.min ?? null;
  const max = filter.citedBy?.max ?? null;
  if (min !== null && max !== null && min > max) {
    throw badInput(`filter.citedBy: min ${min} is above max ${max}`, { argument: 'filter.citedBy' });
  }
  return {
    collections: list('collections', filter.collections),
    yearFrom: from,
    yearTo: to,
    // Ids as users type them: OpenAlex URLs and any case name the graph's ids.
    topics: list('topics', filter.topics)?.map(graphId) ?? null,
    authors: list('authors', filter.authors)?.map(graphId) ?? null,
    venues: list('venues', filter.venues)?.map(graphId) ?? null,
    institutions: list('institutions', filter.institutions)?.map(graphId) ?? null,
    text: filterText(filter.text),
    hasDoi: filter.hasDoi ?? null,
    citedByMin: min,
    citedByMax: max,
  };
}

/** What reads the papers a filter's text matches and the values it names that do not exist (CatalogService). */
export interface TextMatcher {
  textMatches(text: string, limit: number): Promise<{ scores: Map<string, number>; more: boolean }>;
  unknownFilterValues(filter: PaperFilter): Promise<FilterMiss[]>;
}

/**
 * BAD_USER_INPUT when a filter names a collection or id the graph does not hold — every miss in the message, with the
 * closest known collections — instead of an empty answer that looks like a finding.
 */
export async function refuseUnknownNames(
  filter: PaperFilter,
  matcher: Pick<TextMatcher, 'unknownFilterValues'>,
): Promise<void> {
  const misses = await matcher.unknownFilterValues(filter);
  if (misses.length === 0) return;
  throw badInput(misses.map((miss) => miss.message).join('; '), {
    argument: misses[0]!.field,
    unknown: misses.map(({ field, value, closest }) => ({ field, value, closest })),
  });
}

/**
 * The GraphQL `WorkFilter` as the services' paper filter, with its text (if any) resolved to the papers it matches:
 * the one place a filter's text is read, so every list and analysis honours it alike. A text matching more than
 * MAX_TEXT_MATCHES papers keeps the most relevant (said in the response's warnings); a collection or id naming
 * nothing is BAD_USER_INPUT naming the closest known names.
 */
export async function resolveFilter(
  filter: WorkFilter | null | undefined,
  matcher: TextMatcher,
  warnings: WarningSink | null,
): Promise<PaperFilter> {
  const checked = toPaperFilter(filter);
  await refuseUnknownNames(checked, matcher);
  if (checked.text == null) return checked;
  const { scores, more } = await matcher.textMatches(checked.text, MAX_TEXT_MATCHES);
  if (more) {
    warnings?.warn(
      `filter.text matches more than ${MAX_TEXT_MATCHES} papers; the ${MAX_TEXT_MATCHES} most relevant are used`,
    );
  }
  return { ...checked, textScores: scores };
}

const DESCENDING_BY_DEFAULT: ReadonlySet<PaperSortField> = new Set([
  'DISRUPTION',
  'YEAR',
  'CITATIONS',
  'INTERNAL_CITATIONS',
  'RELEVANCE',
]);

/**
 * The GraphQL `PaperSort` as the services' one paper sort: the field's natural direction when none is given, and
 * relevance by default when the filter has a text. Null keeps a list's own order. RELEVANCE without a text is
 * BAD_USER_INPUT.
 */
export function toPaperSort(
  sort: PaperSortInput | null | undefined,
  filter: PaperFilter,
  options: { disruption?: boolean } = {},
): PaperSort | null {
  if (!sort) return filter.text != null ? { by: 'RELEVANCE', descending: true } : null;
  if (sort.by === 'DISRUPTION' && !options.disruption) {
    throw badInput('sort DISRUPTION is for papers(filter:) lists', { argument: 'sort' });
  }
  if (sort.by === 'RELEVANCE' && filter.text == null) {
    throw badInput('sort RELEVANCE needs filter.text: relevance is to a text', { argument: 'sort' });
  }
  const descending = sort.direction ? sort.direction === 'DESC' : DESCENDING_BY_DEFAULT.has(sort.by);
  return { by: sort.by, descending };
}

/** Filters already resolved, per request (its warning sink) and per filter: two fields over one filter read it once. */
const resolvedFilters = new WeakMap<WarningSink, Map<string, Promise<PaperFilter>>>();

/**
 * `resolveFilter` bound to a text matcher (read when a filter is, so that resolvers can be built before the services),
 * for resolvers: `await filterOf(args.filter, context)`. Within a request the same filter is resolved once (its text
 * matches and the check of its values read once, its warnings said once).
 */
export function filterReader(matcher: () => TextMatcher) {
  return (filter: WorkFilter | null | undefined, context: { request: WarningSink }): Promise<PaperFilter> => {
    let resolved = resolvedFilters.get(context.request);
    if (!resolved) resolvedFilters.set(context.request, (resolved = new Map<string, Promise<PaperFilter>>()));
    const key = JSON.stringify(filter ?? null);
    let filterPromise = resolved.get(key);
    if (!filterPromise) resolved.set(key, (filterPromise = resolveFilter(filter, matcher(), context.request)));
    return filterPromise;
  };
}

/** A single lookup's answer, passed through; a miss is named in the response's warnings (null alone says nothing). */
export function reportMiss<T>(value: T | null, warnings: WarningSink, miss: string): T | null {
  if (value === null || value === undefined) warnings.warn(miss);
  return value ?? null;
}
