import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import path from 'node:path';
import type { Embedder, TextKind } from './embedder';

/** SHA-256 of a file's bytes, hex. The cache's namespace: another model file is another cache. */
export function fileSha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Bytes of one record: the 32-byte SHA-256 of the exact text, then the vector as little-endian float32. */
function recordBytes(dimensions: number): number {
  return 32 + dimensions * 4;
}

export interface EmbeddingCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly entries: number;
}

/**
 * An on-disk cache of sentence vectors keyed by the model file's hash and the exact text embedded. One append-only
 * file per model (`<dir>/<model sha256>.f32`) of fixed-size records, read once when the cache opens; a record cut
 * short by a crash is ignored, and appending a text twice (two processes racing) only stores the same vector twice.
 * A re-ingest, a second collection holding the same paper or a settings change that keeps chunk texts embeds
 * nothing again; a changed chunking embeds only the changed texts.
 */
export class CachingEmbedder implements Embedder {
  /** Vectors held in memory, least recently used first (a Map keeps insertion order); at most `maxEntries`. */
  private readonly vectors = new Map<string, Float32Array>();
  private hits = 0;
  private misses = 0;

  private constructor(
    private readonly inner: Embedder,
    readonly file: string,
    /** Vectors kept in memory; older ones are dropped (they stay on disk and are read again at the next open). */
    private readonly maxEntries: number,
  ) {}

  get dimensions(): number {
    return this.inner.dimensions;
  }

  get tokenizer(): Embedder['tokenizer'] {
    return this.inner.tokenizer;
  }

  /** Opens (or starts) the cache of the model whose file hash is `modelHash` in `dir`. */
  static open(inner: Embedder, dir: string, modelHash: string, maxEntries = DEFAULT_MAX_ENTRIES): CachingEmbedder {
    mkdirSync(dir, { recursive: true });
    const cache = new CachingEmbedder(inner, path.join(dir, `${modelHash}.f32`), maxEntries);
    cache.load();
    return cache;
  }

  get modelName(): string | undefined {
    return this.inner.modelName;
  }

  stats(): EmbeddingCacheStats {
    return { hits: this.hits, misses: this.misses, entries: this.vectors.size };
  }

  async embed(texts: readonly string[], kind: TextKind = 'passage'): Promise<Float32Array[]> {
    // A query may be embedded with a prefix a passage is not: its own key.
    const keys = texts.map((text) => textKey(kind === 'query' ? `\u0000query\u0000${text}` : text));
    const result = new Array<Float32Array>(texts.length);
    const missing: number[] = [];
    const firstOfKey = new Map<string, number>();
    keys.forEach((key, index) => {
      const cached = this.vectors.get(key);
      if (cached) {
        this.remember(key, cached);
        result[index] = cached.slice();
        this.hits += 1;
      } else if (!firstOfKey.has(key)) {
        firstOfKey.set(key, index);
        missing.push(index);
      }
    });
    // Vectors computed in this call, by key: a batch larger than the memory bound still answers every text.
    const computedOf = new Map<string, Float32Array>();
    if (missing.length > 0) {
      const computed = await this.inner.embed(
        missing.map((index) => texts[index]!),
        kind,
      );
      const records = Buffer.alloc(missing.length * recordBytes(this.dimensions));
      missing.forEach((index, position) => {
        const vector = computed[position]!;
        computedOf.set(keys[index]!, vector);
        this.remember(keys[index]!, vector.slice());
        const at = position * recordBytes(this.dimensions);
        Buffer.from(keys[index]!, 'hex').copy(records, at);
        for (let d = 0; d < vector.length; d += 1) records.writeFloatLE(vector[d]!, at + 32 + d * 4);
      });
      this.misses += missing.length;
      appendFileSync(this.file, records);
    }
    keys.forEach((key, index) => {
      if (result[index]) return;
      const vector = this.vectors.get(key) ?? computedOf.get(key)!;
      result[index] = vector.slice();
      if (firstOfKey.get(key) !== index) this.hits += 1;
    });
    return result;
  }

  /** Keeps a vector as the most recently used one, dropping the least recently used past `maxEntries`. */
  private remember(key: string, vector: Float32Array): void {
    this.vectors.delete(key);
    this.vectors.set(key, vector);
    while (this.vectors.size > this.maxEntries) this.vectors.delete(this.vectors.keys().next().value!);
  }

  private load(): void {
    if (!existsSync(this.file)) return;
    const size = recordBytes(this.dimensions);
    const bytesOnDisk = statSync(this.file).size;
    const whole = Math.floor(bytesOnDisk / size);
    // A record cut short by a crash would misalign every record appended after it.
    if (bytesOnDisk !== whole * size) truncateSync(this.file, whole * size);
    const bytes = readFileSync(this.file);
    for (let at = 0; at < bytes.length; at += size) {
      const key = bytes.toString('hex', at, at + 32);
      // A copy of the record's bytes viewed as floats (little-endian, as written; every platform Node runs on is).
      const vector = new Float32Array(bytes.buffer.slice(bytes.byteOffset + at + 32, bytes.byteOffset + at + size));
      this.remember(key, vector);
    }
  }
}

/** Vectors held in memory by default: about 150 MB of 384-dimension vectors. */
const DEFAULT_MAX_ENTRIES = 100_000;

function textKey(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
