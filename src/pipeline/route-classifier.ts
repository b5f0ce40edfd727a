import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Embedder } from '../embedding/embedder';
import { type Route, ROUTES } from './router';

/**
 * The router's learned half: multinomial logistic regression over the question's sentence embedding (all-MiniLM-L6-v2,
 * 384 dimensions), trained on labelled questions (data/questions/router-train.jsonl: paraphrases, questions without
 * cue words, domain vocabulary that looks like a cue). Training takes well under a second from the embeddings, which
 * are cached on disk keyed by the file's content; the first use embeds the questions (a few seconds).
 */

export interface LabelledQuestion {
  question: string;
  route: Route;
}

export interface RouteGuess {
  route: Route;
  /** Probability of that route. */
  confidence: number;
  probabilities: Record<Route, number>;
}

export function readLabelled(file: string): LabelledQuestion[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, index) => {
      const row = JSON.parse(line) as { question?: unknown; route?: unknown };
      if (typeof row.question !== 'string' || !(ROUTES as readonly unknown[]).includes(row.route)) {
        throw new Error(
          `${file}:${index + 1}: a labelled question needs "question" and a route (${ROUTES.join(', ')})`,
        );
      }
      return { question: row.question, route: row.route as Route };
    });
}

/** Softmax regression with L2, full-batch gradient descent; deterministic (zero start). */
export class RouteClassifier {
  private constructor(
    private readonly weights: Float64Array[],
    private readonly bias: Float64Array,
  ) {}

  static train(
    vectors: readonly Float32Array[],
    labels: readonly Route[],
    options: { epochs?: number; rate?: number; l2?: number } = {},
  ): RouteClassifier {
    const { epochs = 300, rate = 2, l2 = 1e-3 } = options;
    const dims = vectors[0]?.length ?? 0;
    const k = ROUTES.length;
    const weights = Array.from({ length: k }, () => new Float64Array(dims));
    const bias = new Float64Array(k);
    const y = labels.map((label) => ROUTES.indexOf(label));
    const n = vectors.length;
    for (let epoch = 0; epoch < epochs; epoch += 1) {
      const gradW = Array.from({ length: k }, () => new Float64Array(dims));
      const gradB = new Float64Array(k);
      for (let i = 0; i < n; i += 1) {
        const p = softmax(weights.map((w, c) => dot(w, vectors[i]!) + bias[c]!));
        for (let c = 0; c < k; c += 1) {
          const error = p[c]! - (y[i] === c ? 1 : 0);
          gradB[c]! += error;
          const g = gradW[c]!;
          const x = vectors[i]!;
          for (let d = 0; d < dims; d += 1) g[d]! += error * x[d]!;
        }
      }
      for (let c = 0; c < k; c += 1) {
        const w = weights[c]!;
        const g = gradW[c]!;
        for (let d = 0; d < dims; d += 1) w[d]! -= rate * (g[d]! / n + l2 * w[d]!);
        bias[c]! -= (rate * gradB[c]!) / n;
      }
    }
    return new RouteClassifier(weights, bias);
  }

  predict(vector: Float32Array): RouteGuess {
    const p = softmax(this.weights.map((w, c) => dot(w, vector) + this.bias[c]!));
    let best = 0;
    for (let c = 1; c < p.length; c += 1) if (p[c]! > p[best]!) best = c;
    const probabilities = Object.fromEntries(ROUTES.map((route, c) => [route, Number(p[c]!.toFixed(4))])) as Record<
      Route,
      number
    >;
    return { route: ROUTES[best]!, confidence: p[best]!, probabilities };
  }
}

function dot(w: Float64Array, x: Float32Array): number {
  let sum = 0;
  for (let d = 0; d < w.length; d += 1) sum += w[d]! * x[d]!;
  return sum;
}

function softmax(scores: number[]): number[] {
  const max = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - max));
  const total = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / total);
}

/**
 * Embeds labelled questions, reusing a cache file keyed by the questions' content and the model (a model other than
 * MiniLM, whose files predate the model's part in the key, adds its name).
 */
export async function embedLabelled(
  questions: readonly LabelledQuestion[],
  embedder: Embedder,
  cacheDir: string | null,
): Promise<Float32Array[]> {
  // Questions are embedded as search queries, as the route stage embeds the question asked (MiniLM has no query
  // prefix, so its vectors and key are those of before).
  const model = embedder.modelName && embedder.modelName !== 'minilm' ? `${embedder.modelName}\nquery\n` : '';
  const key = createHash('sha256')
    .update(model + questions.map((q) => q.question).join('\n'))
    .digest('hex')
    .slice(0, 16);
  const file = cacheDir ? path.join(cacheDir, `router-${key}.json`) : null;
  if (file && existsSync(file)) {
    try {
      const cached = JSON.parse(readFileSync(file, 'utf8')) as number[][];
      if (cached.length === questions.length) return cached.map((v) => Float32Array.from(v));
    } catch {
      // a damaged cache is rebuilt below
    }
  }
  const vectors: Float32Array[] = [];
  for (let i = 0; i < questions.length; i += 64) {
    vectors.push(
      ...(await embedder.embed(
        questions.slice(i, i + 64).map((q) => q.question),
        'query',
      )),
    );
  }
  if (file) {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(vectors.map((v) => Array.from(v, (x) => Number(x.toFixed(6))))));
    } catch {
      // no cache on a read-only disk: the next process embeds again
    }
  }
  return vectors;
}

/** The classifier trained on a labelled file (lazily, once per process). */
export function classifierLoader(
  file: string,
  embedder: () => Promise<Embedder>,
  cacheDir: string | null,
): () => Promise<RouteClassifier> {
  let loading: Promise<RouteClassifier> | null = null;
  return () => {
    loading ??= (async () => {
      const labelled = readLabelled(file);
      const vectors = await embedLabelled(labelled, await embedder(), cacheDir);
      return RouteClassifier.train(
        vectors,
        labelled.map((q) => q.route),
      );
    })();
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
}
