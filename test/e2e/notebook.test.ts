import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serveGraphQL } from '../../src/api/server';
import { PROJECT_ROOT } from '../../src/config/settings';
import { createTestContext, ingestSample, removeCollections } from '../helpers/context';

/**
 * examples/citegraph.ipynb run headless (scripts/tools/run-notebook.js: nbclient in a local virtual environment with the
 * packages of examples/requirements.txt) against a server on the bundled sample: every cell runs without error, and
 * the notebook's own check — each cited quote equals the abstract between its offsets — holds.
 */
const OWN = 'notebook-sample';
const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  await ingestSample(app, OWN);
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
}, 600_000);

afterAll(async () => {
  await stop();
  await removeCollections(app, [OWN]);
  await app.close();
});

interface Cell {
  cell_type: string;
  outputs?: Array<{ output_type: string; text?: string | string[]; data?: Record<string, unknown> }>;
}

it('runs the notebook with no cell error, plots drawn and quotes verified', async () => {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'notebook-test-')), 'citegraph.ipynb');
  // The server runs in this process: the notebook must run beside it, not block it (spawnSync would).
  const run = await new Promise<{ status: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'scripts/tools/run-notebook.js'),
        '--url',
        url.replace(/\/graphql$/, ''),
        '--collection',
        OWN,
        '--out',
        out,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (status) => resolve({ status, output: output.slice(-4000) }));
  });
  // On failure the runner's output (the failing cell's traceback) is in the message.
  expect(run).toMatchObject({ status: 0 });
  const notebook = JSON.parse(readFileSync(out, 'utf8')) as { cells: Cell[] };
  const code = notebook.cells.filter((c) => c.cell_type === 'code');
  expect(code.length).toBeGreaterThanOrEqual(8);
  const outputs = code.flatMap((c) => c.outputs ?? []);
  expect(outputs.filter((o) => o.output_type === 'error')).toEqual([]);
  // Four figures (trends, co-authorship map, timeline of fronts, co-citation network) and the DataFrames as tables.
  expect(outputs.filter((o) => o.data && 'image/png' in o.data)).toHaveLength(4);
  const html = (o: Cell['outputs'] extends Array<infer O> | undefined ? O : never) => {
    const value = o.data?.['text/html'];
    return Array.isArray(value) ? value.join('') : typeof value === 'string' ? value : '';
  };
  expect(outputs.some((o) => html(o).includes('<table'))).toBe(true);
  const printed = outputs.map((o) => (Array.isArray(o.text) ? o.text.join('') : (o.text ?? ''))).join('');
  expect(printed).toMatch(/(\d+) of \1 quotes equal the source text between their offsets/);
  expect(printed).toMatch(/@article\{/);
}, 900_000);

it('is committed with its outputs, so it reads well on its own', () => {
  const committed = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'examples/citegraph.ipynb'), 'utf8')) as {
    cells: Cell[];
  };
  const code = committed.cells.filter((c) => c.cell_type === 'code');
  expect(code.every((c) => (c.outputs ?? []).length > 0)).toBe(true);
  expect(spawnSync('git', ['check-ignore', '-q', 'examples/citegraph.ipynb'], { cwd: PROJECT_ROOT }).status).not.toBe(
    0,
  );
});
