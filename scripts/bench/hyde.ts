/**
 * HyDE ablation (issue 31, item 3): the fused default against the same search with `hyde` (the dense retriever
 * searches with the mean of the query's embedding and that of a passage the LLM writes as if it answered), and dense
 * alone with and without it, on SciFact training claims (the first --limit of each half: even ids, odd ids) and the
 * six labelled SYNERGY reviews, over the bench graph. The LLM is the one the settings name — by default the local
 * SmolLM2-135M-Instruct (`CITEGRAPH_LLM_GGUF=smollm2`), or an OpenAI-compatible endpoint with OPENAI_BASE_URL. Nothing
 * was tuned: the prompt and the mean are fixed (src/retrieval/search-service.ts).
 *
 *   node dist/scripts/bench/hyde.js [--limit 50] [--data ../shared/data]
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { evaluate, loadQrels, loadQueries, type EvaluationRun } from '../../src/retrieval/evaluation';
import type { SearchOptions } from '../../src/retrieval/search-types';
import { argument, openBenchApp, runWhenMain } from './env';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const limit = Number(argument(args, '--limit') ?? 50);
  const app = await openBenchApp({
    ...(process.env.OPENAI_BASE_URL || process.env.CITEGRAPH_LLM_GGUF ? {} : { CITEGRAPH_LLM_GGUF: 'smollm2' }),
    CITEGRAPH_LLM_TIMEOUT_MS: process.env.CITEGRAPH_LLM_TIMEOUT_MS ?? '120000',
  });
  if (!app.llm) throw new Error('no model: set OPENAI_BASE_URL or CITEGRAPH_LLM_GGUF');
  try {
    const scifactQueries = loadQueries(path.join(shared, 'scifact', 'queries.train.jsonl'));
    const scifactQrels = loadQrels(path.join(shared, 'scifact', 'qrels.train.tsv'), (id) => `scifact:${id}`);
    const judged = scifactQueries.filter((q) => scifactQrels.has(q.id));
    const synergyQueries = loadQueries(path.join(shared, 'synergy', 'queries.jsonl'));
    const synergyQrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
    const sets = [
      {
        name: `SciFact even ids (first ${limit})`,
        queries: judged.filter((q) => Number(q.id) % 2 === 0).slice(0, limit),
        qrels: scifactQrels,
        scope: { collection: 'scifact' },
      },
      {
        name: `SciFact odd ids (first ${limit})`,
        queries: judged.filter((q) => Number(q.id) % 2 === 1).slice(0, limit),
        qrels: scifactQrels,
        scope: { collection: 'scifact' },
      },
      {
        name: 'SYNERGY (6 labelled reviews)',
        queries: synergyQueries.filter((q) => synergyQrels.has(q.id)),
        qrels: synergyQrels,
        scope: { collectionPerQuery: true },
      },
    ];
    const off = { expansion: false, pagerank: false, mmr: false };
    const configs: Array<{ name: string; options: Partial<SearchOptions> }> = [
      { name: 'fused default', options: {} },
      { name: 'fused default + HyDE', options: { hyde: true } },
      { name: 'dense only', options: { ...off, sparse: false, citation: false } },
      { name: 'dense only + HyDE', options: { ...off, sparse: false, citation: false, hyde: true } },
    ];
    const rows = [
      `HyDE with ${app.llm.model} (bench graph):`,
      '| set | configuration | queries | nDCG@10 | Recall@100 | p95 ms |',
      '|---|---|---|---|---|---|',
    ];
    process.stdout.write(`${rows.join('\n')}\n`);
    const ctx = app.requestContext({ timeoutMs: null });
    for (const set of sets) {
      for (const config of configs) {
        const run: EvaluationRun = await evaluate(ctx, app.search, set, config, set.scope);
        const row = `| ${set.name} | ${config.name} | ${run.queries} | ${run.mean['nDCG@10'].toFixed(4)} | ${run.mean['Recall@100'].toFixed(4)} | ${run.latency.p95.toFixed(0)} |`;
        rows.push(row);
        process.stdout.write(`${row}\n`);
      }
    }
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench:hyde', main);
