import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ModelSettings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import { EMBEDDING_MODELS, type EmbeddingModel } from './models';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

/** Dimensions of all-MiniLM-L6-v2 sentence embeddings. */
export const EMBEDDING_DIMENSIONS = 384;

/**
 * What a text is to a model trained for asymmetric retrieval: a search query, or anything else (passages, and both
 * sides of a symmetric comparison). Models without prefixes treat both alike.
 */
export type TextKind = 'query' | 'passage';

/** Turns texts into unit-length sentence vectors. */
export interface Embedder {
  readonly dimensions: number;
  readonly tokenizer: WordPieceTokenizer;
  embed(texts: readonly string[], kind?: TextKind): Promise<Float32Array[]>;
  /** The model's name (src/embedding/models.ts), for caches of vectors made outside the embedder. */
  readonly modelName?: string;
  /** Frees what the embedder holds (a model thread); later calls fail. */
  close?(): Promise<void>;
}

export function modelFiles(settings: Pick<ModelSettings, 'dir'>): { model: string; vocab: string } {
  return { model: path.join(settings.dir, 'model.onnx'), vocab: path.join(settings.dir, 'vocab.txt') };
}

/**
 * The model's thread: onnxruntime-node runs a session synchronously on the thread that calls it, so on the main
 * thread every batch of an upload froze the event loop (health p95 181 ms, loop lag 288 ms while 4,000 sentences were
 * embedded). Here the session lives on a worker thread; word pieces go in, pooled unit vectors come out (buffers are
 * transferred, not copied). Plain JavaScript, evaluated as the worker's source, so that it runs alike from src/ under
 * ts-jest and from dist/.
 */
const MODEL_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
const dim = workerData.dimensions;
const cls = workerData.pooling === 'cls';
const ready = ort.InferenceSession.create(workerData.model, workerData.options);
ready.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }),
);
parentPort.on('message', async ({ id, ids, lengths, width, padId }) => {
  try {
    const session = await ready;
    const rows = lengths.length;
    const size = rows * width;
    const inputIds = new BigInt64Array(size);
    const mask = new BigInt64Array(size);
    const types = new BigInt64Array(size);
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < width; col += 1) {
        const inside = col < lengths[row];
        inputIds[row * width + col] = BigInt(inside ? ids[row * width + col] : padId);
        mask[row * width + col] = inside ? 1n : 0n;
      }
    }
    const dims = [rows, width];
    const output = await session.run({
      input_ids: new ort.Tensor('int64', inputIds, dims),
      attention_mask: new ort.Tensor('int64', mask, dims),
      token_type_ids: new ort.Tensor('int64', types, dims),
    });
    const hidden = output.last_hidden_state;
    if (!hidden) throw new Error('model returned no last_hidden_state');
    const states = hidden.data;
    // Mean of each row's real token states (the attention mask), or its [CLS] state, scaled to unit length, as
    // sentence-transformers does for the model.
    const vectors = new Float32Array(rows * dim);
    for (let row = 0; row < rows; row += 1) {
      const out = row * dim;
      const pooled = cls ? 1 : lengths[row];
      for (let token = 0; token < pooled; token += 1) {
        const at = (row * width + token) * dim;
        for (let d = 0; d < dim; d += 1) vectors[out + d] += states[at + d];
      }
      let norm = 0;
      for (let d = 0; d < dim; d += 1) {
        vectors[out + d] /= pooled;
        norm += vectors[out + d] * vectors[out + d];
      }
      norm = Math.sqrt(norm) || 1;
      for (let d = 0; d < dim; d += 1) vectors[out + d] /= norm;
    }
    parentPort.postMessage({ id, vectors }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  readonly resolve: (vectors: Float32Array) => void;
  readonly reject: (error: Error) => void;
}

interface ThreadMessage {
  readonly ready?: true;
  readonly failed?: string;
  readonly id?: number;
  readonly vectors?: Float32Array;
  readonly error?: string;
}

/**
 * A sentence-embedding model (src/embedding/models.ts; all-MiniLM-L6-v2 unless told) run locally by onnxruntime on a
 * thread of its own: BERT word pieces (made here) in, token states out, then the model's pooling (mean over the
 * attention mask, or the [CLS] state) and L2 normalisation, as sentence-transformers does. Deterministic:
 * same text, same vector. Batches of different callers take turns on the thread, so a question's one vector never
 * waits behind a whole upload. A thread that dies fails its waiting batches and is started anew by the next call.
 */
export class OnnxSentenceEmbedder implements Embedder {
  readonly dimensions = EMBEDDING_DIMENSIONS;
  private thread: Promise<Worker> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  private constructor(
    readonly tokenizer: WordPieceTokenizer,
    private readonly settings: ModelSettings,
    readonly model: EmbeddingModel,
  ) {}

  get modelName(): string {
    return this.model.name;
  }

  /** The model in `settings.dir` (all-MiniLM-L6-v2 unless another is named, with its own folder). */
  static async load(
    settings: ModelSettings,
    model: EmbeddingModel = EMBEDDING_MODELS.minilm!,
  ): Promise<OnnxSentenceEmbedder> {
    const files = modelFiles(settings);
    for (const file of [files.model, files.vocab]) {
      if (!existsSync(file)) {
        throw new CitegraphError(
          ErrorCode.MODEL_UNAVAILABLE,
          `embedding model file ${file} is missing: run \`${model.setup}\``,
        );
      }
    }
    const embedder = new OnnxSentenceEmbedder(WordPieceTokenizer.fromVocabFile(files.vocab), settings, model);
    await embedder.start();
    return embedder;
  }

  /** The model's thread, started when there is none; resolves once its session is loaded. */
  private start(): Promise<Worker> {
    if (this.closed) return Promise.reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, 'embedder closed'));
    this.thread ??= new Promise<Worker>((resolve, reject) => {
      const worker = new Worker(MODEL_THREAD, {
        eval: true,
        workerData: {
          ort: require.resolve('onnxruntime-node'),
          model: modelFiles(this.settings).model,
          dimensions: this.dimensions,
          pooling: this.model.pooling,
          options: {
            executionProviders: ['cpu'],
            graphOptimizationLevel: this.settings.optimization,
            ...(this.settings.threads > 0 ? { intraOpNumThreads: this.settings.threads } : {}),
          },
        },
      });
      // An idle model thread does not keep the process alive; one with batches in flight does (see run()).
      worker.unref();
      const fail = (message: string) => {
        const error = new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, `embedding model: ${message}`);
        this.thread = null;
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      };
      worker.on('message', (message: ThreadMessage) => {
        if (message.ready) return resolve(worker);
        if (message.failed !== undefined) {
          void worker.terminate();
          return fail(message.failed);
        }
        const waiting = this.pending.get(message.id!);
        if (!waiting) return;
        this.pending.delete(message.id!);
        if (this.pending.size === 0) worker.unref();
        if (message.error !== undefined) waiting.reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, message.error));
        else waiting.resolve(message.vectors!);
      });
      worker.on('error', (error) => fail(error.message));
      worker.on('exit', (code) => {
        if (this.thread && !this.closed) fail(`model thread stopped (exit ${code})`);
      });
    });
    return this.thread;
  }

  async embed(texts: readonly string[], kind: TextKind = 'passage'): Promise<Float32Array[]> {
    const prefix = kind === 'query' ? this.model.queryPrefix : this.model.passagePrefix;
    const encoded = texts.map((text) => this.tokenizer.encode(prefix + text, this.settings.maxSequenceLength));
    // Similar lengths in one batch waste less padding.
    const order = encoded.map((_, index) => index).sort((a, b) => encoded[a]!.length - encoded[b]!.length);
    const result = new Array<Float32Array>(texts.length);
    for (let offset = 0; offset < order.length; offset += this.settings.batchSize) {
      const batch = order.slice(offset, offset + this.settings.batchSize);
      const vectors = await this.run(batch.map((index) => encoded[index]!));
      batch.forEach((index, position) => {
        result[index] = vectors.slice(position * this.dimensions, (position + 1) * this.dimensions);
      });
    }
    return result;
  }

  /** One batch on the model's thread: its pooled vectors, one row of `dimensions` after another. */
  private async run(batch: number[][]): Promise<Float32Array> {
    const worker = await this.start();
    const width = Math.max(...batch.map((ids) => ids.length));
    const ids = new Int32Array(batch.length * width);
    batch.forEach((row, index) => ids.set(row, index * width));
    const lengths = Int32Array.from(batch, (row) => row.length);
    const id = this.nextId++;
    return new Promise<Float32Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, ids, lengths, width, padId: this.tokenizer.padId }, [ids.buffer, lengths.buffer]);
    });
  }

  /** Stops the model's thread; batches still waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = null;
    for (const waiting of this.pending.values()) {
      waiting.reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, 'embedder closed'));
    }
    this.pending.clear();
    if (thread) await (await thread.catch(() => null))?.terminate();
  }
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

/** The normalised mean of unit vectors (null when there are none, or they cancel out). */
export function meanVector(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const sum = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < sum.length; i += 1) sum[i]! += vector[i]!;
  const norm = Math.hypot(...sum);
  if (norm === 0) return null;
  for (let i = 0; i < sum.length; i += 1) sum[i]! /= norm;
  return sum;
}
