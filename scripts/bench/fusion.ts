/**
 * Fusion ablation on SciFact and SYNERGY (bench graph, `scripts/bench/ingest --keep`): BM25 alone, dense alone and
 * the fused default at several candidate depths (papers each retriever hands to the fusion), nDCG@10 and Recall@100,
 * plus the screening measures on SYNERGY (each review's whole judged set ranked). Each labelled set is split: a dev
 * part the depth was chosen on and a held-out part that is only reported.
 *
 *   SciFact: claims with an even id are dev, odd ids held-out. SYNERGY: Chou_2004, Donners_2021 and Meijboom_2021
 *   are dev; Oud_2018, Sep_2021 and van_der_Valk_2021 held-out.
 *
 *   scripts/bench/fusion [--depths 100,200,300,500] [--rrf-k 60] [--sets dev|held-out] [--data DIR]
 *
 * SPLADE rows (issue 28): the SPLADE list alone (the query's words weighed by SPLADE-tiny, with the words it implies,
 * as a weighted BM25 query), beside the default's lists, and in place of BM25.
 *
 * With CITEGRAPH_COMPANION_MODEL set (and its vectors made: `citegraph embed --companion NAME`), the fused rows fuse
 * the companion's dense list, and one more row is the default without it.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { evaluate, loadQrels, loadQueries, type EvaluationRun } from '../../src/retrieval/evaluation';
import type { SearchOptions } from '../../src/retrieval/search-types';
import { argument, openBenchApp, runWhenMain } from './env';

const SYNERGY_DEV = new Set(['Chou_2004', 'Donners_2021', 'Meijboom_2021']);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const depths = (argument(args, '--depths') ?? '100,200,300,500').split(',').map(Number);
  const rrfKs = (argument(args, '--rrf-k') ?? '60').split(',').map(Number);
  const only = argument(args, '--sets'); // e.g. "dev": only the sets whose name holds it
  const app = await openBenchApp({}, { llm: null });
  try {
    const scifactQueries = loadQueries(path.join(shared, 'scifact', 'queries.train.jsonl'));
    const scifactQrels = loadQrels(path.join(shared, 'scifact', 'qrels.train.tsv'), (id) => `scifact:${id}`);
    const synergyQueries = loadQueries(path.join(shared, 'synergy', 'queries.jsonl'));
    const synergyQrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
    const sets = [
      {
        name: 'SciFact dev (even ids)',
        queries: scifactQueries.filter((q) => Number(q.id) % 2 === 0),
        qrels: scifactQrels,
        scope: { collection: 'scifact' },
      },
      {
        name: 'SciFact held-out (odd ids)',
        queries: scifactQueries.filter((q) => Number(q.id) % 2 === 1),
        qrels: scifactQrels,
        scope: { collection: 'scifact' },
      },
      {
        name: 'SYNERGY dev (3 reviews)',
        queries: synergyQueries.filter((q) => SYNERGY_DEV.has(q.id)),
        qrels: synergyQrels,
        scope: { collectionPerQuery: true, screening: true },
      },
      {
        name: 'SYNERGY held-out (3 reviews)',
        queries: synergyQueries.filter((q) => !SYNERGY_DEV.has(q.id) && synergyQrels.has(q.id)),
        qrels: synergyQrels,
        scope: { collectionPerQuery: true, screening: true },
      },
    ];
    const off = { expansion: false, pagerank: false, mmr: false };
    const configs: Array<{ name: string; options: Partial<SearchOptions> }> = [
      { name: 'BM25 only (depth 100)', options: { ...off, dense: false, citation: false, candidates: 100 } },
      { name: 'dense only (depth 100)', options: { ...off, sparse: false, citation: false, candidates: 100 } },
      ...rrfKs.flatMap((rrfK) =>
        depths.map((depth) => ({
          name: `fused default, depth ${depth}${rrfKs.length > 1 ? `, K ${rrfK}` : ''}`,
          options: { candidates: depth, rrfK },
        })),
      ),
      // SPLADE-tiny's query terms as a third list (issue 28): alone, and beside the default's lists.
      {
        name: 'SPLADE only (depth 100)',
        options: { ...off, sparse: false, dense: false, citation: false, splade: true, candidates: 100 },
      },
      { name: 'fused default + SPLADE list', options: { splade: true } },
      { name: 'fused default, SPLADE list in place of BM25', options: { sparse: false, splade: true } },
      // With a companion model (CITEGRAPH_COMPANION_MODEL) the fused rows above fuse its list too: this row is the
      // same search without it.
      ...(app.companion
        ? [{ name: `fused default without the companion ${app.companion.space.model}`, options: { companion: false } }]
        : []),
    ];
    const rows: string[] = [];
    const ctx = app.requestContext();
    for (const set of sets.filter((candidate) => !only || candidate.name.includes(only))) {
      for (const config of configs) {
        const run: EvaluationRun = await evaluate(ctx, app.search, set, config, set.scope);
        const screening = run.screening?.mean;
        rows.push(
          `| ${set.name} | ${config.name} | ${run.queries} | ${run.mean['nDCG@10'].toFixed(4)} | ${run.mean['Recall@100'].toFixed(4)} | ${screening ? `${screening['Recall@10%'].toFixed(3)} | ${screening['Recall@20%'].toFixed(3)} | ${screening['WSS@95'].toFixed(3)}` : '– | – | –'} | ${run.latency.p95.toFixed(0)} |`,
        );
        process.stdout.write(`${rows[rows.length - 1]}\n`);
        if (set.scope.collectionPerQuery)
          for (const entry of run.perQuery)
            process.stdout.write(
              `    ${entry.id}: nDCG@10 ${entry.metrics['nDCG@10'].toFixed(4)} Recall@100 ${entry.metrics['Recall@100'].toFixed(4)}\n`,
            );
        if (run.screening)
          for (const entry of run.screening.perQuery)
            process.stdout.write(
              `    ${entry.id} (${entry.total} records): R@5% ${entry.metrics['Recall@5%'].toFixed(3)} R@10% ${entry.metrics['Recall@10%'].toFixed(3)} R@20% ${entry.metrics['Recall@20%'].toFixed(3)} WSS@95 ${entry.metrics['WSS@95'].toFixed(3)}\n`,
            );
      }
    }
    process.stdout.write(
      [
        '',
        '| set | configuration | queries | nDCG@10 | Recall@100 | Recall@10% screened | Recall@20% screened | WSS@95 | p95 ms |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench-fusion', main);
