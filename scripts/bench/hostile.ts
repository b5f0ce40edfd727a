/**
 * Hostile-input benchmark: every generated hostile input (scripts/lib/hostile-inputs.ts) sent to a server on the bench
 * database. Prints how many ended in each outcome and every problem found — a 5xx, internal details, an error
 * response over 64 KB, DATABASE_ERROR or INTERNAL from user input — and whether `stats` is the same before and after.
 *
 *   scripts/bench/hostile [--concurrency 4]
 */
import { serveGraphQL } from '../../src/api/server';
import { openBenchApp, runWhenMain } from './env';
import { allCases, type HostileCase, outcomeOf } from '../lib/hostile-inputs';

async function send(url: string, item: HostileCase): Promise<{ status: number; text: string; ms: number }> {
  const started = process.hrtime.bigint();
  const method = item.method ?? 'POST';
  const target = new URL(url);
  if (item.path) target.pathname = item.path;
  if (item.search) target.search = item.search;
  const response = await fetch(target, {
    method,
    headers: { 'content-type': item.contentType ?? 'application/json', ...item.headers },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body: item.raw ?? JSON.stringify(item.body) }),
  });
  const text = await response.text();
  return { status: response.status, text, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const concurrency = args.includes('--concurrency') ? Number(args[args.indexOf('--concurrency') + 1]) : 4;
  const app = await openBenchApp(
    { CITEGRAPH_RATE_LIMIT: '1000000', CITEGRAPH_EXTERNAL_SEARCH: 'false' },
    { llm: null },
  );
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  try {
    const [sample] = await app.executor.autoCommit<{ paperId: string; authorId: string; topicId: string }>({
      name: 'samples',
      text: `MATCH (a:Author {anonymous: false})-[:AUTHORED]->(p:Paper {stub: false})-[:HAS_TOPIC]->(t:Topic)
             WHERE EXISTS { (p)-[:CITES]->() } RETURN p.id AS paperId, a.id AS authorId, t.id AS topicId LIMIT 1`,
    });
    const cases = allCases(sample!);
    const statsQuery = {
      query:
        '{ stats { papers stubPapers authors anonymousAuthors chunks citesBetweenPapers labels { label count } relationships { type count } } }',
    };
    const before = (await send(url, { name: 'stats', body: statsQuery })).text;
    const outcomes = new Map<string, number>();
    const problems: string[] = [];
    const latencies: number[] = [];
    let next = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < cases.length) {
          const item = cases[next++]!;
          const { status, text, ms } = await send(url, item);
          latencies.push(ms);
          const result = outcomeOf(status, text, item.method);
          if (item.expect && !result.outcome.split('+').includes(item.expect)) {
            result.problems.push(`expected ${item.expect}, got ${result.outcome}`);
          }
          outcomes.set(result.outcome, (outcomes.get(result.outcome) ?? 0) + 1);
          for (const problem of result.problems) problems.push(`${item.name}: ${problem}`);
        }
      }),
    );
    const after = (await send(url, { name: 'stats', body: statsQuery })).text;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(0);
    process.stdout.write(
      [
        `hostile inputs: ${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s (${concurrency} at once); latency ms p50 ${at(0.5)} p95 ${at(0.95)} max ${at(1)}`,
        '',
        '| outcome | cases |',
        '|---|---|',
        ...[...outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([outcome, count]) => `| ${outcome} | ${count} |`),
        '',
        `problems: ${problems.length}`,
        ...problems.slice(0, 50).map((problem) => `  ${problem}`),
        `stats identical before and after: ${before === after ? 'yes' : 'NO'}`,
        '',
      ].join('\n'),
    );
    if (problems.length > 0 || before !== after) process.exitCode = 1;
  } finally {
    await stop();
    await app.close();
  }
}

runWhenMain(module, 'bench-hostile', main);
