import type { AppContext } from '../app-context';
import { startEmbedded } from '../graph/embedded-server';
import { applySchema } from '../graph/schema';

/**
 * Makes the database usable: starts the embedded server when no NEO4J_URI is set, checks connectivity and applies
 * the schema. Returns whether this call started the embedded server (so the caller may stop it on exit).
 */
export async function ensureDatabase(app: AppContext): Promise<{ startedEmbedded: boolean }> {
  let startedEmbedded = false;
  if (app.settings.neo4j.uri === undefined) {
    const status = await startEmbedded(app.settings);
    startedEmbedded = status.started;
    app.logger.info(`embedded Neo4j at ${status.uri} (data ${status.dataDir})`);
  }
  await app.executor.verifyConnectivity();
  await applySchema(app.executor);
  return { startedEmbedded };
}
