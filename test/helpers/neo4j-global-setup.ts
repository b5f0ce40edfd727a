import { rmSync } from 'node:fs';
import { startEmbedded, stopEmbedded } from '../../src/graph/embedded-server';
import { GraphExecutor } from '../../src/graph/executor';
import { applySchema } from '../../src/graph/schema';
import { loadSettings } from '../../src/config/settings';
import { testServerSettings, TEST_DATA_DIR } from './test-database';

const state = globalThis as { citegraphTestDb?: { startedHere: boolean } };

/**
 * Gives the suites a real Neo4j: NEO4J_URI when set (an external 5.x server), otherwise the embedded server on its
 * own port with a fresh store. Runs once even when two projects name it.
 */
export default async function globalSetup(): Promise<void> {
  if (state.citegraphTestDb) return;
  let startedHere = false;
  if (!process.env.NEO4J_URI) {
    const settings = testServerSettings();
    // A server left running by an interrupted run is stopped before its store is removed.
    await stopEmbedded(settings);
    rmSync(TEST_DATA_DIR, { recursive: true, force: true });
    const status = await startEmbedded(settings);
    process.env.NEO4J_URI = status.uri;
    startedHere = status.started;
  }
  const executor = new GraphExecutor(loadSettings().neo4j);
  try {
    await executor.verifyConnectivity();
    await applySchema(executor);
  } finally {
    await executor.close();
  }
  state.citegraphTestDb = { startedHere };
}
