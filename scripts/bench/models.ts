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
 * each labelled SYNERGY review (its criteria and three phrasings of its subject as queries, ranking only that review's
 * records), with the mean over all six reviews.
 *
 * Then every ensemble of two or more of the models named: (a) BM25 and each model's dense list in one weighted RRF,
 * the dense weight split evenly between the models; (b) one dense list by the mean of the models' best-chunk cosines
 * (each read on MiniLM's scale, src/embedding/similarity-scale.ts), fused with BM25 as one model is. What a second
 * model stored beside the first would buy, before anything is built for it.
 *
 *   scripts/bench/models [--models minilm,bge-small,e5-small] [--sets scifact,synergy] [--dense-weight W] [--rrf-k K]
 *                        [--speed-sample N] [--data DIR]
 *
 * `--speed-sample N` first times each model on the same N chunks without the cache (chunks/s of the models compared
 * in one run).
 *
 * Needs the bench graph (scripts/bench/ingest --keep, or NEO4J_URI) and each model's files (`node scripts/setup.js
 * --only bge-small`, `--only e5-small`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { embeddingModel } from '../../src/embedding/models';
import { similarityScale } from '../../src/embedding/similarity-scale';
import { loadQrels, loadQueries } from '../../src/retrieval/evaluation';
import { weightedRrf } from '../../src/retrieval/fusion';
import { evaluateRanking, meanMetrics, type Judgments } from '../../src/retrieval/metrics';
import { argument, collectionPassages, type CollectionPassages, openBenchApp, openModel, runWhenMain } from './env';

const SYNERGY_REVIEWS = ['Chou_2004', 'Donners_2021', 'Meijboom_2021', 'Oud_2018', 'Sep_2021', 'van_der_Valk_2021'];
const DEPTH = 100;

/** Each paper's best chunk cosine to a query vector, by the paper's index in `order`. */
function bestCosines(
  passages: CollectionPassages,
  vectors: readonly Float32Array[],
  query: Float32Array,
  order: ReadonlyMap<string, number>,
): Float32Array {
  const best = new Float32Array(order.size).fill(-Infinity);
  vectors.forEach((vector, index) => {
    let dot = 0;
    for (let d = 0; d < vector.length; d += 1) dot += vector[d]! * query[d]!;
    const paper = order.get(passages.papers[index]!)!;
    if (dot > best[paper]!) best[paper] = dot;
  });
  return best;
}

type Metrics = ReturnType<typeof meanMetrics>;

/** One table row: a set, what ranked it, how many queries, and nDCG@10 and Recall@100 of two rankings. */
function metricRow(set: string, ranker: string, queries: number | string, a: Metrics, b: Metrics): string {
  const cells = [a['nDCG@10'], a['Recall@100'], b['nDCG@10'], b['Recall@100']].map((value) => value.toFixed(4));
  return `| ${set} | ${ranker} | ${queries} | ${cells.join(' | ')} |`;
}

/** The top papers by a score per paper index (ties by id). */
function topPapers(scores: Float32Array, ids: readonly string[]): string[] {
  return [...scores.keys()]
    .sort((a, b) => scores[b]! - scores[a]! || ids[a]!.localeCompare(ids[b]!))
    .slice(0, DEPTH)
    .map((index) => ids[index]!);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const names = (argument(args, '--models') ?? 'minilm,bge-small,e5-small').split(',');
  const sets = (argument(args, '--sets') ?? 'scifact,synergy').split(',');
  // The fusion's dense weight (the sparse one is 1 − it) and K: the product's unless named, to see whether a stronger
  // model wants another balance.
  const denseWeight = argument(args, '--dense-weight');
  const kArgument = argument(args, '--rrf-k');
  const sampleSize = Number(argument(args, '--speed-sample') ?? 0);
  const app = await openBenchApp({}, { llm: null });
  try {
    const settings = app.settings;
    const weights = denseWeight
      ? { dense: Number(denseWeight), sparse: 1 - Number(denseWeight) }
      : { dense: settings.retrieval.denseWeight, sparse: settings.retrieval.sparseWeight };
    const rrfK = kArgument ? Number(kArgument) : settings.retrieval.rrfK;
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
      const labels = loadQrels(path.join(shared, 'synergy', 'labels'), (id) => id);
      // Each review asked four ways: its criteria, and the three phrasings of its subject an analyst would type
      // (data/questions/topic-subjects.jsonl), all judged by the review's labels — one ranking per review is noise.
      const phrasings = readFileSync(path.join(PROJECT_ROOT, 'data', 'questions', 'topic-subjects.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { review: string; phrase: string });
      for (const review of SYNERGY_REVIEWS) {
        const judged = labels.get(review);
        if (!judged) continue;
        const asked = [
          ...criteria.filter((q) => q.id === review),
          ...phrasings
            .filter((p) => p.review === review)
            .map((p, index) => ({ id: `${review}#${index + 1}`, text: p.phrase })),
        ];
        groups.push({
          name: `SYNERGY ${review}`,
          collection: review,
          queries: asked,
          qrels: new Map(asked.map((q) => [q.id, judged])),
        });
      }
    }
    // Each collection's passages, read once.
    const passagesOf = new Map<string, CollectionPassages>();
    for (const collection of new Set(groups.map((g) => g.collection)))
      passagesOf.set(collection, await collectionPassages(app, collection));
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
    /** BM25's list and one dense list fused with the weights and K measured. */
    const withBm25 = (sparseIds: readonly string[], denseIds: readonly string[]): string[] =>
      weightedRrf(
        [
          { name: 'sparse', weight: weights.sparse, ids: sparseIds },
          { name: 'dense', weight: weights.dense, ids: denseIds },
        ],
        rrfK,
      ).map((item) => item.id);
    // Each collection's papers in one order, for per-paper score arrays.
    const papersOf = new Map<string, { ids: string[]; order: Map<string, number> }>();
    for (const [collection, passages] of passagesOf) {
      const ids = [...new Set(passages.papers)];
      papersOf.set(collection, { ids, order: new Map(ids.map((id, index) => [id, index])) });
    }
    // Every model's best-chunk cosines per query, read on MiniLM's scale, for the ensembles after the models.
    const cosinesOf = new Map<string, Map<string, Float32Array>>();
    const rows: string[] = [];
    const speed: string[] = [];
    const sampled: string[] = [];
    for (const name of names) {
      const model = embeddingModel(name);
      const { inner, cached: embedder } = await openModel(settings, name);
      try {
        // Throughput on the same sample for every model, without the cache: every N-th chunk of the sets, the
        // product's batch size and threads (the settings), one warm-up batch first.
        if (sampleSize > 0) {
          const all = [...passagesOf.values()].flatMap((p) => p.inputs);
          const step = Math.max(1, Math.floor(all.length / sampleSize));
          const sample = all.filter((_, index) => index % step === 0).slice(0, sampleSize);
          await inner.embed(sample.slice(0, settings.model.batchSize));
          const started = process.hrtime.bigint();
          await inner.embed(sample);
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          sampled.push(
            `| ${model.name} | ${sample.length} | ${seconds.toFixed(1)} | ${(sample.length / seconds).toFixed(1)} |`,
          );
          process.stdout.write(`${sampled[sampled.length - 1]}\n`);
        }
        const vectorsOf = new Map<string, Float32Array[]>();
        let embedded = 0;
        let ms = 0;
        for (const [collection, passages] of passagesOf) {
          const started = process.hrtime.bigint();
          const before = embedder.stats().misses;
          vectorsOf.set(collection, await embedder.embed(passages.inputs));
          ms += Number(process.hrtime.bigint() - started) / 1e6;
          embedded += embedder.stats().misses - before;
        }
        const total = [...passagesOf.values()].reduce((sum, p) => sum + p.inputs.length, 0);
        speed.push(
          `| ${model.name}: ${model.label} | ${total} | ${embedded} | ${embedded > 0 ? ((1000 * embedded) / ms).toFixed(1) : '– (all cached)'} |`,
        );
        // The reviews' means, each review weighing the same, for one SYNERGY row per model.
        const reviews: Array<{ dense: ReturnType<typeof meanMetrics>; fused: ReturnType<typeof meanMetrics> }> = [];
        for (const group of groups) {
          const passages = passagesOf.get(group.collection)!;
          const vectors = vectorsOf.get(group.collection)!;
          const { ids, order } = papersOf.get(group.collection)!;
          const scale = similarityScale(model);
          const cosines = cosinesOf.get(model.name) ?? new Map<string, Float32Array>();
          cosinesOf.set(model.name, cosines);
          const dense: ReturnType<typeof evaluateRanking>[] = [];
          const fused: ReturnType<typeof evaluateRanking>[] = [];
          for (const query of group.queries) {
            const judgments = group.qrels.get(query.id);
            if (!judgments || ![...judgments.values()].some((grade) => grade > 0)) continue;
            const [vector] = await embedder.embed([query.text], 'query');
            const best = bestCosines(passages, vectors, vector!, order);
            const denseIds = topPapers(best, ids);
            cosines.set(
              `${group.collection}|${query.id}`,
              best.map((cosine) => scale.toReference(cosine, 'query')),
            );
            const sparseIds = sparse.get(`${group.collection}|${query.id}`) ?? [];
            const fusedIds = withBm25(sparseIds, denseIds);
            dense.push(evaluateRanking(denseIds, judgments));
            fused.push(evaluateRanking(fusedIds, judgments));
          }
          const d = meanMetrics(dense);
          const f = meanMetrics(fused);
          rows.push(metricRow(group.name, model.name, dense.length, d, f));
          process.stdout.write(`${rows[rows.length - 1]}\n`);
          if (group.name.startsWith('SYNERGY')) reviews.push({ dense: d, fused: f });
        }
        if (reviews.length > 0) {
          const d = meanMetrics(reviews.map((r) => r.dense));
          const f = meanMetrics(reviews.map((r) => r.fused));
          rows.push(metricRow(`SYNERGY, mean of ${reviews.length} reviews`, model.name, `${reviews.length} × 4`, d, f));
        }
      } finally {
        await inner.close();
      }
    }
    // Ensembles of the models measured: every subset of two or more, as (a) the BM25 list and each model's dense list
    // in one weighted RRF (the dense weight split evenly between the models) and (b) one dense list by the mean of the
    // models' cosines on MiniLM's scale, fused with BM25 as a single model is.
    const ensembleRows: string[] = [];
    const measured = [...cosinesOf.keys()];
    const subsets = [...Array(2 ** measured.length).keys()]
      .map((mask) => measured.filter((_, index) => mask & (2 ** index)))
      .filter((subset) => subset.length >= 2);
    for (const subset of subsets) {
      const reviews: Array<{ lists: ReturnType<typeof meanMetrics>; mean: ReturnType<typeof meanMetrics> }> = [];
      for (const group of groups) {
        const { ids } = papersOf.get(group.collection)!;
        const byLists: ReturnType<typeof evaluateRanking>[] = [];
        const byMean: ReturnType<typeof evaluateRanking>[] = [];
        for (const query of group.queries) {
          const judgments = group.qrels.get(query.id);
          const key = `${group.collection}|${query.id}`;
          const per = subset.map((name) => cosinesOf.get(name)!.get(key));
          if (!judgments || per.some((cosines) => !cosines)) continue;
          const sparseIds = sparse.get(key) ?? [];
          const lists = weightedRrf(
            [
              { name: 'sparse', weight: weights.sparse, ids: sparseIds },
              ...subset.map((name, index) => ({
                name,
                weight: weights.dense / subset.length,
                ids: topPapers(per[index]!, ids),
              })),
            ],
            rrfK,
          ).map((item) => item.id);
          const mean = new Float32Array(ids.length);
          for (const cosines of per)
            for (let i = 0; i < mean.length; i += 1) mean[i] = mean[i]! + cosines![i]! / per.length;
          const meanIds = withBm25(sparseIds, topPapers(mean, ids));
          byLists.push(evaluateRanking(lists, judgments));
          byMean.push(evaluateRanking(meanIds, judgments));
        }
        const l = meanMetrics(byLists);
        const m = meanMetrics(byMean);
        ensembleRows.push(metricRow(group.name, subset.join('+'), byLists.length, l, m));
        process.stdout.write(`${ensembleRows[ensembleRows.length - 1]}\n`);
        if (group.name.startsWith('SYNERGY')) reviews.push({ lists: l, mean: m });
      }
      if (reviews.length > 0) {
        const l = meanMetrics(reviews.map((r) => r.lists));
        const m = meanMetrics(reviews.map((r) => r.mean));
        ensembleRows.push(
          metricRow(`SYNERGY, mean of ${reviews.length} reviews`, subset.join('+'), `${reviews.length} × 4`, l, m),
        );
      }
    }
    process.stdout.write(
      [
        '',
        ...(sampled.length > 0
          ? [
              `embedding speed on one sample of the chunks, no cache (batch ${settings.model.batchSize}, threads ${settings.model.threads || 'onnxruntime default'}):`,
              '| model | chunks | seconds | chunks/s |',
              '|---|---|---|---|',
              ...sampled,
              '',
            ]
          : []),
        'embedding speed (chunks of the sets above, title and chunk as the ingest embeds them):',
        '| model | chunks | embedded now | chunks/s |',
        '|---|---|---|---|',
        ...speed,
        '',
        `retrieval (dense alone; dense fused with the graph BM25 by weighted RRF, both 100 deep; weights dense ${weights.dense.toFixed(2)} / sparse ${weights.sparse.toFixed(2)}, K ${rrfK}):`,
        '| set | model | queries | dense nDCG@10 | dense Recall@100 | fused nDCG@10 | fused Recall@100 |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
        ...(ensembleRows.length > 0
          ? [
              "ensembles (BM25 and each model's dense list in one RRF, the dense weight split evenly; BM25 and the mean of the models' cosines on MiniLM's scale):",
              '| set | models | queries | lists nDCG@10 | lists Recall@100 | mean-cosine nDCG@10 | mean-cosine Recall@100 |',
              '|---|---|---|---|---|---|---|',
              ...ensembleRows,
              '',
            ]
          : []),
      ].join('\n'),
    );
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench-models', main);
