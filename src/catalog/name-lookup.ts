/** Lookups by name (topics, authors, venues, institutions) and the check of what a paper filter names. */
import type { AuthorRow, InstitutionRow, PaperFilter, TopicRow } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { type CompiledQuery, queries } from '../graph/query-registry';
import { MAX_PAGE } from '../paging';
import { closestNames, filterTextQuery, nameQuery } from '../text';

/** A value a filter names that the graph does not hold: the field, the value, the closest known names, a message. */
export interface FilterMiss {
  field: string;
  value: string;
  closest: string[];
  message: string;
}

/** Longest text a lookup by name takes (names are short; a longer text is a mistake or an attack). */
const MAX_NAME_SEARCH = 300;

/** Names to graph records, for lookups, autocompletion and filters (it is the API's TextMatcher). */
export class NameLookup {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly collections: () => Promise<Array<{ collection: string; papers: number }>>,
  ) {}

  /** Topics by name (full-text over names, best match first), with their numbers of full papers. */
  topicsNamed(text: string, limit: number): Promise<Array<{ topic: TopicRow; score: number; papers: number }>> {
    return this.named(text, limit, (params) => queries().topicsNamed(params));
  }

  /** Identified author records by name, best match first, with the paper count of the person they belong to. */
  authorsNamed(
    text: string,
    limit: number,
  ): Promise<Array<{ author: AuthorRow; score: number; papers: number; institutions: InstitutionRow[] }>> {
    return this.named(text, limit, (params) => queries().authorsNamed(params));
  }

  /** Ids of venues by name, best match first. */
  async venueIdsNamed(text: string, limit: number): Promise<string[]> {
    const rows = await this.named<{ id: string }>(text, limit, (params) => queries().venuesNamed(params));
    return rows.map((row) => row.id);
  }

  /** Institutions by name, best match first, with the number of their authors' full papers. */
  institutionsNamed(
    text: string,
    limit: number,
  ): Promise<Array<{ institution: InstitutionRow; score: number; papers: number }>> {
    return this.named(text, limit, (params) => queries().institutionsNamed(params));
  }

  /**
   * What a filter names that the graph does not hold, each with the closest known names (collections by spelling; ids
   * of authors, venues, institutions and topics have no spelling to be close to): what a user is told instead of an
   * empty answer. Reads nothing when the filter names nothing.
   */
  async unknownFilterValues(filter: PaperFilter): Promise<FilterMiss[]> {
    const named = {
      collections: filter.collections?.length ? [...filter.collections] : null,
      topics: filter.topics?.length ? [...filter.topics] : null,
      authors: filter.authors?.length ? [...filter.authors] : null,
      venues: filter.venues?.length ? [...filter.venues] : null,
      institutions: filter.institutions?.length ? [...filter.institutions] : null,
    };
    if (Object.values(named).every((value) => value === null)) return [];
    const [row] = await this.executor.read<Record<keyof typeof named, string[]>>(queries().unknownFilterValues(named));
    if (!row) return [];
    const misses: FilterMiss[] = [];
    if (row.collections.length > 0) {
      const known = (await this.collections()).map((c) => c.collection);
      for (const name of row.collections) {
        const closest = closestNames(name, known);
        misses.push({
          field: 'filter.collections',
          value: name,
          closest,
          message: `filter.collections: no collection "${name}"${closest.length > 0 ? `; closest: ${closest.join(', ')}` : ''}`,
        });
      }
    }
    const kinds = { topics: 'topic', authors: 'author', venues: 'venue', institutions: 'institution' } as const;
    for (const [field, kind] of Object.entries(kinds) as Array<[keyof typeof kinds, string]>) {
      for (const id of row[field]) {
        misses.push({
          field: `filter.${field}`,
          value: id,
          closest: [],
          message: `filter.${field}: no ${kind} with id ${id}`,
        });
      }
    }
    return misses;
  }

  /**
   * Full papers whose title or abstract holds every content word of the text (the English analyser stems both), best
   * first, at most `limit`; `more` when the text matches more than that.
   */
  async textMatches(text: string, limit: number): Promise<{ scores: Map<string, number>; more: boolean }> {
    const query = filterTextQuery(text);
    if (!query)
      throw badInput(`filter.text needs a word to look for, got "${text.slice(0, 80)}"`, { argument: 'filter.text' });
    const rows = await this.executor.read<{ id: string; score: number }>(
      queries().papersMatchingText({ query, limit: limit + 1 }),
    );
    return { scores: new Map(rows.slice(0, limit).map((row) => [row.id, row.score])), more: rows.length > limit };
  }

  private async named<T extends object>(
    text: string,
    limit: number,
    query: (params: { query: string; scan: number; limit: number }) => CompiledQuery,
  ): Promise<T[]> {
    if (text.length > MAX_NAME_SEARCH)
      throw badInput(`search is longer than ${MAX_NAME_SEARCH} characters`, { argument: 'search' });
    const lucene = nameQuery(text);
    if (!lucene) throw badInput(`search needs a word to look for, got "${text.slice(0, 80)}"`, { argument: 'search' });
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
      throw badInput(`first must be an integer in [1, ${MAX_PAGE}], got ${limit}`, { argument: 'first' });
    // Ranked by Lucene, then re-ordered by counts among equal scores: read more hits than asked for.
    return this.executor.read<T>(query({ query: lucene, scan: Math.max(limit * 5, 100), limit }));
  }
}
