/**
 * SPLADE on the document side too (issue 28, item 2), measured before building it into ingest: every SciFact abstract
 * (title and text, 256 word pieces) encoded by SPLADE-tiny, its 256 heaviest whole-word terms kept, and each claim
 * ranked by the exact sparse dot product with its own SPLADE terms; then that ranking fused (weighted RRF, K 10) with
 * the product's BM25 and dense lists at several weights. SciFact training claims, even ids dev, odd held-out (as
 * bench:fusion). Also prints the encoding speed (chunks of about an abstract per second).
 *
 *   scripts/bench/splade [--data DIR] [--threads N] [--weights 0.25,0.5]
 *
 * Bench graph (`scripts/bench/ingest --keep`) for the BM25 and dense lists; the SPLADE model from
 * `node scripts/setup.js --only splade`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../src/config/settings';
import { SpladeEncoder } from '../../src/embedding/splade';
import { loadQrels, loadQueries } from '../../src/retrieval/evaluation';
import { weightedRrf } from '../../src/retrieval/fusion';
import { ndcgAtK, recallAtK } from '../../src/retrieval/metrics';
import { argument, openBenchApp, runWhenMain } from './env';

const K = 10;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const threads = Number(argument(args, '--threads') ?? '0');
  const weights = (argument(args, '--weights') ?? '0.25,0.5').split(',').map(Number);
  const app = await openBenchApp({}, { llm: null });
  const encoder = await SpladeEncoder.load(app.settings.model.spladeDir, threads);
  try {
    const docs = gunzipSync(readFileSync(path.join(shared, 'scifact', 'corpus.jsonl.gz')))
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0)
      .map((line) => JSON.parse(line) as { _id: string; title: string; text: string });
    // An inverted index of the documents' SPLADE terms: term → (paper id, weight).
    const postings = new Map<string, Array<{ id: string; weight: number }>>();
    const started = Date.now();
    for (let i = 0; i < docs.length; i += 16) {
      const batch = docs.slice(i, i + 16);
      const terms = await encoder.terms(
        batch.map((doc) => `${doc.title}. ${doc.text}`),
        256,
        256,
      );
      batch.forEach((doc, j) => {
        for (const { term, weight } of terms[j]!) {
          let list = postings.get(term);
          if (!list) postings.set(term, (list = []));
          list.push({ id: `scifact:${doc._id}`, weight });
        }
      });
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `encoded ${docs.length} abstracts in ${seconds.toFixed(0)} s: ${(docs.length / seconds).toFixed(1)} abstracts/s\n`,
    );

    const queries = loadQueries(path.join(shared, 'scifact', 'queries.train.jsonl'));
    const qrels = loadQrels(path.join(shared, 'scifact', 'qrels.train.tsv'), (id) => `scifact:${id}`);
    const ctx = app.requestContext();
    const filter = { collections: ['scifact'] };
    const plain = { expansion: false, pagerank: false, mmr: false, citation: false, candidates: 100, passages: 0 };
    const rows = new Map<string, { dev: number[][]; held: number[][] }>();
    const add = (name: string, held: boolean, ranking: readonly string[], judged: ReadonlyMap<string, number>) => {
      let row = rows.get(name);
      if (!row) rows.set(name, (row = { dev: [], held: [] }));
      (held ? row.held : row.dev).push([ndcgAtK(ranking, judged, 10), recallAtK(ranking, judged, 100)]);
    };
    for (const query of queries) {
      const judged = qrels.get(query.id);
      if (!judged) continue;
      const held = Number(query.id) % 2 === 1;
      const list = async (options: object) =>
        (await app.search.search(ctx, query.text, 100, filter, { ...plain, ...options })).results.map(
          (r) => r.paper.id,
        );
      const bm25 = await list({ dense: false });
      const dense = await list({ sparse: false });
      const [terms] = await encoder.terms([query.text], 64, 64);
      const scores = new Map<string, number>();
      for (const { term, weight } of terms!)
        for (const posting of postings.get(term) ?? [])
          scores.set(posting.id, (scores.get(posting.id) ?? 0) + weight * posting.weight);
      const splade = [...scores.entries()]
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 100)
        .map(([id]) => id);
      const fuse = (lists: Array<[string, readonly string[], number]>) =>
        weightedRrf(
          lists.map(([name, ids, weight]) => ({ name, weight, ids })),
          K,
        ).map((item) => item.id);
      add('BM25', held, bm25, judged);
      add('dense', held, dense, judged);
      add('SPLADE documents · query (exact dot product)', held, splade, judged);
      add(
        'RRF BM25 + dense (0.5 each)',
        held,
        fuse([
          ['sparse', bm25, 0.5],
          ['dense', dense, 0.5],
        ]),
        judged,
      );
      for (const weight of weights)
        add(
          `RRF BM25 + dense + SPLADE documents (${weight})`,
          held,
          fuse([
            ['sparse', bm25, 0.5],
            ['dense', dense, 0.5],
            ['splade', splade, weight],
          ]),
          judged,
        );
    }
    const mean = (values: number[][], index: number) =>
      (values.reduce((sum, value) => sum + value[index]!, 0) / Math.max(1, values.length)).toFixed(4);
    process.stdout.write(
      [
        '',
        '| ranking | dev nDCG@10 | dev Recall@100 | held-out nDCG@10 | held-out Recall@100 |',
        '|---|---|---|---|---|',
        ...[...rows.entries()].map(
          ([name, { dev, held }]) =>
            `| ${name} | ${mean(dev, 0)} | ${mean(dev, 1)} | ${mean(held, 0)} | ${mean(held, 1)} |`,
        ),
        '',
      ].join('\n'),
    );
  } finally {
    await encoder.close();
    await app.close();
  }
}

runWhenMain(module, 'bench-splade', main);
