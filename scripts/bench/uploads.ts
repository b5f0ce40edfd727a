/**
 * Upload- and stream-abuse benchmark: every hostile document of scripts/lib/hostile-documents.ts at full size (pages 1e9
 * and 1e7 points wide, 100,000 text runs, a 2 KB PDF inflating to 1 GiB, quadratic Markdown, 20,000-deep nesting,
 * 40,000 one-word lines), two bombs at once, 50 concurrent 19 MB uploads, an upload whose client hangs up, 600 MB
 * and 15 MB, over-token and unguarded GET requests to /graphql/stream, and 10 stream clients that never read. For each case: the answer (status,
 * code), wall time, the server's largest event-loop lag, its resident memory above idle, and the health probe's
 * p50/p95 while the case ran. A case fails when it crashes the server, answers 5xx, lags the loop over 1 s, holds
 * over 1 GB above idle or lets health p95 pass 100 ms. Runs on the benchmark database (empty is fine).
 *
 *   scripts/bench/uploads
 */
import { type ChildProcess, fork } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { serveGraphQL } from '../../src/api/server';
import { applySchema } from '../../src/graph/schema';
import { processUsage } from '../../src/ingest/document-reader';
import { deleteAnonymousSets, openBenchApp } from './env';
import { deflateBombPdf, hostileDocuments } from '../lib/hostile-documents';

/**
 * A health probe every 20 ms, on a thread of its own that lives for the whole run (a new thread's first fetch is
 * slow): 'start' clears its latencies, 'stop' answers with the ones measured since.
 */
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
let latencies = [];
let running = true;
parentPort.on('message', (message) => {
  if (message === 'start') latencies = [];
  if (message === 'stop') parentPort.postMessage(latencies);
  if (message === 'exit') running = false;
});
(async () => {
  while (running) {
    const started = performance.now();
    try { await (await fetch(workerData.url)).text(); } catch {}
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
})();
`;

/** What the server process reports: its event loop's largest delay since the last reset, and its resident memory. */
interface ServerReport {
  readonly lagMs: number;
  readonly rss: number;
}

/**
 * The server side, in a process of its own (`--serve`), so that memory and loop lag are the server's, not the
 * benchmark client's (whose request bodies would count otherwise).
 */
async function serve(): Promise<void> {
  const app = await openBenchApp(
    { CITEGRAPH_RATE_LIMIT: '1000000', CITEGRAPH_EXTERNAL_SEARCH: 'false' },
    { llm: null },
  );
  await applySchema(app.executor);
  // Sets left by an earlier run would count against the anonymous caller's cap.
  await deleteAnonymousSets(app);
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  process.on('message', (message: string) => {
    if (message === 'reset') lag.reset();
    if (message === 'read') process.send!({ lagMs: lag.max / 1e6, rss: process.memoryUsage().rss });
    if (message === 'stop')
      void stop()
        .then(() => app.close())
        .then(() => process.exit(0));
  });
  process.send!({ url });
}

/** Asks the server process for its report. */
function report(server: ChildProcess, message: 'reset' | 'read'): Promise<ServerReport | null> {
  if (message === 'reset') {
    server.send('reset');
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    server.once('message', (answer: ServerReport) => resolve(answer));
    server.send('read');
  });
}

interface Measured {
  readonly name: string;
  readonly outcome: string;
  readonly ms: number;
  readonly lagMs: number;
  readonly rssAboveIdleMb: number;
  readonly healthP50: number;
  readonly healthP95: number;
  readonly problems: string[];
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function main(): Promise<void> {
  const server = fork(__filename, ['--serve'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const base = await new Promise<string>((resolve, reject) => {
    server.once('message', (message: { url: string }) => resolve(message.url.replace(/\/graphql$/, '')));
    server.once('exit', (code) => reject(new Error(`the server process stopped (exit ${code})`)));
  });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = (await report(server, 'read'))!.rss;
  const results: Measured[] = [];
  // The probe runs on a thread of its own: building a 15 MB request here must not delay it and read as the server's.
  const prober = new Worker(PROBER, { eval: true, workerData: { url: `${base}/healthz` } });
  await new Promise((resolve) => setTimeout(resolve, 500));
  /** Runs one case while probing /healthz every 20 ms, sampling the server's memory and, after, its loop lag. */
  const measure = async (name: string, run: () => Promise<string>): Promise<void> => {
    await report(server, 'reset');
    let peak = idle;
    prober.postMessage('start');
    const memory = setInterval(() => {
      peak = Math.max(peak, processUsage(server.pid!)?.rssBytes ?? 0);
    }, 20);
    const started = performance.now();
    let outcome: string;
    try {
      outcome = await run();
    } catch (error) {
      outcome = `threw ${(error as Error).message}`;
    }
    const ms = performance.now() - started;
    clearInterval(memory);
    const health = await new Promise<number[]>((resolve) => {
      prober.once('message', resolve);
      prober.postMessage('stop');
    });
    const after = server.exitCode === null ? await report(server, 'read') : null;
    if (!after) outcome += `; SERVER DIED (exit ${server.exitCode})`;
    const measured: Measured = {
      name,
      outcome,
      ms,
      lagMs: after?.lagMs ?? 0,
      rssAboveIdleMb: (Math.max(peak, after?.rss ?? 0) - idle) / 2 ** 20,
      healthP50: quantile(health, 0.5),
      healthP95: quantile(health, 0.95),
      problems: [],
    };
    // 503 OVERLOADED (come back later) is the designed answer to a flood; any other 5xx is a failure.
    if (/\b5\d\d (?!OVERLOADED)|threw|DIED/.test(outcome)) measured.problems.push(`answer ${outcome}`);
    if (measured.lagMs > 1000) measured.problems.push(`event loop lag ${measured.lagMs.toFixed(0)} ms`);
    if (measured.rssAboveIdleMb > 1024)
      measured.problems.push(`RSS ${measured.rssAboveIdleMb.toFixed(0)} MB above idle`);
    if (measured.healthP95 > 100) measured.problems.push(`health p95 ${measured.healthP95.toFixed(0)} ms`);
    results.push(measured);
  };
  const upload = async (name: string, bytes: Buffer): Promise<string> => {
    const response = await fetch(`${base}/document-sets`, {
      method: 'POST',
      headers: { 'x-document-name': name, 'content-type': 'application/octet-stream' },
      body: bytes,
    });
    const body = (await response.json()) as {
      errors?: Array<{ extensions?: { code?: string } }>;
      documentSet?: { id: string };
    };
    // Each case leaves no set behind (the anonymous caller may hold ten).
    if (body.documentSet) {
      await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          query: 'mutation ($id: ID!) { deleteDocumentSet(id: $id) }',
          variables: { id: body.documentSet.id },
        }),
      });
    }
    return `${response.status} ${body.errors?.[0]?.extensions?.code ?? 'ok'}`;
  };
  try {
    for (const document of await hostileDocuments()) {
      await measure(`${document.what} (${document.bytes.length} B)`, () => upload(document.name, document.bytes));
    }
    const bomb = await deflateBombPdf(1 << 30);
    await measure('two 1 GiB bombs at once', async () =>
      (await Promise.all([upload('a.pdf', bomb), upload('b.pdf', bomb)])).join(', '),
    );
    const big = Buffer.alloc(19_000_000, 0x61);
    await measure('50 concurrent 19 MB uploads', async () => {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => upload(`big-${i}.txt`, big)));
      const counts = new Map<string, number>();
      for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1);
      return [...counts].map(([answer, count]) => `${count}× ${answer}`).join(', ');
    });
    await measure('upload whose client hangs up after 1 s', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 1000);
      // Distinct sentences: identical chunks would be embedded once and the upload would finish before the hang-up.
      const sentences = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} is about aspirin dose ${i % 97}.`);
      const text = `# Long\n\n${sentences.join(' ')}`;
      const response = await fetch(`${base}/document-sets`, {
        method: 'POST',
        headers: { 'x-document-name': 'long.md' },
        body: text,
        signal: controller.signal,
      }).catch(() => null);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const listed = (await (
        await fetch(`${base}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ documentSets { documents { name } } }' }),
        })
      ).json()) as { data: { documentSets: Array<{ documents: Array<{ name: string }> }> } };
      const sets = listed.data.documentSets.flatMap((set) => set.documents).filter((d) => d.name === 'long.md').length;
      return `${response ? response.status : 'aborted'}; documents stored after hang-up: ${sets}`;
    });
    await measure('600 MB body to /graphql/stream', async () => {
      const port = new URL(base).port || '80';
      return new Promise<string>((resolve) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            path: '/graphql/stream',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': String(600 * 2 ** 20) },
          },
          (res) => {
            res.resume();
            resolve(String(res.statusCode));
            req.destroy();
          },
        );
        req.on('error', () => resolve('connection closed'));
        const chunk = Buffer.alloc(1 << 20, 0x20);
        let sent = 0;
        const pump = () => {
          while (sent < 600 && req.write(chunk)) sent += 1;
          if (sent < 600) req.once('drain', pump);
        };
        pump();
      });
    });
    const streamPost = async (query: string): Promise<string> => {
      const response = await fetch(`${base}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      return `${response.status} ${/"code":"(\w+)"/.exec(text)?.[1] ?? 'no code'}`;
    };
    await measure('15 MB subscription of repeated fields on /graphql/stream', () =>
      streamPost(`subscription { askStream(question: "x") { ${'kind '.repeat(3_000_000)} } }`),
    );
    await measure('subscription over the token limit (900 KB) on /graphql/stream', () =>
      streamPost(`subscription { askStream(question: "x") { ${'kind '.repeat(180_000)} } }`),
    );
    await measure('GET /graphql/stream without a preflight header', async () => {
      const query = encodeURIComponent('subscription { askStream(question: "x") { kind } }');
      const response = await fetch(`${base}/graphql/stream?query=${query}`, {
        headers: { accept: 'text/event-stream' },
      });
      const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
      return `${response.status} ${body.errors[0]!.extensions.code}`;
    });
    await measure('10 stream clients that never read', async () => {
      const address = new URL(base);
      const sockets = await Promise.all(
        Array.from(
          { length: 10 },
          () =>
            new Promise<import('node:http').IncomingMessage>((resolve) => {
              const req = httpRequest({
                host: address.hostname,
                port: address.port,
                path: '/graphql/stream',
                method: 'POST',
                headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
              });
              req.on('response', (res) => {
                res.pause();
                resolve(res);
              });
              req.end(
                JSON.stringify({
                  query:
                    'subscription { askStream(question: "Does aspirin prevent myocardial infarction?") { kind stage result { answer } } }',
                }),
              );
            }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 5000));
      for (const socket of sockets) socket.destroy();
      return `${sockets.map((s) => s.statusCode).join(',')}`;
    });
  } finally {
    prober.postMessage('exit');
    await prober.terminate();
    server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
  }
  const lines = [
    '| case | answer | ms | loop lag ms | RSS above idle MB | health p50 / p95 ms |',
    '|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.name} | ${r.outcome} | ${r.ms.toFixed(0)} | ${r.lagMs.toFixed(0)} | ${r.rssAboveIdleMb.toFixed(0)} | ${r.healthP50.toFixed(1)} / ${r.healthP95.toFixed(1)} |`,
    ),
    '',
    `problems: ${results.reduce((n, r) => n + r.problems.length, 0)}`,
    ...results.flatMap((r) => r.problems.map((problem) => `  ${r.name}: ${problem}`)),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  if (results.some((r) => r.problems.length > 0)) process.exitCode = 1;
}

if (require.main === module && process.argv.includes('--serve')) {
  serve().catch((error: unknown) => {
    process.stderr.write(`bench-uploads server: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
} else if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench-uploads: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}
