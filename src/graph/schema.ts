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
  const [state] = await executor.autoCommit<{ missing: boolean }>(queries().aggregatesMissing({}));
  if (state?.missing) await refreshAllAggregates(executor);
  return statements.length;
}

/**
 * Recounts every stored aggregate (internal citation counts, per-person and per-venue totals) of the whole graph. Run when a store
 * written before they existed is opened, and by `citegraph db refresh-aggregates`.
 */
export async function refreshAllAggregates(
  executor: GraphExecutor,
): Promise<{ papers: number; people: number; venues: number }> {
  const [papers] = await executor.autoCommit<{ papers: number }>(queries().refreshAllPapers({}));
  const [people] = await executor.autoCommit<{ people: number }>(queries().refreshAllPeople({}));
  const [venues] = await executor.autoCommit<{ venues: number }>(queries().refreshAllVenues({}));
  return { papers: papers?.papers ?? 0, people: people?.people ?? 0, venues: venues?.venues ?? 0 };
}
