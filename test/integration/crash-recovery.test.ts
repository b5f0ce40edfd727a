import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAppContext, type AppContext } from '../../src/app-context';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { embeddedStatus, startEmbedded, stopEmbedded } from '../../src/graph/embedded-server';
import { applySchema } from '../../src/graph/schema';
import { MemoryLogger } from '../../src/logger';
import { createTestContext, removeCollections } from '../helpers/context';
import { ownServerSettings } from '../helpers/test-database';

/** A database of its own, killed with SIGKILL in the middle of an ingest. */
const { settings: crashSettings, dataDir } = ownServerSettings('crash', 20);
const SAMPLE = path.join(PROJECT_ROOT, 'data/sample/nelson-2002.jsonl.gz');
const COLLECTION = 'crash';

/** Everything an ingest of the collection wrote, reduced to a comparable form: papers, hashes, edges, chunk texts. */
async function fingerprint(app: AppContext) {
  const read = <T extends object>(text: string) =>
    app.executor.autoCommit<T>({ name: 'fingerprint', text, params: { c: COLLECTION } });
  const papers = await read<{ id: string; hash: string }>(
    'MATCH (p:Paper) WHERE $c IN p.collections RETURN p.id AS id, p.contentHash AS hash ORDER BY id',
  );
  const edges = await read<{ type: string; n: number }>(
    'MATCH (p:Paper)-[r]-() WHERE $c IN p.collections RETURN type(r) AS type, count(*) AS n ORDER BY type',
  );
  const neighbours = await read<{ label: string; n: number }>(
    `MATCH (p:Paper)-[]-(x) WHERE $c IN p.collections WITH DISTINCT x
     RETURN labels(x)[0] + CASE WHEN x.stub = true THEN ' stub' ELSE '' END AS label, count(*) AS n ORDER BY label`,
  );
  const chunks = await read<{ id: string; ordinal: number; text: string }>(
    'MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk) WHERE $c IN p.collections RETURN p.id AS id, c.ordinal AS ordinal, c.text AS text ORDER BY id, ordinal',
  );
  const digest = createHash('sha256');
  for (const chunk of chunks) digest.update(`${chunk.id}\u0000${chunk.ordinal}\u0000${chunk.text}\u0000`);
  return { papers, edges, neighbours, chunks: chunks.length, chunkTexts: digest.digest('hex') };
}

const { app: clean } = createTestContext({ CITEGRAPH_INGEST_BATCH: '20' });

afterAll(async () => {
  await removeCollections(clean, [COLLECTION]);
  await clean.close();
  await stopEmbedded(crashSettings);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a database crash in the middle of an ingest', () => {
  it('loses and duplicates nothing: re-running the ingest gives what a clean ingest gives', async () => {
    await removeCollections(clean, [COLLECTION]);
    await clean.ingest.ingestFiles([SAMPLE], { embed: 'defer', collection: COLLECTION, progress: false });
    const expected = await fingerprint(clean);
    expect(expected.papers.length).toBe(366);

    const status = await startEmbedded(crashSettings);
    const settings = loadSettings({ ...process.env, NEO4J_URI: status.uri, CITEGRAPH_INGEST_BATCH: '20' });
    const app = createAppContext({ settings, logger: new MemoryLogger() });
    try {
      await applySchema(app.executor);
      const statementsAtStart = app.executor.statementsRun;
      const interrupted = app.ingest.ingestFiles([SAMPLE], { embed: 'defer', collection: COLLECTION, progress: false });
      // Several batches in (each is a handful of statements), the database dies without a chance to flush.
      while (app.executor.statementsRun - statementsAtStart < 60) await sleep(20);
      process.kill((await embeddedStatus(crashSettings)).pid!, 'SIGKILL');
      await expect(interrupted).rejects.toMatchObject({ code: 'DATABASE_UNAVAILABLE' });

      await startEmbedded(crashSettings);
      const partial = await fingerprint(app);
      expect(partial.papers.length).toBeGreaterThan(0);
      expect(partial.papers.length).toBeLessThan(366);
      // Every paper that survived is whole: a batch is one transaction.
      const rerun = await app.ingest.ingestFiles([SAMPLE], { embed: 'defer', collection: COLLECTION, progress: false });
      expect(rerun.papersUnchanged).toBe(partial.papers.length);
      expect(rerun.papersWritten).toBe(366 - partial.papers.length);
      expect(await fingerprint(app)).toEqual(expected);
    } finally {
      await app.close();
    }
  });
});
