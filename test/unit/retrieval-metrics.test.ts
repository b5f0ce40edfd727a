import {
  averagePrecisionAtK,
  evaluateRanking,
  meanMetrics,
  mrrAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
  screeningMetrics,
} from '../../src/retrieval/metrics';

const judgments = new Map([
  ['d2', 1],
  ['d4', 1],
  ['d9', 1],
  ['d7', 0],
]);
const ranking = ['d1', 'd2', 'd3', 'd4', 'd5', 'd7'];

describe('retrieval metrics (hand-computed)', () => {
  it('nDCG@10 with binary relevance', () => {
    // DCG = 1/log2(3) + 1/log2(5); IDCG = 1 + 1/log2(3) + 1/log2(4)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(5)) / (1 + 1 / Math.log2(3) + 0.5);
    expect(ndcgAtK(ranking, judgments, 10)).toBeCloseTo(expected, 10);
    expect(ndcgAtK(ranking, judgments, 10)).toBeCloseTo(0.49819, 4);
  });

  it('nDCG with graded relevance uses linear gain', () => {
    const graded = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    expect(ndcgAtK(['a', 'b'], graded, 10)).toBeCloseTo((1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)), 10);
    expect(ndcgAtK(['b', 'a'], graded, 10)).toBeCloseTo(1, 10);
  });

  it('nDCG@k cuts both the ranking and the ideal at k', () => {
    expect(ndcgAtK(['d2'], judgments, 1)).toBe(1);
    expect(ndcgAtK(['d1', 'd2'], judgments, 1)).toBe(0);
  });

  it('recall, precision, MRR and MAP', () => {
    expect(recallAtK(ranking, judgments, 5)).toBeCloseTo(2 / 3, 10);
    expect(recallAtK(ranking, judgments, 1)).toBe(0);
    expect(precisionAtK(ranking, judgments, 1)).toBe(0);
    expect(precisionAtK(['d4'], judgments, 1)).toBe(1);
    expect(mrrAtK(ranking, judgments, 10)).toBe(0.5);
    expect(mrrAtK(ranking, judgments, 1)).toBe(0);
    // relevant at ranks 2 and 4: (1/2 + 2/4) / 3 relevant
    expect(averagePrecisionAtK(ranking, judgments, 100)).toBeCloseTo(1 / 3, 10);
    expect(averagePrecisionAtK(ranking, judgments, 3)).toBeCloseTo(0.5 / 3, 10);
  });

  it('a grade of 0 is not relevant, and no relevant documents give 0', () => {
    expect(precisionAtK(['d7'], judgments, 1)).toBe(0);
    expect(ndcgAtK(['x'], new Map([['x', 0]]), 10)).toBe(0);
  });

  it('averages per query', () => {
    const a = evaluateRanking(['d2'], judgments);
    const b = evaluateRanking(['zz'], judgments);
    expect(meanMetrics([a, b])['P@1']).toBe(0.5);
    expect(meanMetrics([a, b])['MRR@10']).toBe(0.5);
  });
});

describe('screening measures of a whole candidate set', () => {
  // 20 records, 4 included (a, b, c, d).
  const review = new Map<string, number>([
    ['a', 1],
    ['b', 1],
    ['c', 1],
    ['d', 1],
    ...Array.from({ length: 16 }, (_, i) => [`x${i}`, 0] as [string, number]),
  ]);

  it('reads recall at 5, 10 and 20% screened and the work saved at 95% recall', () => {
    // Included at ranks 1, 3, 4 and 10.
    const ranking = ['a', 'x0', 'b', 'c', 'x1', 'x2', 'x3', 'x4', 'x5', 'd', 'x6'];
    const metrics = screeningMetrics(ranking, review, 20);
    expect(metrics['Recall@5%']).toBe(0.25); // first 1 record
    expect(metrics['Recall@10%']).toBe(0.25); // first 2
    expect(metrics['Recall@20%']).toBe(0.75); // first 4
    // 95% of 4 is 3.8: all four must be found, at rank 10. (20 − 10)/20 − 0.05 = 0.45.
    expect(metrics.screenedFor95).toBe(10);
    expect(metrics['WSS@95']).toBeCloseTo(0.45, 10);
  });

  it('puts included records the ranking never reached at the end', () => {
    // d is never retrieved: it is read last of the 20.
    const metrics = screeningMetrics(['a', 'b', 'c', 'x0'], review, 20);
    expect(metrics.screenedFor95).toBe(20);
    expect(metrics['WSS@95']).toBeCloseTo(-0.05, 10);
    // A perfect ranking saves 0.95 − 4/20.
    expect(screeningMetrics(['a', 'b', 'c', 'd'], review, 20)['WSS@95']).toBeCloseTo(0.75, 10);
  });
});
