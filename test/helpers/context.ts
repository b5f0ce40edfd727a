import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serveGraphQL } from '../../src/api/server';
import { createAppContext, type AppContext } from '../../src/app-context';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { MemoryLogger } from '../../src/logger';

/** The bundled sample's file. */
export const SAMPLE_FILE = path.join(PROJECT_ROOT, 'data/sample/nelson-2002.jsonl.gz');

/** An app context on the test database with a logger that records instead of printing. */
export function createTestContext(env: Record<string, string> = {}): { app: AppContext; logger: MemoryLogger } {
  const logger = new MemoryLogger();
  // Servers of the suites load the model when a test first needs it, not each at its start.
  const app = createAppContext({
    settings: loadSettings({ CITEGRAPH_WARM_UP: 'false', ...process.env, ...env }),
    logger,
  });
  return { app, logger };
}

/**
 * A server with settings of its own on the test database, offline (no external search, no LLM, no rate limit to
 * speak of): its app, its base address (no /graphql) and a close that stops both.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  host = '127.0.0.1',
): Promise<{ app: AppContext; base: string; close: () => Promise<void> }> {
  const { app } = createTestContext({
    CITEGRAPH_EXTERNAL_SEARCH: 'false',
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
    CITEGRAPH_RATE_LIMIT: '100000',
    ...env,
  });
  const { url, stop } = await serveGraphQL(app, 0, host);
  return {
    app,
    base: url.replace(/\/graphql$/, '').replace('0.0.0.0', '127.0.0.1'),
    close: async () => {
      await stop();
      await app.close();
    },
  };
}

/**
 * Removes a suite's own collections and everything only they held (papers, chunks, stubs, authors, venues, topics):
 * a suite calls it before it starts (a run that was interrupted may have left them) and after it ends. Suites own
 * their data; none of them wipes the whole database.
 */
export async function removeCollections(app: AppContext, collections: readonly string[]): Promise<void> {
  for (const collection of collections) await app.ingest.deleteCollection(collection);
}

/** The bundled sample (366 CC0 OpenAlex works) ingested with embeddings into a suite's own collection. */
export async function ingestSample(app: AppContext, collection: string): Promise<void> {
  await removeCollections(app, [collection]);
  await app.ingest.ingestFiles([SAMPLE_FILE], {
    embed: 'now',
    collection,
    progress: false,
  });
}

/** The bundled sample's raw OpenAlex records, to compute expected figures from the source rather than the service. */
export function sampleRecords<T>(): T[] {
  return gunzipSync(readFileSync(SAMPLE_FILE))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}
