/**
 * Embedding models side by side on the same passages (issue 28): each model of src/embedding/models.ts embeds the
 * bench graph's chunks of SciFact and the six labelled SYNERGY reviews (the product's embedding input: paper title and
 * chunk), and is measured on the same queries with
 *   - chunks/s of the embedding itself (a cold cache; later runs read the vectors from the per-model disk cache and say
 *     so),
 *   - dense alone: each paper scored by its best chunk's cosine to the query (exact, in memory),
 *   - dense fused with the graph's BM25 (weighted reciprocal rank fusion with the product's weights and K, both lists
 *     100 deep, no expansion, citation signal, PageRank or diversification — the models' own difference),
 * nDCG@10 and Recall@100 on SciFact training claims (dev: even ids, held-out: odd ids, as scripts/bench/fusion) and on
 * each labelled SYNERGY review (criteria as the query, ranking only that review's records).
 *
 *   scripts/bench/models [--models minilm,bge-small,e5-small] [--sets scifact,synergy] [--data DIR]
 *
 * Needs the bench graph (scripts/bench/ingest --keep, or NEO4J_URI) and each model's files (`node scripts/setup.js
 * --only bge-small`, `--only e5-small`).
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { OnnxSentenceEmbedder, type Embedder } from '../../src/embedding/embedder';
import { CachingEmbedder, fileSha256 } from '../../src/embedding/embedding-cache';
import { embeddingModel, modelDir } from '../../src/embedding/models';
import { paperFilterParams, queries } from '../../src/graph/query-registry';
import { embeddingInput } from '../../src/ingest/paper-rows';
import { loadQrels, loadQueries } from '../../src/retrieval/evaluation';
import { weightedRrf } from '../../src/retrieval/fusion';
import { evaluateRanking, meanMetrics, type Judgments } from '../../src/retrieval/metrics';
import { openBenchApp, runWhenMain } from './env';

const SYNERGY_REVIEWS = ['Chou_2004', 'Donners_2021', 'Meijboom_2021', 'Oud_2018', 'Sep_2021', 'van_der_Valk_2021'];
const DEPTH = 100;

function argument(args: string[], name: string): string | undefined {
  return args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
}

interface ChunkRow {
  id: string;
  paperId: string;
  text: string;
  paperTitle: string | null;
  section: string;
}

/** A collection's chunks as the ingest embeds them, with the paper each belongs to. */
interface Passages {
  papers: string[];
  inputs: string[];
}

/** The papers of a collection ranked by their best chunk's cosine to a query vector. */
function denseRanking(passages: Passages, vectors: readonly Float32Array[], query: Float32Array): string[] {
  const best = new Map<string, number>();
  vectors.forEach((vector, index) => {
    let dot = 0;
    for (let d = 0; d < vector.length; d += 1) dot += vector[d]! * query[d]!;
    const paper = passages.papers[index]!;
    if (dot > (best.get(paper) ?? -Infinity)) best.set(paper, dot);
  });
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, DEPTH)
    .map(([id]) => id);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const names = (argument(args, '--models') ?? 'minilm,bge-small,e5-small').split(',');
  const sets = (argument(args, '--sets') ?? 'scifact,synergy').split(',');
  const app = await openBenchApp({}, { llm: null });
  try {
    const settings = app.settings;
    const ctx = app.requestContext();
    // The query sets: SciFact claims (dev and held-out halves) and each labelled review.
    const groups: Array<{
      name: string;
      collection: string;
      queries: Array<{ id: string; text: string }>;
      qrels: ReadonlyMap<string, Judgments>;
    }> = [];
    if (sets.includes('scifact')) {
      const claims = loadQueries(path.join(shared, 'scifact', 'queries.train.jsonl'));
      const qrels = loadQrels(path.join(shared, 'scifact', 'qrels.train.tsv'), (id) => `scifact:${id}`);
      groups.push(
        {
          name: 'SciFact dev (even ids)',
          collection: 'scifact',
          queries: claims.filter((q) => Number(q.id) % 2 === 0),
          qrels,
        },
        {
          name: 'SciFact held-out (odd ids)',
          collection: 'scifact',
          queries: claims.filter((q) => Number(q.id) % 2 === 1),
          qrels,
        },
      );
    }
    if (sets.includes('synergy')) {
      const criteria = loadQueries(path.join(shared, 'synergy', 'queries.jsonl'));
      const qrels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
      for (const review of SYNERGY_REVIEWS)
        groups.push({
          name: `SYNERGY ${review}`,
          collection: review,
          queries: criteria.filter((q) => q.id === review),
          qrels,
        });
    }
    // Each collection's passages, read once.
    const passagesOf = new Map<string, Passages>();
    for (const collection of new Set(groups.map((g) => g.collection))) {
      const passages: Passages = { papers: [], inputs: [] };
      const filter = paperFilterParams({ collections: [collection] });
      for (let after = ''; ;) {
        const rows = await app.executor.read<ChunkRow>(queries().chunkTexts({ ...filter, after, limit: 5000 }));
        for (const row of rows) {
          passages.papers.push(row.paperId);
          passages.inputs.push(embeddingInput(row.paperTitle, row.text, row.section));
        }
        if (rows.length < 5000) break;
        after = rows[rows.length - 1]!.id;
      }
      passagesOf.set(collection, passages);
    }
    // BM25 lists from the graph, the same for every model.
    const sparse = new Map<string, string[]>();
    for (const group of groups)
      for (const query of group.queries) {
        const response = await app.search.search(
          ctx,
          query.text,
          DEPTH,
          { collections: [group.collection] },
          {
            dense: false,
            citation: false,
            expansion: false,
            pagerank: false,
            mmr: false,
            candidates: DEPTH,
            passages: 0,
          },
        );
        sparse.set(
          `${group.collection}|${query.id}`,
          response.results.map((result) => result.paper.id),
        );
      }
    const rows: string[] = [];
    const speed: string[] = [];
    for (const name of names) {
      const model = embeddingModel(name);
      const modelSettings = { ...settings.model, dir: modelDir(settings.cacheDir, model) };
      const inner = await OnnxSentenceEmbedder.load(modelSettings, model);
      const embedder: Embedder = CachingEmbedder.open(
        inner,
        settings.model.cacheDir,
        fileSha256(path.join(modelSettings.dir, 'model.onnx')),
      );
      try {
        const vectorsOf = new Map<string, Float32Array[]>();
        let embedded = 0;
        let ms = 0;
        for (const [collection, passages] of passagesOf) {
          const started = process.hrtime.bigint();
          const before = (embedder as CachingEmbedder).stats().misses;
          vectorsOf.set(collection, await embedder.embed(passages.inputs));
          ms += Number(process.hrtime.bigint() - started) / 1e6;
          embedded += (embedder as CachingEmbedder).stats().misses - before;
        }
        const total = [...passagesOf.values()].reduce((sum, p) => sum + p.inputs.length, 0);
        speed.push(
          `| ${model.name}: ${model.label} | ${total} | ${embedded} | ${embedded > 0 ? ((1000 * embedded) / ms).toFixed(1) : '– (all cached)'} |`,
        );
        for (const group of groups) {
          const passages = passagesOf.get(group.collection)!;
          const vectors = vectorsOf.get(group.collection)!;
          const dense: ReturnType<typeof evaluateRanking>[] = [];
          const fused: ReturnType<typeof evaluateRanking>[] = [];
          for (const query of group.queries) {
            const judgments = group.qrels.get(query.id);
            if (!judgments || ![...judgments.values()].some((grade) => grade > 0)) continue;
            const [vector] = await embedder.embed([query.text], 'query');
            const denseIds = denseRanking(passages, vectors, vector!);
            const sparseIds = sparse.get(`${group.collection}|${query.id}`) ?? [];
            const fusedIds = weightedRrf(
              [
                { name: 'sparse', weight: settings.retrieval.sparseWeight, ids: sparseIds },
                { name: 'dense', weight: settings.retrieval.denseWeight, ids: denseIds },
              ],
              settings.retrieval.rrfK,
            ).map((item) => item.id);
            dense.push(evaluateRanking(denseIds, judgments));
            fused.push(evaluateRanking(fusedIds, judgments));
          }
          const d = meanMetrics(dense);
          const f = meanMetrics(fused);
          rows.push(
            `| ${group.name} | ${model.name} | ${dense.length} | ${d['nDCG@10'].toFixed(4)} | ${d['Recall@100'].toFixed(4)} | ${f['nDCG@10'].toFixed(4)} | ${f['Recall@100'].toFixed(4)} |`,
          );
          process.stdout.write(`${rows[rows.length - 1]}\n`);
        }
      } finally {
        await inner.close();
      }
    }
    process.stdout.write(
      [
        '',
        'embedding speed (chunks of the sets above, title and chunk as the ingest embeds them):',
        '| model | chunks | embedded now | chunks/s |',
        '|---|---|---|---|',
        ...speed,
        '',
        'retrieval (dense alone; dense fused with the graph BM25 by weighted RRF, both 100 deep):',
        '| set | model | queries | dense nDCG@10 | dense Recall@100 | fused nDCG@10 | fused Recall@100 |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench-models', main);
