import {
  averagePrecisionAtK,
  evaluateRanking,
  meanMetrics,
  mrrAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
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
