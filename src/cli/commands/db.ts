import { loadSettings } from '../../config/settings';
import { badInput } from '../../errors';
import { embeddedStatus, startEmbedded, stopEmbedded } from '../../graph/embedded-server';
import { queries } from '../../graph/query-registry';
import { applySchema, refreshAllAggregates } from '../../graph/schema';
import { ensureDatabase } from '../database';
import { EXIT } from '../exit-codes';
import { say, withApp } from '../shared';

/** `citegraph db start|stop|status|reset|recount`: the embedded Neo4j and the stored aggregates. */
export async function dbCommand(action: string | undefined): Promise<void> {
  const settings = loadSettings();
  if (settings.neo4j.uri && action !== 'reset' && action !== 'status' && action !== 'recount') {
    say(`NEO4J_URI is set (${settings.neo4j.uri}): the embedded server is not used`, {
      external: settings.neo4j.uri,
      embedded: false,
    });
    return;
  }
  switch (action) {
    case 'start': {
      const status = await startEmbedded(settings);
      say(`running: ${status.uri} pid ${status.pid} data ${status.dataDir}`, status);
      return;
    }
    case 'stop': {
      const stopped = await stopEmbedded(settings);
      say(stopped ? 'stopped' : 'not running', { stopped });
      return;
    }
    case 'status': {
      if (settings.neo4j.uri) {
        await withApp(async (app) => {
          await app.executor.verifyConnectivity();
          say(`external database ${settings.neo4j.uri}: reachable`, { uri: settings.neo4j.uri, reachable: true });
        });
        return;
      }
      const status = await embeddedStatus(settings);
      say(
        `${status.running ? 'running' : 'stopped'}${status.pid ? ` (pid ${status.pid})` : ''}; ${status.uri} ${status.reachable ? 'reachable' : 'not reachable'}; data ${status.dataDir}`,
        status,
      );
      if (!status.running) process.exitCode = EXIT.DATABASE_UNAVAILABLE;
      return;
    }
    case 'reset':
      await withApp(async (app) => {
        await ensureDatabase(app);
        await app.executor.autoCommit(queries().clearDatabase({}));
        say('database emptied (schema kept)', { emptied: true });
      });
      return;
    case 'recount':
      await withApp(async (app) => {
        await ensureDatabase(app);
        const counts = await refreshAllAggregates(app.executor);
        say(
          `stored aggregates recounted: ${counts.papers} papers, ${counts.people} people, ${counts.venues} venues, ${counts.topics} topics`,
          counts,
        );
      });
      return;
    default:
      throw badInput(`db takes start, stop, status, reset or recount, not ${action ?? 'nothing'}`);
  }
}

/** `citegraph schema`: constraints and indexes applied (they are also applied on every start). */
export async function schemaCommand(): Promise<void> {
  await withApp(async (app) => {
    await ensureDatabase(app);
    const statements = await applySchema(app.executor);
    say(`schema applied (${statements} statements)`, { statements });
  });
}
