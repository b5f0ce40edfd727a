import { cosine } from '../embedding/embedder';

/**
 * Maximal marginal relevance: greedily picks the item that maximises λ·rel(d) − (1−λ)·max_sim(d, picked).
 * Relevance is min-max normalised first so that λ means the same whatever the score scale. Returns ids in the new
 * order; the first `k` are diversified, the rest keep their order.
 */
export function mmr(
  items: ReadonlyArray<{ id: string; score: number }>,
  vectors: ReadonlyMap<string, Float32Array>,
  lambda: number,
  k: number,
): string[] {
  if (items.length === 0) return [];
  const max = Math.max(...items.map((item) => item.score));
  const min = Math.min(...items.map((item) => item.score));
  const relevance = new Map(items.map((item) => [item.id, max > min ? (item.score - min) / (max - min) : 1]));
  const remaining = items.map((item) => item.id);
  const picked: string[] = [];
  while (picked.length < k && remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((id, index) => {
      const vector = vectors.get(id);
      let redundancy = 0;
      if (vector) {
        for (const other of picked) {
          const otherVector = vectors.get(other);
          if (otherVector) redundancy = Math.max(redundancy, cosine(vector, otherVector));
        }
      }
      const value = lambda * relevance.get(id)! - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    picked.push(remaining.splice(bestIndex, 1)[0]!);
  }
  return [...picked, ...remaining];
}

/**
 * Personalised PageRank over the similarity graph of the candidates: an edge joins two candidates whose cosine
 * similarity is above `threshold`, weighted by it; the teleport distribution is each candidate's similarity to the
 * query. Candidates that many strong candidates resemble rise. Returns the stationary score per id.
 */
export function personalisedPageRank(
  ids: readonly string[],
  vectors: ReadonlyMap<string, Float32Array>,
  querySimilarity: ReadonlyMap<string, number>,
  options: { threshold: number; damping: number; iterations?: number },
): Map<string, number> {
  const n = ids.length;
  const scores = new Map<string, number>();
  if (n === 0) return scores;
  const weights: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i += 1) {
    const a = vectors.get(ids[i]!);
    if (!a) continue;
    for (let j = i + 1; j < n; j += 1) {
      const b = vectors.get(ids[j]!);
      if (!b) continue;
      const similarity = cosine(a, b);
      if (similarity > options.threshold) {
        weights[i]![j] = similarity;
        weights[j]![i] = similarity;
      }
    }
  }
  const outSum = weights.map((row) => row.reduce((sum, w) => sum + w, 0));
  const personal = ids.map((id) => Math.max(0, querySimilarity.get(id) ?? 0));
  const personalSum = personal.reduce((sum, p) => sum + p, 0) || 1;
  const teleport = personal.map((p) => p / personalSum);
  let rank = [...teleport];
  for (let iteration = 0; iteration < (options.iterations ?? 30); iteration += 1) {
    const next = teleport.map((t) => (1 - options.damping) * t);
    let dangling = 0;
    for (let i = 0; i < n; i += 1) {
      if (outSum[i] === 0) {
        dangling += rank[i]!;
        continue;
      }
      for (let j = 0; j < n; j += 1) {
        if (weights[i]![j]! > 0) next[j]! += options.damping * rank[i]! * (weights[i]![j]! / outSum[i]!);
      }
    }
    // Mass of candidates with no similar neighbour returns through the teleport distribution.
    for (let j = 0; j < n; j += 1) next[j]! += options.damping * dangling * teleport[j]!;
    rank = next;
  }
  ids.forEach((id, index) => scores.set(id, rank[index]!));
  return scores;
}
