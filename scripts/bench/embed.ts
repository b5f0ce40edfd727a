/**
 * Embedding benchmark, two parts.
 *
 * 1. ONNX Runtime options on a fixed sample (the first N SciFact abstracts, title and text as ingest embeds them):
 *    texts/s per graph optimisation level, intra-op threads and batch size, and the smallest cosine between each
 *    configuration's vectors and the reference's (the settings before issue 15: basic, default threads, batch 16).
 * 2. Ingest of the SciFact corpus into an empty database three times: with the reference settings and no cache
 *    ("before"), with today's defaults and an empty cache (cold), and after deleting the store with the cache warm.
 *
 *   scripts/bench/embed [--texts N] [--only options|ingest] [--data DIR]
 *
 * Uses its own embedded Neo4j (port 7699, store .data/neo4j-bench-embed) and a throw-away cache folder, unless
 * NEO4J_URI is set, in which case that database is EMPTIED between runs.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createAppContext } from '../../src/app-context';
import { loadSettings, PROJECT_ROOT } from '../../src/config/settings';
import { cosine, OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { stopEmbedded } from '../../src/graph/embedded-server';
import { queries } from '../../src/graph/query-registry';
import { applySchema } from '../../src/graph/schema';
import { embeddingInput } from '../../src/ingest/paper-rows';
import { silentLogger } from '../../src/logger';
import { argument, freshStoreSettings, runWhenMain } from './env';

const REFERENCE = { CITEGRAPH_EMBED_OPTIMIZATION: 'basic', CITEGRAPH_EMBED_THREADS: '0', CITEGRAPH_EMBED_BATCH: '16' };

const BENCH_EMBED_ENV = {
  CITEGRAPH_NEO4J_PORT: '7699',
  CITEGRAPH_NEO4J_DATA: path.join(PROJECT_ROOT, '.data', 'neo4j-bench-embed'),
  CITEGRAPH_NEO4J_PAGECACHE: '1g',
  CITEGRAPH_NEO4J_HEAP: '2g',
};

async function options(corpus: string, count: number): Promise<string[]> {
  const texts = gunzipSync(readFileSync(corpus))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, count)
    .map((line) => {
      const record = JSON.parse(line) as { title: string; text: string };
      return embeddingInput(record.title, record.text, 'abstract');
    });
  const configurations: Record<string, string>[] = [REFERENCE];
  for (const optimization of ['disabled', 'basic', 'extended', 'all'])
    configurations.push({ ...REFERENCE, CITEGRAPH_EMBED_OPTIMIZATION: optimization });
  for (const threads of ['1', '2']) configurations.push({ ...REFERENCE, CITEGRAPH_EMBED_THREADS: threads });
  for (const batch of ['1', '2', '4', '8', '32']) configurations.push({ ...REFERENCE, CITEGRAPH_EMBED_BATCH: batch });
  configurations.push({}); // today's defaults
  let reference: Float32Array[] | undefined;
  const rows: string[] = [];
  for (const configuration of configurations) {
    const settings = loadSettings({ ...process.env, ...configuration });
    const embedder = await OnnxSentenceEmbedder.load(settings.model);
    await embedder.embed(texts.slice(0, 8)); // warm-up
    const started = process.hrtime.bigint();
    const vectors = await embedder.embed(texts);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    reference ??= vectors;
    const agreement = Math.min(...vectors.map((vector, index) => cosine(vector, reference![index]!)));
    const { optimization, threads, batchSize } = settings.model;
    const label = Object.keys(configuration).length === 0 ? 'defaults' : configuration === REFERENCE ? 'reference' : '';
    rows.push(
      `| ${label} | ${optimization} | ${threads || 'default'} | ${batchSize} | ${(texts.length / seconds).toFixed(1)} | ${agreement.toFixed(5)} |`,
    );
    process.stdout.write(`${rows[rows.length - 1]}\n`);
  }
  process.stdout.write(
    [
      '',
      `ONNX options, ${texts.length} SciFact abstracts (title + text), ${cpus().length} cores`,
      '| | optimisation | threads | batch | texts/s | min cosine vs reference |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
  return rows;
}

async function ingest(corpus: string): Promise<void> {
  const external = Boolean(process.env.NEO4J_URI);
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'citegraph-bench-embed-'));
  const runs: Array<{ label: string; env: Record<string, string> }> = [
    { label: 'before (reference settings, no cache)', env: { ...REFERENCE, CITEGRAPH_EMBED_CACHE: 'false' } },
    { label: 'defaults, cache cold', env: { CITEGRAPH_EMBED_CACHE_DIR: cacheDir } },
    { label: 'defaults, store deleted, cache warm', env: { CITEGRAPH_EMBED_CACHE_DIR: cacheDir } },
  ];
  const rows: string[] = [];
  try {
    for (const run of runs) {
      const { settings } = await freshStoreSettings(BENCH_EMBED_ENV, run.env);
      const app = createAppContext({ settings, logger: silentLogger, llm: null });
      try {
        await app.executor.autoCommit(queries().clearDatabase({}));
        await applySchema(app.executor);
        await app.embedder(); // model load is not ingest time
        const summary = await app.ingest.ingestFiles([corpus], { embed: 'now', progress: false });
        const seconds = summary.timings.totalMs / 1000;
        rows.push(
          `| ${run.label} | ${seconds.toFixed(1)} | ${summary.chunks} | ${(summary.chunks / seconds).toFixed(1)} | ${(summary.timings.embedMs / 1000).toFixed(1)} | ${(summary.timings.writeMs / 1000).toFixed(1)} |`,
        );
        process.stdout.write(`${rows[rows.length - 1]}\n`);
      } finally {
        await app.close();
      }
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
    if (!external) await stopEmbedded(loadSettings({ ...process.env, ...BENCH_EMBED_ENV }));
  }
  process.stdout.write(
    [
      '',
      `Ingest of the SciFact corpus (${path.basename(corpus)}), embeddings included`,
      '| run | wall s | chunks | chunks/s | embedding s | Neo4j writes s |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const corpus = path.join(shared, 'scifact', 'corpus.jsonl.gz');
  const only = argument(args, '--only');
  if (only !== 'ingest') await options(corpus, Number(argument(args, '--texts') ?? 400));
  if (only !== 'options') await ingest(corpus);
}

runWhenMain(module, 'bench-embed', main);
