import path from 'node:path';
import { readSafetensors, readSpladeConfig, type SpladeConfig, tensorOf } from '../../src/embedding/splade';
import { WordPieceTokenizer } from '../../src/embedding/wordpiece-tokenizer';

/**
 * The SPLADE forward pass written out loop by loop in plain TypeScript, one text at a time, straight from the
 * safetensors weights: the oracle the ONNX graph of src/embedding/splade.ts (what the service runs) is checked against.
 * Slow (about 0.1 s a sentence) and test-only.
 */

interface Layer {
  readonly q: Dense;
  readonly k: Dense;
  readonly v: Dense;
  readonly attnOut: Dense;
  readonly attnNorm: Norm;
  readonly inter: Dense;
  readonly out: Dense;
  readonly outNorm: Norm;
}

/** y = x Wᵀ + b with W stored [out][in], as PyTorch stores it. */
interface Dense {
  readonly w: Float32Array;
  readonly b: Float32Array;
  readonly inSize: number;
  readonly outSize: number;
}

interface Norm {
  readonly gamma: Float32Array;
  readonly beta: Float32Array;
}

function erf(x: number): number {
  // Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7), enough for float32 activations.
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const y =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-a * a);
  return sign * y;
}

function gelu(values: Float32Array): void {
  for (let i = 0; i < values.length; i++) values[i] = 0.5 * values[i]! * (1 + erf(values[i]! / Math.SQRT2));
}

function dense(x: Float32Array, rows: number, layer: Dense): Float32Array {
  const { w, b, inSize, outSize } = layer;
  const y = new Float32Array(rows * outSize);
  for (let r = 0; r < rows; r++) {
    const xo = r * inSize;
    const yo = r * outSize;
    for (let o = 0; o < outSize; o++) {
      const wo = o * inSize;
      let sum = b[o]!;
      for (let i = 0; i < inSize; i++) sum += x[xo + i]! * w[wo + i]!;
      y[yo + o] = sum;
    }
  }
  return y;
}

function layerNorm(x: Float32Array, rows: number, size: number, norm: Norm, eps: number): void {
  for (let r = 0; r < rows; r++) {
    const o = r * size;
    let mean = 0;
    for (let i = 0; i < size; i++) mean += x[o + i]!;
    mean /= size;
    let variance = 0;
    for (let i = 0; i < size; i++) variance += (x[o + i]! - mean) ** 2;
    const scale = 1 / Math.sqrt(variance / size + eps);
    for (let i = 0; i < size; i++) x[o + i] = (x[o + i]! - mean) * scale * norm.gamma[i]! + norm.beta[i]!;
  }
}

function addInPlace(x: Float32Array, y: Float32Array): void {
  for (let i = 0; i < x.length; i++) x[i] = x[i]! + y[i]!;
}

export class SpladeReference {
  private constructor(
    readonly tokenizer: WordPieceTokenizer,
    private readonly config: SpladeConfig,
    private readonly wordEmbeddings: Float32Array,
    private readonly positionEmbeddings: Float32Array,
    private readonly typeEmbeddings: Float32Array,
    private readonly embeddingNorm: Norm,
    private readonly layers: readonly Layer[],
    private readonly transform: Dense,
    private readonly transformNorm: Norm,
    private readonly outputBias: Float32Array,
  ) {}

  static load(dir: string): SpladeReference {
    const config = readSpladeConfig(dir);
    const tensors = readSafetensors(path.join(dir, 'model.safetensors'));
    const take = (name: string, shape: number[]): Float32Array => tensorOf(tensors, name, shape);
    const h = config.hidden;
    const denseOf = (prefix: string, inSize: number, outSize: number): Dense => ({
      w: take(`${prefix}.weight`, [outSize, inSize]),
      b: take(`${prefix}.bias`, [outSize]),
      inSize,
      outSize,
    });
    const normOf = (prefix: string): Norm => ({
      gamma: take(`${prefix}.gamma`, [h]),
      beta: take(`${prefix}.beta`, [h]),
    });
    const layers: Layer[] = [];
    for (let l = 0; l < config.layers; l++) {
      const p = `bert.encoder.layer.${l}`;
      layers.push({
        q: denseOf(`${p}.attention.self.query`, h, h),
        k: denseOf(`${p}.attention.self.key`, h, h),
        v: denseOf(`${p}.attention.self.value`, h, h),
        attnOut: denseOf(`${p}.attention.output.dense`, h, h),
        attnNorm: normOf(`${p}.attention.output.LayerNorm`),
        inter: denseOf(`${p}.intermediate.dense`, h, config.intermediate),
        out: denseOf(`${p}.output.dense`, config.intermediate, h),
        outNorm: normOf(`${p}.output.LayerNorm`),
      });
    }
    return new SpladeReference(
      WordPieceTokenizer.fromVocabFile(path.join(dir, 'vocab.txt')),
      config,
      take('bert.embeddings.word_embeddings.weight', [config.vocab, h]),
      take('bert.embeddings.position_embeddings.weight', [config.maxPositions, h]),
      take('bert.embeddings.token_type_embeddings.weight', [2, h]),
      normOf('bert.embeddings.LayerNorm'),
      layers,
      denseOf('cls.predictions.transform.dense', h, h),
      normOf('cls.predictions.transform.LayerNorm'),
      take('cls.predictions.bias', [config.vocab]),
    );
  }

  /** Token ids of `text` as the model reads it: [CLS] pieces [SEP], cut to `maxTokens`. */
  ids(text: string, maxTokens: number): number[] {
    return this.tokenizer.encode(text, maxTokens);
  }

  /** The activation of every vocabulary term: max over tokens of log(1 + ReLU(logit)). */
  activations(text: string, maxTokens = 256): Float32Array {
    const ids = this.ids(text, Math.min(maxTokens, this.config.maxPositions));
    const { hidden: h, heads, eps, vocab } = this.config;
    const n = ids.length;
    const x = new Float32Array(n * h);
    for (let t = 0; t < n; t++)
      for (let i = 0; i < h; i++)
        x[t * h + i] =
          this.wordEmbeddings[ids[t]! * h + i]! + this.positionEmbeddings[t * h + i]! + this.typeEmbeddings[i]!;
    layerNorm(x, n, h, this.embeddingNorm, eps);
    let state: Float32Array = x;
    const headSize = h / heads;
    const scale = 1 / Math.sqrt(headSize);
    for (const layer of this.layers) {
      const q = dense(state, n, layer.q);
      const k = dense(state, n, layer.k);
      const v = dense(state, n, layer.v);
      const context = new Float32Array(n * h);
      const scores = new Float32Array(n);
      for (let head = 0; head < heads; head++) {
        const ho = head * headSize;
        for (let i = 0; i < n; i++) {
          let max = -Infinity;
          for (let j = 0; j < n; j++) {
            let dot = 0;
            for (let d = 0; d < headSize; d++) dot += q[i * h + ho + d]! * k[j * h + ho + d]!;
            scores[j] = dot * scale;
            if (scores[j]! > max) max = scores[j]!;
          }
          let total = 0;
          for (let j = 0; j < n; j++) {
            scores[j] = Math.exp(scores[j]! - max);
            total += scores[j]!;
          }
          for (let j = 0; j < n; j++) {
            const p = scores[j]! / total;
            for (let d = 0; d < headSize; d++)
              context[i * h + ho + d] = context[i * h + ho + d]! + p * v[j * h + ho + d]!;
          }
        }
      }
      const attended = dense(context, n, layer.attnOut);
      addInPlace(attended, state);
      layerNorm(attended, n, h, layer.attnNorm, eps);
      const inter = dense(attended, n, layer.inter);
      gelu(inter);
      const out = dense(inter, n, layer.out);
      addInPlace(out, attended);
      layerNorm(out, n, h, layer.outNorm, eps);
      state = out;
    }
    const transformed = dense(state, n, this.transform);
    gelu(transformed);
    layerNorm(transformed, n, h, this.transformNorm, eps);
    // The decoder is the word embedding matrix (tied): logit(t, v) = transformed[t] · word[v] + bias[v].
    const weights = new Float32Array(vocab);
    const word = this.wordEmbeddings;
    for (let term = 0; term < vocab; term++) {
      const wo = term * h;
      let best = 0;
      for (let t = 0; t < n; t++) {
        const to = t * h;
        let dot = this.outputBias[term]!;
        for (let i = 0; i < h; i++) dot += transformed[to + i]! * word[wo + i]!;
        if (dot > best) best = dot;
      }
      weights[term] = best > 0 ? Math.log1p(best) : 0;
    }
    return weights;
  }
}
