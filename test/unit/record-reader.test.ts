import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { readRecords, type RawRecord } from '../../src/ingest/record-reader';
import { defaultCollection } from '../../src/ingest/record-ingest';

const dir = mkdtempSync(path.join(os.tmpdir(), 'reader-'));

async function readAll(file: string): Promise<RawRecord[]> {
  const out: RawRecord[] = [];
  for await (const record of readRecords(file)) out.push(record);
  return out;
}

describe('record reader', () => {
  it('reads JSON Lines and reports a bad line by number, continuing after it', async () => {
    const file = path.join(dir, 'a.jsonl');
    writeFileSync(file, '{"id":"W1"}\n{"id": broken\n\n{"id":"W3"}\n');
    const records = await readAll(file);
    expect(records.map((r) => r.kind)).toEqual(['record', 'error', 'record']);
    expect(records[1]).toMatchObject({ where: `${file}:2` });
    expect(records[2]).toMatchObject({ where: `${file}:4`, value: { id: 'W3' } });
  });

  it('reads gzip, and reports a truncated gzip with how far it got', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ id: `W${i}`, pad: 'x'.repeat(50 + (i % 17)) }),
    ).join('\n');
    const gz = gzipSync(Buffer.from(lines));
    const whole = path.join(dir, 'whole.jsonl.gz');
    writeFileSync(whole, gz);
    expect((await readAll(whole)).filter((r) => r.kind === 'record')).toHaveLength(2000);

    const truncated = path.join(dir, 'cut.jsonl.gz');
    writeFileSync(truncated, gz.subarray(0, Math.floor(gz.length / 2)));
    const records = await readAll(truncated);
    const good = records.filter((r) => r.kind === 'record');
    const errors = records.filter((r) => r.kind === 'error');
    expect(good.length).toBeGreaterThan(100);
    expect(good.length).toBeLessThan(2000);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ reason: expect.stringMatching(/truncated gzip/) });
  });

  it('reads a JSON array and an API result page', async () => {
    const array = path.join(dir, 'b.json');
    writeFileSync(array, JSON.stringify([{ id: 'W1' }, { id: 'W2' }], null, 2));
    expect((await readAll(array)).map((r) => r.kind === 'record' && r.value)).toEqual([{ id: 'W1' }, { id: 'W2' }]);

    const page = path.join(dir, 'page.json');
    writeFileSync(page, JSON.stringify({ meta: { count: 2 }, results: [{ id: 'W5' }, { id: 'W6' }] }, null, 2));
    const records = await readAll(page);
    expect(records).toHaveLength(2);
    expect(records[1]).toMatchObject({ where: `${page}[result 1]`, value: { id: 'W6' } });
  });

  it('reports an invalid whole document', async () => {
    const file = path.join(dir, 'bad.json');
    writeFileSync(file, '[\n {"id": 1},\n');
    expect(await readAll(file)).toEqual([
      { kind: 'error', where: file, reason: expect.stringMatching(/invalid JSON document/) },
    ]);
  });

  it('reports a missing file', async () => {
    expect((await readAll(path.join(dir, 'nope.jsonl')))[0]).toMatchObject({
      kind: 'error',
      reason: expect.stringMatching(/cannot open/),
    });
  });

  it('names collections from files', () => {
    expect(defaultCollection('/x/works/Chou_2004.jsonl.gz')).toBe('Chou_2004');
    expect(defaultCollection('/data/scifact/corpus.jsonl.gz')).toBe('scifact');
  });
});
