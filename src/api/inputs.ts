import type { PaperFilter } from '../domain';
import { badInput } from '../errors';
import { graphId } from '../text';
import type { WorkFilter } from './generated/graphql';

/** Most values one list argument of a filter may carry. */
export const MAX_FILTER_VALUES = 200;

function list(name: string, values: readonly string[] | null | undefined): string[] | null {
  if (!values || values.length === 0) return null;
  if (values.length > MAX_FILTER_VALUES) {
    throw badInput(`filter.${name} takes at most ${MAX_FILTER_VALUES} values, got ${values.length}`, {
      argument: `filter.${name}`,
    });
  }
  return [...values];
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
    hasDoi: filter.hasDoi ?? null,
    citedByMin: min,
    citedByMax: max,
  };
}
