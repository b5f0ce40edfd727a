import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSettings } from '../../src/config/settings';
import { embeddedStatus, startEmbedded, stopEmbedded } from '../../src/graph/embedded-server';

/** A second embedded server of its own (port and store), so that starting and stopping it disturbs no other test. */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'citegraph-embedded-'));
const settings = loadSettings({
  ...process.env,
  NEO4J_URI: '',
  CITEGRAPH_NEO4J_PORT: String(Number(process.env.CITEGRAPH_TEST_NEO4J_PORT ?? 7697) + 10),
  CITEGRAPH_NEO4J_DATA: dataDir,
  CITEGRAPH_NEO4J_HEAP: '512m',
  CITEGRAPH_NEO4J_PAGECACHE: '64m',
});

afterAll(async () => {
  await stopEmbedded(settings);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded Neo4j launcher', () => {
  it('says whether it started the server, so that only the starter stops it', async () => {
    const first = await startEmbedded(settings);
    expect(first).toMatchObject({ started: true, running: true, reachable: true });
    const second = await startEmbedded(settings);
    expect(second).toMatchObject({ started: false, running: true, pid: first.pid });
    expect(await stopEmbedded(settings)).toBe(true);
    expect(await embeddedStatus(settings)).toMatchObject({ running: false, reachable: false });
    expect(await stopEmbedded(settings)).toBe(false);
  });
});
