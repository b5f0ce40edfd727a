/**
 * Load benchmark: a citegraph server (a child process, `citegraph serve`) on the bench database, 16 clients calling
 * `search` for 60 s and 4 calling `ask` for the first 30 s, while a `health` probe runs every 250 ms. Prints
 * requests/s, p50/p95/p99 and errors per operation, the server's RSS before, at peak and after, and the probe's p95
 * (which must stay under 100 ms: cheap reads never wait behind heavy ones).
 *
 *   scripts/bench/load [--search-clients 16] [--ask-clients 4] [--seconds 60] [--ask-seconds 30]
 *
 * Queries are SciFact training claims (../shared). The server runs with external search off and no LLM (offline
 * answers), and a rate limit high enough not to be what is measured.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { loadQueries, percentile } from '../../src/retrieval/evaluation';
import { BENCH_ENV, runWhenMain } from './env';

interface Sample {
  readonly ms: number;
  readonly code: string;
}

function option(args: string[], name: string, fallback: number): number {
  return args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

async function post(url: string, query: string, variables: Record<string, unknown>): Promise<Sample> {
  const started = process.hrtime.bigint();
  let code = 'ok';
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
    if (json.errors?.length) code = json.errors[0]?.extensions?.code ?? `HTTP ${response.status}`;
    else if (!response.ok) code = `HTTP ${response.status}`;
  } catch (error) {
    code = `network: ${(error as Error).message}`;
  }
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, code };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const sample = await post(url, '{ health { ok databaseReachable } }', {});
    if (sample.code === 'ok') return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the server did not answer within 120 s');
}

function summary(name: string, samples: Sample[], seconds: number): string {
  const ms = samples.map((sample) => sample.ms).sort((a, b) => a - b);
  const errors = new Map<string, number>();
  for (const sample of samples) if (sample.code !== 'ok') errors.set(sample.code, (errors.get(sample.code) ?? 0) + 1);
  const errorText = [...errors.entries()].map(([code, count]) => `${code} ${count}`).join(', ') || '0';
  const at = (q: number) => (ms.length ? percentile(ms, q * 100).toFixed(0) : '-');
  return `| ${name} | ${samples.length} | ${(samples.length / seconds).toFixed(1)} | ${at(0.5)} | ${at(0.95)} | ${at(0.99)} | ${errorText} |`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const searchClients = option(args, '--search-clients', 16);
  const askClients = option(args, '--ask-clients', 4);
  const seconds = option(args, '--seconds', 60);
  const askSeconds = option(args, '--ask-seconds', 30);
  const queries = loadQueries(path.resolve(PROJECT_ROOT, '..', 'shared', 'data', 'scifact', 'queries.train.jsonl'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/graphql`;
  const child = spawn(
    process.execPath,
    [path.join(PROJECT_ROOT, 'bin', 'citegraph'), 'serve', '--port', String(port)],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        ...BENCH_ENV,
        NEO4J_URI: process.env.NEO4J_URI ?? `bolt://127.0.0.1:${BENCH_ENV.CITEGRAPH_NEO4J_PORT}`,
        CITEGRAPH_EXTERNAL_SEARCH: 'false',
        CITEGRAPH_RATE_LIMIT: '1000000',
        OPENAI_BASE_URL: '',
        OPENAI_API_KEY: '',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let serverLog = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    serverLog = (serverLog + chunk.toString()).slice(-4000);
  });
  try {
    await waitReady(url, child);
    // Warm-up: the embedding model, JIT, the page cache.
    for (const query of queries.slice(0, 5)) await post(url, SEARCH, { query: query.text });
    await post(url, ASK, { question: queries[0]!.text });
    const rssBefore = rssMb(child.pid!);
    let rssPeak = rssBefore;
    const rssTimer = setInterval(() => {
      try {
        rssPeak = Math.max(rssPeak, rssMb(child.pid!));
      } catch {
        // the server is gone; the clients will say so
      }
    }, 250);

    const started = Date.now();
    const searchEnd = started + seconds * 1000;
    const askEnd = started + askSeconds * 1000;
    const searches: Sample[] = [];
    const asks: Sample[] = [];
    const probes: Sample[] = [];
    let nextQuery = 10;
    const pick = () => queries[nextQuery++ % queries.length]!.text;
    const searchClient = async () => {
      while (Date.now() < searchEnd) searches.push(await post(url, SEARCH, { query: pick() }));
    };
    const askClient = async () => {
      while (Date.now() < askEnd) asks.push(await post(url, ASK, { question: pick() }));
    };
    const probe = async () => {
      while (Date.now() < searchEnd) {
        const tick = Date.now();
        probes.push(await post(url, '{ health { ok databaseReachable } }', {}));
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, 250 - (Date.now() - tick))));
      }
    };
    await Promise.all([
      ...Array.from({ length: searchClients }, searchClient),
      ...Array.from({ length: askClients }, askClient),
      probe(),
    ]);
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(rssTimer);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const rssAfter = rssMb(child.pid!);
    const probeP95 = percentile(
      probes.map((sample) => sample.ms).sort((a, b) => a - b),
      95,
    );
    process.stdout.write(
      [
        `load: ${searchClients} search clients for ${seconds} s, ${askClients} ask clients for ${askSeconds} s, a health probe every 250 ms`,
        '',
        '| operation | requests | per second | p50 ms | p95 ms | p99 ms | errors |',
        '|---|---|---|---|---|---|---|',
        summary('search', searches, elapsed),
        summary('ask', asks, Math.min(elapsed, askSeconds)),
        summary('health probe', probes, elapsed),
        '',
        `server RSS MB: before ${rssBefore.toFixed(0)}, peak ${rssPeak.toFixed(0)}, after ${rssAfter.toFixed(0)} (5 s after the load)`,
        `health probe p95 ${probeP95.toFixed(1)} ms (target < 100 ms): ${probeP95 < 100 ? 'met' : 'NOT met'}`,
        '',
      ].join('\n'),
    );
    if (probeP95 >= 100) process.exitCode = 1;
  } catch (error) {
    process.stderr.write(`server log (tail):\n${serverLog}\n`);
    throw error;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const SEARCH = `query ($query: String!) { search(query: $query, first: 10) { results { score paper { id title year } } } }`;
const ASK = `query ($question: String!) { ask(question: $question) { answer abstained generator } }`;

runWhenMain(module, 'bench-load', main);
