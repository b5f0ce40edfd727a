import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { serveGraphQL } from '../../api/server';
import { createAppContext } from '../../app-context';
import { PROJECT_ROOT } from '../../config/settings';
import { stopEmbedded } from '../../graph/embedded-server';
import { formatSummary } from '../../ingest/ingest-types';
import { ensureDatabase } from '../database';

export const SAMPLE_DIR = path.join(PROJECT_ROOT, 'data', 'sample');

/**
 * The collection the bundled sample lands in: the name the same works have in SYNERGY (Nelson et al. 2002), so that
 * ingesting SYNERGY later adds to it instead of making a second collection of the same papers.
 */
export const SAMPLE_COLLECTION = 'Nelson_2002';

/** `citegraph serve` and `start` (bootstrap: the bundled sample ingested into an empty graph first). */
export async function serveCommand(args: string[], bootstrap: boolean): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: 'string' }, host: { type: 'string' } } });
  const app = createAppContext();
  const { startedEmbedded } = await ensureDatabase(app);
  let stopServer: (() => Promise<void>) | undefined;
  let stopping = false;
  // Each step is guarded and bounded: a failing step must not keep the embedded database (which this command
  // started) running. Installed before the sample ingest, so Ctrl-C during it also stops cleanly.
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    app.logger.info(`${signal}: stopping`);
    const attempt = async (label: string, step: () => Promise<unknown>, seconds = 10) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          step(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${seconds}s`)), seconds * 1000);
          }),
        ]);
      } catch (error) {
        app.logger.warn(`${label}: ${(error as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    };
    if (stopServer) await attempt('GraphQL server', stopServer);
    await attempt('connections', () => app.close());
    if (startedEmbedded) await attempt('embedded Neo4j', () => stopEmbedded(app.settings), 90);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  if (bootstrap) {
    const { counts } = await app.catalog.stats();
    if ((counts.paperNodes ?? 0) === 0) {
      const files = readdirSync(SAMPLE_DIR)
        .filter((name) => /\.jsonl(\.gz)?$/.test(name))
        .map((name) => path.join(SAMPLE_DIR, name));
      app.logger.info(
        `empty graph: ingesting the bundled sample (${files.map((file) => path.basename(file)).join(', ')})`,
      );
      const summary = await app.ingest.ingestFiles(files, { embed: 'now', collection: SAMPLE_COLLECTION });
      app.logger.info(formatSummary(summary));
    }
  }
  if (stopping) return;
  const port = values.port ? Number(values.port) : app.settings.api.port;
  const { url, stop } = await serveGraphQL(app, port, values.host ?? app.settings.api.host);
  stopServer = stop;
  process.stdout.write(`citegraph GraphQL ready at ${url}\n`);
}
