import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ModelSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

/** Dimensions of all-MiniLM-L6-v2 sentence embeddings. */
export const EMBEDDING_DIMENSIONS = 384;

/** Turns texts into unit-length sentence vectors. */
export interface Embedder {
  readonly dimensions: number;
  readonly tokenizer: WordPieceTokenizer;
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

type Ort = typeof import('onnxruntime-node');

export function modelFiles(settings: Pick<ModelSettings, 'dir'>): { model: string; vocab: string } {
  return { model: path.join(settings.dir, 'model.onnx'), vocab: path.join(settings.dir, 'vocab.txt') };
}

/**
 * all-MiniLM-L6-v2 run locally by onnxruntime: BERT word pieces in, token states out, then mean pooling over the
 * attention mask and L2 normalisation, as sentence-transformers does. Deterministic: same text, same vector.
 */
export class OnnxSentenceEmbedder implements Embedder {
  readonly dimensions = EMBEDDING_DIMENSIONS;

  private constructor(
    private readonly ort: Ort,
    private readonly session: import('onnxruntime-node').InferenceSession,
    readonly tokenizer: WordPieceTokenizer,
    private readonly settings: ModelSettings,
  ) {}

  static async load(settings: ModelSettings): Promise<OnnxSentenceEmbedder> {
    const files = modelFiles(settings);
    for (const file of [files.model, files.vocab]) {
      if (!existsSync(file)) {
        throw new CitegraphError(
          ErrorCode.MODEL_UNAVAILABLE,
          `embedding model file ${file} is missing: run \`node scripts/setup.js\``,
        );
      }
    }
    const ort = await import('onnxruntime-node');
    const session = await ort.InferenceSession.create(files.model, {
      executionProviders: ['cpu'],
      graphOptimizationLevel: settings.optimization,
      ...(settings.threads > 0 ? { intraOpNumThreads: settings.threads } : {}),
    });
    return new OnnxSentenceEmbedder(ort, session, WordPieceTokenizer.fromVocabFile(files.vocab), settings);
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.tokenizer.encode(text, this.settings.maxSequenceLength));
    // Similar lengths in one batch waste less padding.
    const order = encoded.map((_, index) => index).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const result = new Array<Float32Array>(texts.length);
    for (let offset = 0; offset < order.length; offset += this.settings.batchSize) {
      const batch = order.slice(offset, offset + this.settings.batchSize);
      const vectors = await this.runBatch(batch.map((index) => encoded[index]!));
      batch.forEach((index, position) => {
        result[index] = vectors[position]!;
      });
    }
    return result;
  }

  private async runBatch(batch: number[][]): Promise<Float32Array[]> {
    const width = Math.max(...batch.map((ids) => ids.length));
    const size = batch.length * width;
    const inputIds = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    const types = new BigInt64Array(size);
    batch.forEach((ids, row) => {
      for (let col = 0; col < width; col += 1) {
        const inside = col < ids.length;
        inputIds[row * width + col] = BigInt(inside ? ids[col]! : this.tokenizer.padId);
        mask[row * width + col] = inside ? 1n : 0n;
      }
    });
    const dims = [batch.length, width];
    const output = await this.session.run({
      input_ids: new this.ort.Tensor('int64', inputIds, dims),
      attention_mask: new this.ort.Tensor('int64', mask, dims),
      token_type_ids: new this.ort.Tensor('int64', types, dims),
    });
    const hidden = output.last_hidden_state;
    if (!hidden) throw new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, 'model returned no last_hidden_state');
    const states = hidden.data as Float32Array;
    const dim = this.dimensions;
    return batch.map((ids, row) => meanPoolNormalise(states, row, width, ids.length, dim));
  }
}

/** Mean of the first `length` token states of one row, scaled to unit length. */
export function meanPoolNormalise(
  states: Float32Array,
  row: number,
  width: number,
  length: number,
  dim: number,
): Float32Array {
  const vector = new Float32Array(dim);
  const base = row * width * dim;
  for (let token = 0; token < length; token += 1) {
    const at = base + token * dim;
    for (let d = 0; d < dim; d += 1) vector[d]! += states[at + d]!;
  }
  let norm = 0;
  for (let d = 0; d < dim; d += 1) {
    vector[d]! /= length;
    norm += vector[d]! * vector[d]!;
  }
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dim; d += 1) vector[d]! /= norm;
  return vector;
}

export function cosine(a: Float32Array | number[], b: Float32Array | number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return dot / (Math.sqrt(na) * Math.sqrt(nb) || 1);
}
