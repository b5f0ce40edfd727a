import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app, logger } = createTestContext();
const dir = mkdtempSync(path.join(os.tmpdir(), 'bad-input-'));
const works = gunzipSync(readFileSync(path.join(SHARED_DIR, 'data/synergy/works/Sep_2021.jsonl.gz')))
  .toString('utf8')
  .trim()
  .split('\n');

beforeAll(() => removeCollections(app, ['bad-input']));
afterAll(async () => {
  await removeCollections(app, ['bad-input']);
  await app.close();
});

/** Papers of this suite's collection. */
async function paperCount(): Promise<number> {
  const { collections } = await app.catalog.stats();
  return collections.find((row) => row.collection === 'bad-input')?.papers ?? 0;
}

describe('bad input', () => {
  it('reports bad lines with file and line, and ingests the rest', async () => {
    const lines = works.slice(0, 10);
    lines.splice(3, 0, '{"id": "https://openalex.org/W1", "title": truncated');
    lines.splice(6, 0, JSON.stringify({ title: 'A record without an id', publication_year: 2020 }));
    lines.splice(8, 0, '["not", "a", "work"]');
    const file = path.join(dir, 'mixed.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const summary = await app.ingest.ingestFiles([file], { embed: 'defer', collection: 'bad-input', progress: false });
    expect(summary.papersWritten).toBe(10);
    expect(summary.skipped).toEqual([
      { where: `${file}:4`, reason: expect.stringMatching(/invalid JSON/) },
      { where: `${file}:7`, reason: expect.stringMatching(/no OpenAlex work id/) },
      { where: `${file}:9[item 0]`, reason: expect.stringMatching(/not a JSON object/) },
      { where: `${file}:9[item 1]`, reason: expect.stringMatching(/not a JSON object/) },
      { where: `${file}:9[item 2]`, reason: expect.stringMatching(/not a JSON object/) },
    ]);
    expect(logger.lines.filter((line) => line.startsWith('warn:'))).toHaveLength(5);
    expect(await paperCount()).toBe(10);
  });

  it('keeps what a truncated gzip held before the cut, and damages nothing stored', async () => {
    const before = await app.catalog.stats();
    const storedPaper = await app.catalog.paperById(JSON.parse(works[0]!).id.split('/').pop());
    const gz = gzipSync(Buffer.from(`${works.slice(0, 200).join('\n')}\n`));
    const file = path.join(dir, 'cut.jsonl.gz');
    writeFileSync(file, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const summary = await app.ingest.ingestFiles([file], { embed: 'defer', collection: 'bad-input', progress: false });
    expect(summary.skipped).toHaveLength(1);
    expect(summary.skipped[0]).toMatchObject({
      reason: expect.stringMatching(/^truncated gzip: input ends after line \d+/),
    });
    const readLines = Number(/after line (\d+)/.exec(summary.skipped[0]!.reason)![1]);
    expect(summary.records).toBeGreaterThanOrEqual(readLines - 1);
    expect(summary.records).toBeLessThan(200);
    expect(await paperCount()).toBe(summary.records);
    // The ten papers stored before are still there, unchanged.
    expect(summary.papersUnchanged).toBe(10);
    expect(await app.catalog.paperById(storedPaper!.id)).toEqual(storedPaper);
    expect((await app.catalog.stats()).counts.paperNodes).toBeGreaterThanOrEqual(before.counts.paperNodes ?? 0);
  });

  it('writes no half paper: every stored paper has its authors, chunks and citations', async () => {
    const rows = await app.executor.autoCommit<{ incomplete: number }>({
      name: 'incomplete',
      text: `MATCH (p:Paper {stub: false})
             WHERE (p.abstract IS NOT NULL AND NOT EXISTS { (p)-[:HAS_CHUNK]->() })
                OR (p.referenceCount > 0 AND NOT EXISTS { (p)-[:CITES]->() })
             RETURN count(p) AS incomplete`,
    });
    expect(rows[0]!.incomplete).toBe(0);
  });
});
