import type { GraphExecutor } from './executor';
import { readCypher, splitStatements } from './query-registry';

/** Applies constraints and indexes (idempotent) and waits until every index is online. */
export async function applySchema(executor: GraphExecutor): Promise<number> {
  const statements = splitStatements(readCypher('schema/constraints-and-indexes'));
  for (const [index, text] of statements.entries()) {
    await executor.autoCommit({ name: `schema#${index}`, text });
  }
  await executor.autoCommit({ name: 'schema#await', text: 'CALL db.awaitIndexes(300)' });
  return statements.length;
}
