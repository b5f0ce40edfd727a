/**
 * Ingest benchmark: all nine SYNERGY reviews and the SciFact corpus into an empty database, embeddings included.
 * Prints wall time, papers/s, chunks/s and the time spent embedding versus writing to Neo4j.
 *
 *   scripts/bench/ingest [--keep] [--only synergy|scifact] [--cache] [--data DIR]
 *
 * The model runs on every chunk: the per-model vector cache is off unless `--cache` (with it, a second run reads the
 * vectors from disk and measures the writer). `--only` ingests one of the two corpora (SciFact alone: ~9,000 chunks).
 *
 * Uses its own embedded Neo4j (port 7698, store .data/neo4j-bench) unless NEO4J_URI is set, in which case that
 * database is EMPTIED first. With --keep the embedded server is left running with the data, for bench-search and
 * the retrieval evaluation.
 */
import { readdirSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createAppContext } from '../../src/app-context';
import { PROJECT_ROOT } from '../../src/config/settings';
import { stopEmbedded } from '../../src/graph/embedded-server';
import { queries } from '../../src/graph/query-registry';
import { applySchema } from '../../src/graph/schema';
import { formatSummary } from '../../src/ingest/ingest-types';
import { consoleLogger } from '../../src/logger';
import { argument, BENCH_ENV, freshStoreSettings, runWhenMain } from './env';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const keep = args.includes('--keep');
  const shared = args.includes('--data')
    ? args[args.indexOf('--data') + 1]!
    : path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const only = argument(args, '--only');
  const fresh = await freshStoreSettings(BENCH_ENV);
  const { external } = fresh;
  const settings = args.includes('--cache')
    ? fresh.settings
    : { ...fresh.settings, model: { ...fresh.settings.model, cache: false } };
  const app = createAppContext({ settings, logger: consoleLogger });
  try {
    await app.executor.autoCommit(queries().clearDatabase({}));
    await applySchema(app.executor);
    await app.embedder(); // model load is not ingest time
    const synergy = path.join(shared, 'synergy', 'works');
    const files = readdirSync(synergy)
      .filter((name) => name.endsWith('.jsonl.gz'))
      .sort()
      .map((name) => path.join(synergy, name));
    const runs = [
      { name: 'synergy', label: 'SYNERGY (9 reviews)', files },
      { name: 'scifact', label: 'SciFact corpus', files: [path.join(shared, 'scifact', 'corpus.jsonl.gz')] },
    ].filter((run) => !only || run.name === only);
    const rows: string[] = [];
    let total = { ms: 0, papers: 0, chunks: 0, embedMs: 0, writeMs: 0, chunkMs: 0 };
    for (const run of runs) {
      const summary = await app.ingest.ingestFiles(run.files, { embed: 'now' });
      process.stdout.write(`\n== ${run.label}\n${formatSummary(summary)}\n`);
      const ms = summary.timings.totalMs;
      rows.push(
        `| ${run.label} | ${(ms / 1000).toFixed(1)} | ${summary.papersWritten} | ${((summary.papersWritten * 1000) / ms).toFixed(1)} | ${summary.chunks} | ${((summary.chunks * 1000) / ms).toFixed(1)} | ${(summary.timings.embedMs / 1000).toFixed(1)} | ${(summary.timings.writeMs / 1000).toFixed(1)} | ${(summary.timings.chunkMs / 1000).toFixed(1)} |`,
      );
      total = {
        ms: total.ms + ms,
        papers: total.papers + summary.papersWritten,
        chunks: total.chunks + summary.chunks,
        embedMs: total.embedMs + summary.timings.embedMs,
        writeMs: total.writeMs + summary.timings.writeMs,
        chunkMs: total.chunkMs + summary.timings.chunkMs,
      };
    }
    rows.push(
      `| all | ${(total.ms / 1000).toFixed(1)} | ${total.papers} | ${((total.papers * 1000) / total.ms).toFixed(1)} | ${total.chunks} | ${((total.chunks * 1000) / total.ms).toFixed(1)} | ${(total.embedMs / 1000).toFixed(1)} | ${(total.writeMs / 1000).toFixed(1)} | ${(total.chunkMs / 1000).toFixed(1)} |`,
    );
    const { counts } = await app.catalog.stats();
    process.stdout.write(
      [
        '',
        '| run | wall s | papers | papers/s | chunks | chunks/s | embedding s | Neo4j writes s | chunking s |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        `graph: ${JSON.stringify(counts)}`,
        `machine: ${cpus().length} cores; model ${settings.model.name}, embedding threads ${settings.model.threads || 'default'}, batch ${settings.model.batchSize}, vector cache ${settings.model.cache ? 'on' : 'off'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
    if (!external && !keep) await stopEmbedded(settings);
  }
}

runWhenMain(module, 'bench-ingest', main);
