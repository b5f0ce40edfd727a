import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../src/config/settings';
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
    // The ten papers stored before are still there, unchanged — but for their count of citations from the corpus,
    // which the newly written papers may raise (a stored aggregate, recounted by the write).
    expect(summary.papersUnchanged).toBe(10);
    const { internalCitedBy, ...after } = (await app.catalog.paperById(storedPaper!.id))!;
    const { internalCitedBy: countBefore, ...unchanged } = storedPaper!;
    expect(after).toEqual(unchanged);
    const [recount] = await app.executor.autoCommit<{ n: number }>({
      name: 'recount',
      text: 'MATCH (p:Paper {id: $id}) RETURN COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS n',
      params: { id: storedPaper!.id },
    });
    expect(internalCitedBy).toBe(recount!.n);
    expect(internalCitedBy).toBeGreaterThanOrEqual(countBefore as number);
    expect((await app.catalog.stats()).counts.paperNodes).toBeGreaterThanOrEqual(before.counts.paperNodes ?? 0);
  });

  it('stores only what the API can serve: out-of-range and mistyped fields are reported with file:line and field', async () => {
    const base = JSON.parse(works[20]!) as Record<string, unknown>;
    const lines = [
      { ...base, id: 'https://openalex.org/W990000001', publication_year: 3e9, cited_by_count: 1e20 },
      { ...base, id: 'https://openalex.org/W990000002', publication_year: 'abc', title: 42 },
      { ...base, id: 'https://openalex.org/W990000003', authorships: 'nobody' },
      { ...base, id: 'https://openalex.org/W990000001' },
    ].map((record) => JSON.stringify(record));
    const file = path.join(dir, 'odd-values.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const summary = await app.ingest.ingestFiles([file], { embed: 'defer', collection: 'bad-input', progress: false });
    expect(summary.papersWritten).toBe(3);
    expect(summary.warnings).toEqual(
      expect.arrayContaining([
        { where: `${file}:1`, reason: expect.stringMatching(/^publication_year: 3000000000 is outside 1000–2200/) },
        { where: `${file}:1`, reason: expect.stringMatching(/^cited_by_count: 100000000000000000000 is outside/) },
        { where: `${file}:2`, reason: expect.stringMatching(/^publication_year: expected a whole number, got "abc"/) },
        { where: `${file}:2`, reason: expect.stringMatching(/^title: expected text, got 42/) },
        { where: `${file}:3`, reason: expect.stringMatching(/^authorships: expected a list/) },
      ]),
    );
    // The duplicate is skipped and named with both places.
    expect(summary.skipped).toEqual([
      { where: `${file}:4`, reason: `duplicate id W990000001: the record at ${file}:1 was ingested, this one was not` },
    ]);
    const stored = await app.catalog.paperById('W990000001');
    expect(stored?.year).toBeUndefined();
    expect(stored?.citedByCount).toBeUndefined();
  });

  it('cuts a text over the size cap at a word boundary, and says so', async () => {
    const { app: capped, logger: cappedLogger } = createTestContext({ CITEGRAPH_MAX_TEXT_CHARS: '2000' });
    try {
      const base = JSON.parse(works[21]!) as Record<string, unknown>;
      const record = {
        ...base,
        id: 'https://openalex.org/W990000010',
        abstract_inverted_index: null,
        abstract: 'word '.repeat(100_000),
      };
      const file = path.join(dir, 'long.jsonl');
      writeFileSync(file, `${JSON.stringify(record)}\n`);
      const summary = await capped.ingest.ingestFiles([file], {
        embed: 'defer',
        collection: 'bad-input',
        progress: false,
      });
      expect(summary.warnings).toEqual([
        { where: `${file}:1`, reason: expect.stringMatching(/^abstract: 500000 characters, over the cap of 2000/) },
      ]);
      expect(cappedLogger.lines.some((line) => line.includes('over the cap'))).toBe(true);
      const stored = await capped.catalog.paperById('W990000010');
      expect((stored?.abstract ?? '').length).toBeLessThanOrEqual(2000);
      expect(summary.chunks).toBeLessThan(20);
    } finally {
      await capped.close();
    }
  });

  it('exits the command with code 4 when records were skipped, the summary still printed', () => {
    const file = path.join(dir, 'one-bad.jsonl');
    writeFileSync(file, `${works[30]}\nnot json\n`);
    const run = spawnSync(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'dist/src/cli/main.js'),
        'ingest',
        file,
        '--collection',
        'bad-input',
        '--defer-embedding',
      ],
      { env: { ...process.env }, encoding: 'utf8' },
    );
    expect(run.status).toBe(4);
    expect(run.stdout).toMatch(/records read: 1 [\s\S]*skipped: 1 /);
    const missing = spawnSync(
      process.execPath,
      [path.join(PROJECT_ROOT, 'dist/src/cli/main.js'), 'ingest', path.join(dir, 'nope.jsonl')],
      {
        env: { ...process.env },
        encoding: 'utf8',
      },
    );
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no such file or folder/);
  });

  it("prints any command's summary as JSON with --json, exit codes unchanged", () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'dist/src/cli/main.js'), ...args], {
        env: { ...process.env },
        encoding: 'utf8',
      });
    const file = path.join(dir, 'json-summary.jsonl');
    writeFileSync(file, `${works[31]}\n{"id": 5}\n`);
    const ingest = cli('ingest', file, '--collection', 'bad-input', '--defer-embedding', '--json');
    expect(ingest.status).toBe(4);
    const summary = JSON.parse(ingest.stdout) as { records: number; skipped: Array<{ where: string; reason: string }> };
    expect(summary.records).toBe(2);
    expect(summary.skipped).toEqual([{ where: `${file}:2`, reason: expect.any(String) as string }]);
    const embed = cli('embed', '--json');
    expect(embed.status).toBe(0);
    expect(JSON.parse(embed.stdout)).toMatchObject({ embedded: expect.any(Number) as number });
    // A companion model that does not exist is bad input (exit 2) naming the ones there are; nothing is embedded.
    const companion = cli('embed', '--companion', 'e6-tiny', '--json');
    expect(companion.status).toBe(2);
    expect(companion.stderr).toMatch(/--companion is one of minilm, bge-small, e5-small/);
    const schema = cli('schema', '--json');
    expect(JSON.parse(schema.stdout)).toEqual({ statements: expect.any(Number) as number });
    // An unknown collection is bad input (exit 2) that names the closest known ones; nothing is deleted.
    const deleted = cli('collection', 'delete', 'bad-inputs', '--json');
    expect(deleted.status).toBe(2);
    expect(deleted.stderr).toMatch(/no such collection: bad-inputs \(did you mean bad-input/);
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
