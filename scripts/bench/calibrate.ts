/**
 * Cosine scales of the embedding models, linked to MiniLM's (issue 28): every similarity threshold of the product
 * (topic sets, evidence scores, direct matches, verification, extractive answers) was chosen on all-MiniLM-L6-v2
 * cosines, and another model's cosines sit elsewhere (e5-small's unrelated passages reach 0.7). This script measures
 * each model's cosines and MiniLM's on the same pairs of texts and prints, per kind of pair, the equipercentile link:
 * knots [model cosine, MiniLM cosine] at the same quantile. src/embedding/models.ts keeps the knots
 * (`calibration`), and src/embedding/similarity-scale.ts reads a model's cosine on MiniLM's scale with them, so a
 * threshold means the same share of pairs whichever model embeds.
 *
 * The pairs: the bench graph's chunks of SciFact and the six labelled SYNERGY reviews (title and chunk, as the ingest
 * embeds them) against
 *   - query: every question the project holds (SciFact training claims, data/questions/*.jsonl, the topic phrases),
 *     embedded as search queries — with each its 40 nearest chunks by either model and 40 chunks drawn at random;
 *   - passage: 1,500 chunks drawn at random, embedded as passages — with each its 20 nearest chunks by either model
 *     and 20 drawn at random;
 *   - centroid: the mean of each question's 50 nearest chunks (as a topic set's seeds are averaged), against its 40
 *     nearest chunks by either model and 40 drawn at random. A mean of passages shares more with every passage than
 *     one passage does, and more so in an anisotropic space such as e5's, so it is a kind of its own.
 *
 *   scripts/bench/calibrate [--models e5-small,bge-small] [--data DIR] [--seed N]
 *
 * Needs the bench graph and each model's files, as scripts/bench/models; vectors come from the per-model disk cache.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { seeded } from '../../src/analytics/science-of-science';
import { PROJECT_ROOT } from '../../src/config/settings';
import { loadQueries } from '../../src/retrieval/evaluation';
import { argument, collectionPassages, openBenchApp, openModel, runWhenMain } from './env';

const COLLECTIONS = [
  'scifact',
  'Chou_2004',
  'Donners_2021',
  'Meijboom_2021',
  'Oud_2018',
  'Sep_2021',
  'van_der_Valk_2021',
];
/** Quantiles the knots sit at: denser in the upper tail, where the thresholds are. */
const QUANTILES = [
  0, 0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999,
  1,
];

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < a.length; d += 1) sum += a[d]! * b[d]!;
  return sum;
}

/** Indices of the n passages nearest a vector. */
function nearest(vector: Float32Array, passages: readonly Float32Array[], n: number, skip = -1): number[] {
  const scores = passages.map((p, index) => ({ index, score: index === skip ? -Infinity : dot(vector, p) }));
  scores.sort((a, b) => b.score - a.score);
  return scores.slice(0, n).map((s) => s.index);
}

function quantile(sorted: readonly number[], q: number): number {
  const at = q * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/** Every question text the project holds, once each. */
function questionTexts(shared: string): string[] {
  const texts = new Set(loadQueries(path.join(shared, 'scifact', 'queries.train.jsonl')).map((q) => q.text));
  const folder = path.join(PROJECT_ROOT, 'data', 'questions');
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.jsonl')))
    for (const line of readFileSync(path.join(folder, file), 'utf8').split('\n')) {
      if (!line.trim()) continue;
      const row = JSON.parse(line) as { question?: string; phrase?: string };
      const text = row.question ?? row.phrase;
      if (text) texts.add(text);
    }
  return [...texts];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const shared = argument(args, '--data') ?? path.resolve(PROJECT_ROOT, '..', 'shared', 'data');
  const names = (argument(args, '--models') ?? 'e5-small,bge-small').split(',');
  const next = seeded(Number(argument(args, '--seed') ?? 28));
  const app = await openBenchApp({}, { llm: null });
  try {
    const inputs: string[] = [];
    for (const collection of COLLECTIONS) inputs.push(...(await collectionPassages(app, collection)).inputs);
    const questions = questionTexts(shared);
    const anchors = Array.from({ length: 1500 }, () => Math.floor(next() * inputs.length));
    const draws = (n: number): number[] => Array.from({ length: n }, () => Math.floor(next() * inputs.length));
    const randomFor = {
      query: questions.map(() => draws(40)),
      passage: anchors.map(() => draws(20)),
      centroid: questions.map(() => draws(40)),
    };
    const embedAll = async (name: string) => {
      const { inner, cached } = await openModel(app.settings, name);
      try {
        return {
          passages: await cached.embed(inputs),
          queries: await cached.embed(questions, 'query'),
        };
      } finally {
        await inner.close();
      }
    };
    process.stdout.write(
      `pairs from ${inputs.length} chunks, ${questions.length} questions and ${anchors.length} anchor chunks\n`,
    );
    const reference = await embedAll('minilm');
    const out: string[] = [];
    for (const name of names) {
      const model = await embedAll(name);
      // The same pairs for both models: each side's nearest and the random ones.
      const pairs = {
        query: [] as Array<[number, number]>,
        passage: [] as Array<[number, number]>,
        centroid: [] as Array<[number, number]>,
      };
      // Each question's centroid of its 50 nearest chunks, per model.
      const centroids = (space: { queries: Float32Array[]; passages: Float32Array[] }) =>
        space.queries.map((vector) => {
          const mean = new Float32Array(vector.length);
          for (const index of nearest(vector, space.passages, 50))
            for (let d = 0; d < mean.length; d += 1) mean[d]! += space.passages[index]![d]!;
          const norm = Math.sqrt(dot(mean, mean)) || 1;
          return mean.map((x) => x / norm);
        });
      const modelCentroids = centroids(model);
      const referenceCentroids = centroids(reference);
      questions.forEach((_, q) => {
        const picked = new Set([
          ...nearest(referenceCentroids[q]!, reference.passages, 40),
          ...nearest(modelCentroids[q]!, model.passages, 40),
          ...randomFor.centroid[q]!,
        ]);
        for (const p of picked) pairs.centroid.push([q, p]);
      });
      questions.forEach((_, q) => {
        const picked = new Set([
          ...nearest(reference.queries[q]!, reference.passages, 40),
          ...nearest(model.queries[q]!, model.passages, 40),
          ...randomFor.query[q]!,
        ]);
        for (const p of picked) pairs.query.push([q, p]);
      });
      anchors.forEach((a, i) => {
        const picked = new Set([
          ...nearest(reference.passages[a]!, reference.passages, 20, a),
          ...nearest(model.passages[a]!, model.passages, 20, a),
          ...randomFor.passage[i]!.filter((p) => p !== a),
        ]);
        for (const p of picked) pairs.passage.push([a, p]);
      });
      const knots: Record<string, Array<[number, number]>> = {};
      for (const kind of ['query', 'passage', 'centroid'] as const) {
        const left = kind === 'query' ? model.queries : kind === 'centroid' ? modelCentroids : model.passages;
        const refLeft =
          kind === 'query' ? reference.queries : kind === 'centroid' ? referenceCentroids : reference.passages;
        const mine = pairs[kind].map(([a, b]) => dot(left[a]!, model.passages[b]!)).sort((x, y) => x - y);
        const theirs = pairs[kind].map(([a, b]) => dot(refLeft[a]!, reference.passages[b]!)).sort((x, y) => x - y);
        knots[kind] = QUANTILES.map((q) => [
          Number(quantile(mine, q).toFixed(4)),
          Number(quantile(theirs, q).toFixed(4)),
        ]);
        out.push(
          `${name} ${kind} (${mine.length} pairs): ${knots[kind].map(([m, r]) => `${m.toFixed(3)}→${r.toFixed(3)}`).join(' ')}`,
        );
      }
      out.push(`${name} calibration: ${JSON.stringify(knots)}`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await app.close();
  }
}

runWhenMain(module, 'bench-calibrate', main);
