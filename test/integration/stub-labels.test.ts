import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { createTestContext, removeCollections } from '../helpers/context';
import { loadRecorded, ReplayServer } from '../helpers/replay-server';

/**
 * `citegraph fetch --stubs --top N` labels the most cited stubs from OpenAlex (a recorded real response served
 * locally), and `fetch` exits 5 when every source failed.
 */
const COLLECTION = 'stub-labels';
const { app } = createTestContext();
const openalex = new ReplayServer(loadRecorded('openalex'));
const dir = mkdtempSync(path.join(tmpdir(), 'citegraph-stubs-'));
let base = '';

/** Two works citing W4234567890 (recorded: year 2018, DOI 10.4018/jnn.20180101, no title) and one other stub. */
const work = (id: string, references: string[]) =>
  JSON.stringify({
    id: `https://openalex.org/${id}`,
    title: `Stub labelling test work ${id}`,
    publication_year: 2020,
    authorships: [],
    referenced_works: references.map((ref) => `https://openalex.org/${ref}`),
  });

/** Runs the CLI without blocking this process: the replay server answering it lives here. */
function cli(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(PROJECT_ROOT, 'dist/src/cli/main.js'), ...args],
      { env: { ...process.env, OPENALEX_BASE_URL: base, OPENALEX_RPS: '50' }, encoding: 'utf8' },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  base = await openalex.start();
  await removeCollections(app, [COLLECTION]);
  const file = path.join(dir, 'works.jsonl');
  writeFileSync(
    file,
    [work('W990000901', ['W4234567890', 'W990000999']), work('W990000902', ['W4234567890'])].join('\n'),
  );
  await app.ingest.ingestFiles([file], { embed: 'defer', collection: COLLECTION, progress: false });
});

afterAll(async () => {
  await removeCollections(app, [COLLECTION]);
  await app.close();
  await openalex.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('fetch --stubs', () => {
  it('labels the most cited stub of a collection with what OpenAlex knows, and only once', async () => {
    const run = await cli('fetch', '--stubs', '--top', '1', '--collection', COLLECTION, '--json');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ asked: 1, labelled: 1, notFound: 0, failed: [] });
    const stub = await app.catalog.paperById('W4234567890');
    expect(stub).toMatchObject({ stub: true, year: 2018, doi: '10.4018/jnn.20180101' });
    expect(openalex.requests.map((r) => r.key)).toContain('GET /works/W4234567890?');
    // The next run takes the next stub (W990000999: not recorded, so the lookup fails and it is left for later).
    const next = await cli('fetch', '--stubs', '--top', '1', '--collection', COLLECTION, '--json');
    const result = JSON.parse(next.stdout) as { asked: number; failed: Array<{ id: string }> };
    expect(result.asked).toBe(1);
    expect(result.failed.map((f) => f.id)).toEqual(['W990000999']);
    // Every lookup failed: nothing learnt, exit 5.
    expect(next.status).toBe(5);
    expect((await app.catalog.paperById('W990000999'))?.year ?? null).toBeNull();
  });

  it('refuses an unknown collection and a bad --top', async () => {
    expect((await cli('fetch', '--stubs', '--collection', 'stub-label')).status).toBe(2);
    expect((await cli('fetch', '--stubs', '--top', '0')).status).toBe(2);
  });

  it('exits 5 when every source of a fetch failed', async () => {
    const run = await cli('fetch', '--doi', '10.9999/never-recorded', '--source', 'openalex');
    expect(run.stdout).toMatch(/openalex: failed/);
    expect(run.status).toBe(5);
  });
});
