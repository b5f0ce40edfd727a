import type { GraphExecutor } from './executor';
import { queries, readCypher, splitStatements } from './query-registry';

/** Name and indexed properties of a CREATE … INDEX statement, to notice an index whose definition changed. */
export function indexDefinition(statement: string): { name: string; properties: string[] } | null {
  const match =
    /CREATE\s+(?:FULLTEXT|VECTOR|RANGE|TEXT)?\s*INDEX\s+(\w+)\s+IF NOT EXISTS\s+FOR\s+\((\w+):\w+\)\s+ON\s+(?:EACH\s+)?\[?([^\]\n]+?)\]?\s*(?:OPTIONS|$)/i.exec(
      statement,
    );
  if (!match) return null;
  const variable = match[2]!;
  const properties = match[3]!
    .replace(/[()]/g, '')
    .split(',')
    .map((part) => part.trim().replace(new RegExp(`^${variable}\\.`), ''))
    .filter(Boolean);
  return { name: match[1]!, properties };
}

/**
 * Applies constraints and indexes (idempotent) and waits until every index is online. An index whose properties
 * differ from its statement (the definition changed since it was created) is dropped and created anew.
 */
export async function applySchema(executor: GraphExecutor): Promise<number> {
  const statements = splitStatements(readCypher('schema/constraints-and-indexes'));
  const existing = await executor.autoCommit<{ name: string; properties: string[] }>({
    name: 'schema#show',
    text: 'SHOW INDEXES YIELD name, properties RETURN name, properties',
  });
  const current = new Map(existing.map((row) => [row.name, row.properties]));
  for (const [index, text] of statements.entries()) {
    const definition = indexDefinition(text);
    const properties = definition ? current.get(definition.name) : undefined;
    if (definition && properties && properties.join(',') !== definition.properties.join(',')) {
      await executor.autoCommit({ name: `schema#drop-${definition.name}`, text: `DROP INDEX ${definition.name}` });
    }
    await executor.autoCommit({ name: `schema#${index}`, text });
  }
  await executor.autoCommit({ name: 'schema#await', text: 'CALL db.awaitIndexes(600)' });
  const [missing] = await executor.autoCommit<Record<AggregatePart, boolean>>(queries().aggregatesMissing({}));
  const parts = AGGREGATE_PARTS.filter((part) => missing?.[part]);
  if (parts.length > 0) await refreshAllAggregates(executor, parts);
  return statements.length;
}

/**
 * The topic score at or above which a paper counts as being on a topic for emerging topics; the yearly counts keep
 * the papers at this score apart (TopicYear.strong), so whole-graph emerging topics read them at this score only.
 */
export const STRONG_TOPIC_SCORE = 0.3;

/** The stored aggregates, each recounted by its own whole-graph query. */
export const AGGREGATE_PARTS = ['papers', 'people', 'venues', 'years'] as const;
export type AggregatePart = (typeof AGGREGATE_PARTS)[number];

/**
 * Recounts stored aggregates of the whole graph (internal citation counts, per-person and per-venue totals, yearly
 * counts): all of them by default, or the `parts` a store lacks. Run when a store written before they existed is
 * opened (only the parts it lacks), after a bulk import, and by `citegraph db recount`. The internal citation
 * counts come first: the person and venue totals and the yearly counts sum them.
 */
export async function refreshAllAggregates(
  executor: GraphExecutor,
  parts: readonly AggregatePart[] = AGGREGATE_PARTS,
): Promise<{ papers: number; people: number; venues: number; topics: number }> {
  const counts = { papers: 0, people: 0, venues: 0, topics: 0 };
  if (parts.includes('papers')) {
    const [row] = await executor.autoCommit<{ papers: number }>(queries().refreshAllPapers({}));
    counts.papers = row?.papers ?? 0;
  }
  if (parts.includes('papers') || parts.includes('people')) {
    const [row] = await executor.autoCommit<{ people: number }>(queries().refreshAllPeople({}));
    counts.people = row?.people ?? 0;
  }
  if (parts.includes('papers') || parts.includes('venues')) {
    const [row] = await executor.autoCommit<{ venues: number }>(queries().refreshAllVenues({}));
    counts.venues = row?.venues ?? 0;
  }
  // The yearly counts sum the internal citation counts too.
  if (parts.includes('papers') || parts.includes('years')) {
    await executor.autoCommit(queries().clearYears({}));
    const [row] = await executor.autoCommit<{ topics: number }>(
      queries().refreshAllYears({ strongScore: STRONG_TOPIC_SCORE }),
    );
    await executor.autoCommit(queries().refreshAllPaperYears({}));
    counts.topics = row?.topics ?? 0;
  }
  return counts;
}
