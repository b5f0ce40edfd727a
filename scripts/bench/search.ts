/**
 * Search latency benchmark: p50 and p95 of `search` over 200 queries (SciFact training claims) against the graph
 * with SYNERGY and SciFact both loaded (the database `scripts/bench/ingest --keep` leaves behind, or NEO4J_URI),
 * and the share of time spent embedding the query, in Neo4j, and fusing.
 *
 *   scripts/bench/search [--queries N] [--options JSON] [--collection C]
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { loadQueries, percentile } from '../../src/retrieval/evaluation';
import type { SearchOptions } from '../../src/retrieval/search-types';
import { openBenchApp, runWhenMain } from './env';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const count = args.includes('--queries') ? Number(args[args.indexOf('--queries') + 1]) : 200;
  const options = args.includes('--options')
    ? (JSON.parse(args[args.indexOf('--options') + 1]!) as Partial<SearchOptions>)
    : {};
  const collection = args.includes('--collection') ? args[args.indexOf('--collection') + 1]! : null;
  const app = await openBenchApp();
  try {
    const { counts } = await app.catalog.stats();
    const queries = loadQueries(
      path.resolve(PROJECT_ROOT, '..', 'shared', 'data', 'scifact', 'queries.train.jsonl'),
    ).slice(0, count);
    await app.embedder();
    // Warm-up: JIT, page cache, the driver's connection pool.
    for (const query of queries.slice(0, 10))
      await app.search.search(
        app.requestContext(),
        query.text,
        10,
        { collections: collection ? [collection] : null },
        options,
      );
    const totals: number[] = [];
    const stages: Record<string, number> = {};
    for (const query of queries) {
      const started = process.hrtime.bigint();
      const response = await app.search.search(
        app.requestContext(),
        query.text,
        10,
        { collections: collection ? [collection] : null },
        options,
      );
      totals.push(Number(process.hrtime.bigint() - started) / 1e6);
      for (const [stage, ms] of Object.entries(response.trace.timings)) stages[stage] = (stages[stage] ?? 0) + ms;
    }
    const sorted = [...totals].sort((a, b) => a - b);
    const sum = totals.reduce((a, b) => a + b, 0);
    const embedding = stages.embedMs ?? 0;
    const fusion = (stages.fusionMs ?? 0) + (stages.pagerankMs ?? 0) + (stages.mmrMs ?? 0);
    const neo4j = Object.entries(stages)
      // The companion model's query embedding (CITEGRAPH_COMPANION_MODEL) runs beside the model's: in neither share.
      .filter(([stage]) => !['embedMs', 'companionEmbedMs', 'fusionMs', 'pagerankMs', 'mmrMs'].includes(stage))
      .reduce((total, [, ms]) => total + ms, 0);
    const pct = (ms: number) => `${((100 * ms) / sum).toFixed(1)}%`;
    process.stdout.write(
      [
        `graph: ${(counts.paperNodes ?? 0) - (counts.stubPapers ?? 0)} papers, ${counts.stubPapers} stubs, ${counts.chunks} chunks`,
        `queries: ${totals.length} SciFact claims, first 10, ${collection ? `collection ${collection}` : 'whole graph'}, options ${JSON.stringify(options)}`,
        `latency ms: p50 ${percentile(sorted, 50).toFixed(1)}  p95 ${percentile(sorted, 95).toFixed(1)}  mean ${(sum / totals.length).toFixed(1)}  max ${sorted[sorted.length - 1]!.toFixed(1)}`,
        `share of time: embedding ${pct(embedding)}, Neo4j queries ${pct(neo4j)}, fusion and reranking ${pct(fusion)}, other ${pct(sum - embedding - neo4j - fusion)}`,
        `per stage (mean ms): ${Object.entries(stages)
          .map(([stage, ms]) => `${stage.replace(/Ms$/, '')} ${(ms / totals.length).toFixed(2)}`)
          .join(', ')}`,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench-search', main);
