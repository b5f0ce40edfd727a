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
  return meanOf(perQuery, METRIC_NAMES);
}

/** The mean of each named measure over the queries (0 each when there is none). */
export function meanOf<T extends object>(perQuery: readonly T[], names: ReadonlyArray<keyof T>): T {
  const mean = Object.fromEntries(names.map((name) => [name, 0])) as Record<keyof T, number>;
  for (const metrics of perQuery) for (const name of names) mean[name] += (metrics[name] as number) / perQuery.length;
  return mean as T;
}

/** What a screening user reads off a ranking of a whole candidate set (a systematic review's search results). */
export interface ScreeningMetrics {
  /** Share of the included records found after screening the first 5, 10 and 20% of the candidate set. */
  'Recall@5%': number;
  'Recall@10%': number;
  'Recall@20%': number;
  /**
   * Work saved over sampling at 95% recall (Cohen et al. 2006, as ASReview computes it): (N − k)/N − 0.05, where k is
   * how many records are screened, in ranking order, until 95% of the included ones are found. 0 means no better
   * than reading in random order; the best possible is 0.95 − R/N.
   */
  'WSS@95': number;
  /** k above: records screened to reach 95% recall. */
  screenedFor95: number;
}

export const SCREENING_METRIC_NAMES: ReadonlyArray<keyof ScreeningMetrics> = [
  'Recall@5%',
  'Recall@10%',
  'Recall@20%',
  'WSS@95',
  'screenedFor95',
];

/**
 * Screening measures of `ranking` over a candidate set of `total` records of which `judgments` marks the included
 * ones. Records the ranking does not reach are read after it, included ones last (the conservative order), so a
 * retriever that misses an included record pays for it.
 */
export function screeningMetrics(ranking: readonly string[], judgments: Judgments, total: number): ScreeningMetrics {
  const included = relevant(judgments);
  const seen = new Set<string>();
  const order = ranking.filter((id) => {
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const foundAt: number[] = []; // 1-based ranks of the included records within the ranking
  order.forEach((id, index) => {
    if ((judgments.get(id) ?? 0) > 0) foundAt.push(index + 1);
  });
  const recallAtShare = (share: number) => {
    if (included === 0) return 0;
    const cutoff = Math.ceil(share * total);
    return foundAt.filter((rank) => rank <= cutoff).length / included;
  };
  const needed = Math.ceil(0.95 * included);
  // Not reached inside the ranking: the missing included records come last of the remaining ones.
  const screenedFor95 =
    needed === 0 ? 0 : needed <= foundAt.length ? foundAt[needed - 1]! : total - (included - needed);
  return {
    'Recall@5%': recallAtShare(0.05),
    'Recall@10%': recallAtShare(0.1),
    'Recall@20%': recallAtShare(0.2),
    'WSS@95': total === 0 ? 0 : (total - screenedFor95) / total - 0.05,
    screenedFor95,
  };
}
