/**
 * Fault benchmark: a server on the benchmark database under mixed load (searches, paper lists, exports, uploads and a
 * health probe), while the database process is stopped (SIGSTOP: it still accepts connections and answers nothing)
 * for `--stop` seconds and then continued. Prints, per phase (before, stopped, after), the requests, their status and
 * error codes, p50/p95 latency; the time from the stop to the first error answer; whether any answer was a 500 or
 * carried driver text; and the time from the continue to the first success. Embedded database only (it needs the
 * process id).
 *
 *   scripts/bench/fault [--stop 20] [--clients 6]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serveGraphQL } from '../../src/api/server';
import { PROJECT_ROOT } from '../../src/config/settings';
import { applySchema } from '../../src/graph/schema';
import { BENCH_ENV, deleteAnonymousSets, openBenchApp, runWhenMain } from './env';

interface Sample {
  readonly at: number;
  readonly kind: string;
  readonly status: number;
  readonly code: string;
  readonly ms: number;
  readonly leak: boolean;
}

const arg = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

async function main(): Promise<void> {
  const stopSeconds = arg('stop', 20);
  const clients = arg('clients', 6);
  if (process.env.NEO4J_URI) throw new Error('bench-fault stops the embedded database: unset NEO4J_URI');
  const app = await openBenchApp(
    { CITEGRAPH_RATE_LIMIT: '1000000', CITEGRAPH_EXTERNAL_SEARCH: 'false' },
    { llm: null },
  );
  const pid = Number(readFileSync(path.join(BENCH_ENV.CITEGRAPH_NEO4J_DATA, 'citegraph-neo4j.pid'), 'utf8').trim());
  // Something to search and list: the bundled sample (unchanged on a second run).
  await applySchema(app.executor);
  // Sets left by an earlier run would count against the anonymous caller's cap.
  await deleteAnonymousSets(app);
  await app.ingest.ingestFiles([path.join(PROJECT_ROOT, 'data', 'sample', 'nelson-2002.jsonl.gz')], {
    embed: 'now',
    collection: 'bench-fault',
    progress: false,
  });
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  const base = url.replace(/\/graphql$/, '');
  const created = (await (
    await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { createDocumentSet { id } }' }),
    })
  ).json()) as { data: { createDocumentSet: { id: string } } };
  const setId = created.data.createDocumentSet.id;
  const samples: Sample[] = [];
  const started = performance.now();
  const now = () => performance.now() - started;
  const gql = (query: string) => ({
    url: `${base}/graphql`,
    init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
  });
  const kinds: Array<{ kind: string; make: () => { url: string; init: RequestInit } }> = [
    { kind: 'search', make: () => gql('{ search(query: "aspirin heart", first: 5) { results { paper { id } } } }') },
    { kind: 'papers', make: () => gql('{ papers(first: 10) { edges { node { id title } } } }') },
    { kind: 'export', make: () => ({ url: `${base}/export/papers?format=ris&ids=W1,W2`, init: {} }) },
    {
      // Into one set (the same file again is `unchanged`, which still reads the set): no cap is reached.
      kind: 'upload',
      make: () => ({
        url: `${base}/document-sets/${setId}/documents`,
        init: { method: 'POST', headers: { 'x-document-name': 'note.md' }, body: '# Note\n\nAspirin and the heart.' },
      }),
    },
  ];
  let running = true;
  const send = async (kind: string, request: { url: string; init: RequestInit }) => {
    const at = now();
    const t0 = performance.now();
    let status = 0;
    let text: string;
    try {
      const response = await fetch(request.url, { ...request.init, signal: AbortSignal.timeout(90_000) });
      status = response.status;
      text = await response.text();
    } catch (error) {
      text = (error as Error).message;
    }
    const code = /"code":"(\w+)"/.exec(text)?.[1] ?? (status >= 200 && status < 300 ? 'ok' : 'none');
    const leak = /Neo4jError|Neo\.\w+Error|at [\w.]+ \(|bolt:\/\//.test(text);
    samples.push({ at, kind, status, code, ms: performance.now() - t0, leak });
  };
  const loops = Array.from({ length: clients }, async (_, index) => {
    const kind = kinds[index % kinds.length]!;
    while (running) {
      await send(kind.kind, kind.make());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  const health = (async () => {
    while (running) {
      await send('healthz', { url: `${base}/healthz`, init: {} });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const stoppedAt = now();
  process.kill(pid, 'SIGSTOP');
  await new Promise((resolve) => setTimeout(resolve, stopSeconds * 1000));
  const continuedAt = now();
  process.kill(pid, 'SIGCONT');
  await new Promise((resolve) => setTimeout(resolve, 20_000));
  running = false;
  await Promise.all([...loops, health]);
  await stop();
  await app.close();

  const phase = (sample: Sample) => (sample.at < stoppedAt ? 'before' : sample.at < continuedAt ? 'stopped' : 'after');
  const quantile = (values: number[], q: number) =>
    values.length === 0 ? 0 : values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
  const lines = [
    `fault: database stopped ${stopSeconds} s under ${clients} clients + health probe (every 250 ms)`,
    '',
    '| phase | kind | requests | statuses | codes | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const name of ['before', 'stopped', 'after']) {
    for (const kind of ['search', 'papers', 'export', 'upload', 'healthz']) {
      const rows = samples.filter((s) => phase(s) === name && s.kind === kind);
      if (rows.length === 0) continue;
      const count = (values: string[]) => {
        const counts = new Map<string, number>();
        for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
        return [...counts].map(([value, n]) => `${value}×${n}`).join(' ');
      };
      lines.push(
        `| ${name} | ${kind} | ${rows.length} | ${count(rows.map((r) => String(r.status)))} | ${count(rows.map((r) => r.code))} | ${quantile(
          rows.map((r) => r.ms),
          0.5,
        ).toFixed(0)} | ${quantile(
          rows.map((r) => r.ms),
          0.95,
        ).toFixed(0)} |`,
      );
    }
  }
  const firstError = samples
    .filter((s) => s.kind !== 'healthz' && s.at + s.ms >= stoppedAt && /DATABASE|DEADLINE/.test(s.code))
    .map((s) => s.at + s.ms)
    .sort((a, b) => a - b)[0];
  const firstOk = samples
    .filter((s) => s.kind !== 'healthz' && s.at >= continuedAt && s.code === 'ok')
    .map((s) => s.at + s.ms)
    .sort((a, b) => a - b)[0];
  const fivehundreds = samples.filter((s) => s.status === 500).length;
  const leaks = samples.filter((s) => s.leak).length;
  lines.push(
    '',
    `time from stop to first error answer: ${firstError === undefined ? 'none' : `${((firstError - stoppedAt) / 1000).toFixed(1)} s`}`,
    `time from continue to first success: ${firstOk === undefined ? 'none' : `${((firstOk - continuedAt) / 1000).toFixed(1)} s`}`,
    `HTTP 500 answers: ${fivehundreds}; answers with driver text: ${leaks}`,
    '',
  );
  process.stdout.write(lines.join('\n'));
  if (fivehundreds > 0 || leaks > 0 || firstOk === undefined) process.exitCode = 1;
}

runWhenMain(module, 'bench-fault', main);
