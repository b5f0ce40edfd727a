/**
 * How cost grows with the graph: synthetic OpenAlex-shaped graphs (scripts/tools/synthetic-works, fixed seed) of each
 * size are ingested into an empty database (embeddings skipped), then every analytics query of
 * scripts/bench/analytics and the sparse part of `search` are timed. Prints ingest per record and p95 per query at
 * each size, and the growth between consecutive sizes next to the growth of the graph: a query that grows faster
 * than the graph is marked.
 *
 *   scripts/bench/growth [--sizes 10000,100000] [--seed 42] [--runs 5] [--bulk] [--per-paper-only]
 *
 * --bulk loads each graph through `citegraph bulk-load` (CSV + neo4j-admin database import) instead of Bolt ingest.
 *
 * Uses its own embedded Neo4j (port 7700, store .data/neo4j-bench-growth), emptied for each size, unless NEO4J_URI
 * is set, in which case that database is EMPTIED. Generated works are kept in .cache/synthetic/.
 */
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createAppContext, type AppContext } from '../../src/app-context';
import { loadSettings, PROJECT_ROOT, type Settings } from '../../src/config/settings';
import { stopEmbedded } from '../../src/graph/embedded-server';
import { queries } from '../../src/graph/query-registry';
import { applySchema } from '../../src/graph/schema';
import { bulkLoad } from '../../src/cli/bulk-load';
import { silentLogger } from '../../src/logger';
import { analyticsCases, timeCases } from './analytics';
import { argument, freshStoreSettings, runWhenMain } from './env';
import { writeSyntheticWorks } from '../tools/synthetic-works';

const GROWTH_ENV = {
  CITEGRAPH_NEO4J_PORT: '7700',
  CITEGRAPH_NEO4J_DATA: path.join(PROJECT_ROOT, '.data', 'neo4j-bench-growth'),
  CITEGRAPH_NEO4J_PAGECACHE: '4g',
  CITEGRAPH_NEO4J_HEAP: '4g',
  // A query that runs away on a large graph fails after two minutes and is reported, instead of stalling the run.
  CITEGRAPH_NEO4J_READ_TIMEOUT_MS: '120000',
};

interface SizeResult {
  readonly papers: number;
  readonly graph: Record<string, number>;
  readonly ingestSeconds: number;
  readonly generateSeconds: number;
  readonly timings: Map<string, number>;
}

async function openEmptyApp(bulk: boolean): Promise<{ app: AppContext; settings: Settings; external: boolean }> {
  if (bulk && process.env.NEO4J_URI) throw new Error('--bulk loads the embedded store: unset NEO4J_URI');
  // The bulk path stops and restarts the embedded server itself: it needs the embedded settings, not a URI.
  const { settings, external } = await freshStoreSettings(GROWTH_ENV, {}, { embedded: bulk });
  const app = createAppContext({ settings, logger: silentLogger, llm: null });
  await app.executor.autoCommit(queries().clearDatabase({}));
  await applySchema(app.executor);
  return { app, settings, external };
}

async function measureSize(
  papers: number,
  seed: number,
  runs: number,
  bulk: boolean,
  perPaperOnly: boolean,
): Promise<SizeResult> {
  const dir = path.join(PROJECT_ROOT, '.cache', 'synthetic');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `works-${papers}-seed${seed}.jsonl.gz`);
  let generateSeconds = 0;
  if (!existsSync(file) || statSync(file).size === 0) {
    const started = Date.now();
    await writeSyntheticWorks(`${file}.part`, { papers, seed });
    rmSync(file, { force: true });
    renameSync(`${file}.part`, file);
    generateSeconds = (Date.now() - started) / 1000;
  }
  const { app, external } = await openEmptyApp(bulk);
  try {
    const collection = `synthetic-${papers}`;
    let summary;
    let ingestSeconds;
    if (bulk) {
      const result = await bulkLoad(app, [file], { collection });
      summary = result.summary;
      ingestSeconds = result.seconds.total;
      process.stdout.write(
        `${papers} works: bulk load ${ingestSeconds.toFixed(1)} s (CSV ${result.seconds.csv.toFixed(1)} s, neo4j-admin import ${result.seconds.import.toFixed(1)} s, indexes and aggregates ${result.seconds.schema.toFixed(1)} s)\n`,
      );
    } else {
      summary = await app.ingest.ingestFiles([file], { embed: 'defer', collection, progress: false });
      ingestSeconds = summary.timings.totalMs / 1000;
      process.stdout.write(
        `${papers} works: ingested in ${ingestSeconds.toFixed(1)} s (${summary.papersWritten} written, ${summary.skipped.length} skipped)\n`,
      );
    }
    const { counts } = await app.catalog.stats();
    const read = <T extends object>(text: string) => app.executor.autoCommit<T>({ name: 'bench-growth', text });
    const topics = (
      await read<{ id: string }>(
        'MATCH (t:Topic)<-[:HAS_TOPIC]-(p:Paper) WHERE t.level >= 1 WITH t, count(p) AS n ORDER BY n DESC, t.id LIMIT 6 RETURN t.id AS id',
      )
    ).map((row) => row.id);
    const authors = (await app.analytics.topAuthors(null, 'INTERNAL_CITATIONS', { skip: 0, limit: runs })).items.map(
      (row) => row.author.id,
    );
    const cited = (await app.analytics.topPapers(null, 'INTERNAL_CITATIONS', { skip: 0, limit: runs })).items.map(
      (row) => row.paper.id,
    );
    const cases = analyticsCases(app, { authors, papers: cited, mostCited: cited[0]!, topics, largest: collection });
    const names = (
      await read<{ name: string }>(
        'MATCH (t:Topic) WHERE t.level >= 2 WITH t ORDER BY t.id LIMIT 20 RETURN t.name AS name',
      )
    ).map((row) => row.name);
    const ctx = app.requestContext();
    cases.unshift([
      'search, sparse part (BM25, 10 results)',
      (i) =>
        app.search.search(ctx, names[i % names.length]!, 10, null, {
          dense: false,
          citation: false,
          passages: 0,
        }),
    ]);
    const timings = new Map<string, number>();
    // Collection-level measures are budgeted on a review (≤ 2,000 papers); `--per-paper-only` leaves them out at
    // sizes where they would take the whole graph as their collection.
    const chosen = perPaperOnly ? cases.filter(([name]) => !name.includes('largest review')) : cases;
    for (const row of await timeCases(chosen, runs, 1)) {
      const name = row.name.replace(/\(synthetic-\d+\)/, '(the synthetic collection)');
      timings.set(name, row.p95);
      process.stdout.write(
        row.failed ? `  ${row.name}: FAILED ${row.failed}\n` : `  ${row.name}: p95 ${row.p95.toFixed(1)} ms\n`,
      );
    }
    return {
      papers,
      graph: counts,
      ingestSeconds,
      generateSeconds,
      timings,
    };
  } finally {
    await app.close();
    if (!external) await stopEmbedded(loadSettings({ ...process.env, ...GROWTH_ENV }));
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const sizes = (argument(args, '--sizes') ?? '10000,100000').split(',').map(Number);
  const seed = Number(argument(args, '--seed') ?? 42);
  const runs = Number(argument(args, '--runs') ?? 5);
  const results: SizeResult[] = [];
  const bulk = args.includes('--bulk');
  const perPaperOnly = args.includes('--per-paper-only');
  for (const size of sizes) results.push(await measureSize(size, seed, runs, bulk, perPaperOnly));

  const lines = [
    '',
    `Synthetic graphs (seed ${seed}), ${cpus().length} cores, embeddings skipped, loaded by ${bulk ? 'bulk-load (CSV + neo4j-admin import)' : 'Bolt ingest'}; p95 of ${runs} runs after 1 warm-up run`,
    '',
    `| size | papers | stubs | CITES | authors | generate s | ${bulk ? 'bulk load' : 'ingest'} s | µs/record |`,
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.papers} | ${(r.graph.paperNodes ?? 0) - (r.graph.stubPapers ?? 0)} | ${r.graph.stubPapers ?? 0} | ${r.graph.cites ?? 0} | ${r.graph.authorNodes ?? 0} | ${r.generateSeconds.toFixed(1)} | ${r.ingestSeconds.toFixed(1)} | ${((r.ingestSeconds * 1e6) / r.papers).toFixed(0)} |`,
    ),
    '',
    `| query | ${results.map((r) => `p95 ms @${r.papers}`).join(' | ')} | ${results
      .slice(1)
      .map((r, i) => `growth ${results[i]!.papers}→${r.papers} (graph ×${(r.papers / results[i]!.papers).toFixed(0)})`)
      .join(' | ')} |`,
    `|---|${results.map(() => '---').join('|')}|${results
      .slice(1)
      .map(() => '---')
      .join('|')}|`,
  ];
  for (const name of results[0]?.timings.keys() ?? []) {
    const cells = results.map((r) => r.timings.get(name));
    const shown = (value: number | undefined) =>
      value === undefined ? '–' : Number.isNaN(value) ? 'failed' : value.toFixed(1);
    const growth = results.slice(1).map((r, i) => {
      const before = results[i]!.timings.get(name);
      const after = r.timings.get(name);
      if (before === undefined || after === undefined || Number.isNaN(before) || Number.isNaN(after)) return '–';
      const factor = after / Math.max(before, 0.1);
      const faster = factor > r.papers / results[i]!.papers;
      return `×${factor.toFixed(1)}${faster ? ' **faster than the graph**' : ''}`;
    });
    lines.push(`| ${name} | ${cells.map(shown).join(' | ')} | ${growth.join(' | ')} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

runWhenMain(module, 'bench-growth', main);
