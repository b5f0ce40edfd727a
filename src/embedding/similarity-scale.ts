/**
 * Cosines of one embedding model read on another's scale. Every similarity threshold of the product (topic sets,
 * evidence scores, direct matches, verification, extractive answers, contradiction flags) was chosen on
 * all-MiniLM-L6-v2 cosines; e5-small puts unrelated passages at 0.7 and near-duplicates at 0.98, so a MiniLM threshold
 * of 0.5 would let everything in. Each model's `calibration` (src/embedding/models.ts, measured by
 * scripts/bench/calibrate) links its cosines to MiniLM's at equal quantiles of the same pairs of texts: a
 * threshold keeps meaning "the top n% of pairs" whichever model embeds.
 *
 * Three kinds of pairs: `query` (a question embedded as a search query against a passage), `passage` (two texts
 * embedded alike: passage and passage, sentence and sentence) and `centroid` (the mean of many passages, as a topic
 * set's seeds, against a passage: a mean shares the space's common direction with everything, more so for e5).
 */
import { EMBEDDING_MODELS, type CalibrationKnots, type EmbeddingModel } from './models';

export type PairKind = 'query' | 'passage' | 'centroid';

export interface SimilarityScale {
  /** The model's name (minilm: the reference itself). */
  readonly model: string;
  /** A cosine of the model read on MiniLM's scale. */
  toReference(cosine: number, kind: PairKind): number;
  /** The model's cosine at which MiniLM's scale reads `reference` (a threshold carried over). */
  fromReference(reference: number, kind: PairKind): number;
}

/** Piecewise-linear through the knots, the end segments continued, clamped to [-1, 1]. */
function through(knots: CalibrationKnots, x: number, from: 0 | 1): number {
  const to = from === 0 ? 1 : 0;
  let i = 1;
  while (i < knots.length - 1 && x > knots[i]![from]) i += 1;
  const a = knots[i - 1]!;
  const b = knots[i]!;
  const span = b[from] - a[from];
  const y = span === 0 ? b[to] : a[to] + ((x - a[from]) * (b[to] - a[to])) / span;
  return Math.max(-1, Math.min(1, y));
}

const IDENTITY: Omit<SimilarityScale, 'model'> = {
  toReference: (cosine) => cosine,
  fromReference: (reference) => reference,
};

/** The scale of a model (by name or profile); MiniLM's, and a model without knots, read as they are. */
export function similarityScale(model: string | EmbeddingModel | undefined): SimilarityScale {
  const profile = typeof model === 'string' || model === undefined ? EMBEDDING_MODELS[model ?? 'minilm'] : model;
  const knots = profile?.calibration;
  if (!profile || !knots) return { model: profile?.name ?? 'minilm', ...IDENTITY };
  return {
    model: profile.name,
    toReference: (cosine, kind) => through(knots[kind], cosine, 0),
    fromReference: (reference, kind) => through(knots[kind], reference, 1),
  };
}
