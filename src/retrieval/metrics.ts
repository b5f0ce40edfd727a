/** Relevance judgments of one query: document id → graded relevance (> 0 is relevant). */
export type Judgments = ReadonlyMap<string, number>;

function relevant(judgments: Judgments): number {
  let count = 0;
  for (const grade of judgments.values()) if (grade > 0) count += 1;
  return count;
}

/** nDCG@k with linear gain and log2(rank+1) discount, as trec_eval and BEIR (pytrec_eval) compute it. */
export function ndcgAtK(ranking: readonly string[], judgments: Judgments, k: number): number {
  let dcg = 0;
  ranking.slice(0, k).forEach((id, index) => {
    const grade = judgments.get(id) ?? 0;
    if (grade > 0) dcg += grade / Math.log2(index + 2);
  });
  const ideal = [...judgments.values()]
    .filter((grade) => grade > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, grade, index) => sum + grade / Math.log2(index + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

/** Recall@k: share of the relevant documents found in the first k. */
export function recallAtK(ranking: readonly string[], judgments: Judgments, k: number): number {
  const total = relevant(judgments);
  if (total === 0) return 0;
  return ranking.slice(0, k).filter((id) => (judgments.get(id) ?? 0) > 0).length / total;
}

/** Precision@k: share of the first k that is relevant (k counts even when fewer were returned). */
export function precisionAtK(ranking: readonly string[], judgments: Judgments, k: number): number {
  return ranking.slice(0, k).filter((id) => (judgments.get(id) ?? 0) > 0).length / k;
}

/** MRR@k: reciprocal rank of the first relevant document within k, else 0. */
export function mrrAtK(ranking: readonly string[], judgments: Judgments, k: number): number {
  const index = ranking.slice(0, k).findIndex((id) => (judgments.get(id) ?? 0) > 0);
  return index < 0 ? 0 : 1 / (index + 1);
}

/** MAP@k (trec_eval map_cut): Σ precision at each relevant rank ≤ k, divided by the number of relevant documents. */
export function averagePrecisionAtK(ranking: readonly string[], judgments: Judgments, k: number): number {
  const total = relevant(judgments);
  if (total === 0) return 0;
  let hits = 0;
  let sum = 0;
  ranking.slice(0, k).forEach((id, index) => {
    if ((judgments.get(id) ?? 0) > 0) {
      hits += 1;
      sum += hits / (index + 1);
    }
  });
  return sum / total;
}

export interface QueryMetrics {
  'nDCG@10': number;
  'Recall@5': number;
  'Recall@10': number;
  'Recall@100': number;
  'MRR@10': number;
  'P@1': number;
  'MAP@100': number;
}

export const METRIC_NAMES: ReadonlyArray<keyof QueryMetrics> = [
  'nDCG@10',
  'Recall@5',
  'Recall@10',
  'Recall@100',
  'MRR@10',
  'P@1',
  'MAP@100',
];

export function evaluateRanking(ranking: readonly string[], judgments: Judgments): QueryMetrics {
  return {
    'nDCG@10': ndcgAtK(ranking, judgments, 10),
    'Recall@5': recallAtK(ranking, judgments, 5),
    'Recall@10': recallAtK(ranking, judgments, 10),
    'Recall@100': recallAtK(ranking, judgments, 100),
    'MRR@10': mrrAtK(ranking, judgments, 10),
    'P@1': precisionAtK(ranking, judgments, 1),
    'MAP@100': averagePrecisionAtK(ranking, judgments, 100),
  };
}

export function meanMetrics(perQuery: readonly QueryMetrics[]): QueryMetrics {
  const mean = Object.fromEntries(METRIC_NAMES.map((name) => [name, 0])) as unknown as QueryMetrics;
  if (perQuery.length === 0) return mean;
  for (const metrics of perQuery) for (const name of METRIC_NAMES) mean[name] += metrics[name] / perQuery.length;
  return mean;
}
