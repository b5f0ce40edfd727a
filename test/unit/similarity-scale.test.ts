import { similarityScale } from '../../src/embedding/similarity-scale';
import { EMBEDDING_MODELS } from '../../src/embedding/models';

describe('similarity scales', () => {
  it('reads MiniLM cosines as they are', () => {
    const scale = similarityScale('minilm');
    expect(scale.toReference(0.42, 'query')).toBe(0.42);
    expect(scale.fromReference(0.78, 'passage')).toBe(0.78);
  });

  it("carries a MiniLM threshold to another model's cosine at the same quantile, and back", () => {
    const scale = similarityScale('e5-small');
    const knots = EMBEDDING_MODELS['e5-small']!.calibration!.query;
    // A knot maps onto its partner exactly.
    const [mine, theirs] = knots[10]!;
    expect(scale.toReference(mine, 'query')).toBeCloseTo(theirs, 6);
    expect(scale.fromReference(theirs, 'query')).toBeCloseTo(mine, 6);
    // e5-small's cosines sit high: MiniLM's 0.5 is far above 0.5 for it, and the two directions invert each other.
    for (const kind of ['query', 'passage', 'centroid'] as const) {
      const threshold = scale.fromReference(0.5, kind);
      expect(threshold).toBeGreaterThan(0.8);
      expect(scale.toReference(threshold, kind)).toBeCloseTo(0.5, 6);
      // Monotone: a higher cosine never reads lower.
      const grid = Array.from({ length: 101 }, (_, i) => -1 + i / 50);
      const read = grid.map((c) => scale.toReference(c, kind));
      for (let i = 1; i < read.length; i += 1) expect(read[i]!).toBeGreaterThanOrEqual(read[i - 1]!);
      // Beyond the knots the end segments go on, inside [-1, 1].
      expect(read[0]!).toBeGreaterThanOrEqual(-1);
      expect(read[read.length - 1]!).toBeLessThanOrEqual(1);
    }
  });

  it('has knots ascending on both sides for every calibrated model', () => {
    for (const model of Object.values(EMBEDDING_MODELS)) {
      if (!model.calibration) continue;
      for (const knots of Object.values(model.calibration)) {
        for (let i = 1; i < knots.length; i += 1) {
          expect(knots[i]![0]).toBeGreaterThanOrEqual(knots[i - 1]![0]);
          expect(knots[i]![1]).toBeGreaterThanOrEqual(knots[i - 1]![1]);
        }
      }
    }
  });
});
