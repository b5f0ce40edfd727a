import { mkdtempSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Embedder, TextKind } from '../../src/embedding/embedder';
import { CachingEmbedder } from '../../src/embedding/embedding-cache';
import { embedLabelled } from '../../src/pipeline/route-classifier';
import { WordPieceTokenizer } from '../../src/embedding/wordpiece-tokenizer';

/** A model stand-in that derives a vector from the text's characters and records what it was asked. */
class CountingEmbedder implements Embedder {
  readonly dimensions = 4;
  readonly tokenizer = new WordPieceTokenizer(
    new Map(['[PAD]', '[UNK]', '[CLS]', '[SEP]'].map((token, id) => [token, id])),
  );
  readonly asked: string[] = [];

  embed(texts: readonly string[], kind: TextKind = 'passage'): Promise<Float32Array[]> {
    this.asked.push(...texts.map((text) => (kind === 'query' ? `query:${text}` : text)));
    return Promise.resolve(
      texts.map((text) => Float32Array.from([text.length, text.charCodeAt(0) || 0, 0.1, -text.length / 3])),
    );
  }
}

function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'citegraph-embed-cache-'));
}

describe('on-disk embedding cache', () => {
  it('embeds each exact text once, across calls and within one call', async () => {
    const inner = new CountingEmbedder();
    const cache = CachingEmbedder.open(inner, tempDir(), 'model-a');
    const first = await cache.embed(['alpha', 'beta', 'alpha']);
    const second = await cache.embed(['beta', 'gamma', 'Alpha']);
    expect(inner.asked).toEqual(['alpha', 'beta', 'gamma', 'Alpha']);
    expect(Array.from(first[2]!)).toEqual(Array.from(first[0]!));
    expect(Array.from(second[0]!)).toEqual(Array.from(first[1]!));
    expect(cache.stats()).toEqual({ hits: 2, misses: 4, entries: 4 });
  });

  it('keeps a query apart from a passage of the same text, and tells the model which it is', async () => {
    const inner = new CountingEmbedder();
    const cache = CachingEmbedder.open(inner, tempDir(), 'model-q');
    await cache.embed(['alpha']);
    await cache.embed(['alpha'], 'query');
    await cache.embed(['alpha'], 'query');
    expect(inner.asked).toEqual(['alpha', 'query:alpha']);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, entries: 2 });
  });

  it('reads the vectors back from disk bit for bit, per model hash', async () => {
    const dir = tempDir();
    const texts = ['Mentalization-based treatment', 'ß and ü', ''];
    const written = await CachingEmbedder.open(new CountingEmbedder(), dir, 'model-a').embed(texts);
    const inner = new CountingEmbedder();
    const reread = await CachingEmbedder.open(inner, dir, 'model-a').embed(texts);
    expect(inner.asked).toEqual([]);
    expect(reread.map((vector) => Array.from(vector))).toEqual(written.map((vector) => Array.from(vector)));
    const otherModel = new CountingEmbedder();
    await CachingEmbedder.open(otherModel, dir, 'model-b').embed(texts);
    expect(otherModel.asked).toEqual(texts);
  });

  it('drops a record cut short by a crash and keeps later records aligned', async () => {
    const dir = tempDir();
    const cache = CachingEmbedder.open(new CountingEmbedder(), dir, 'm');
    await cache.embed(['one', 'two']);
    const record = statSync(cache.file).size / 2;
    truncateSync(cache.file, record + 7); // 'two' half written
    const inner = new CountingEmbedder();
    const reopened = CachingEmbedder.open(inner, dir, 'm');
    expect(reopened.stats().entries).toBe(1);
    await reopened.embed(['two', 'three']);
    expect(inner.asked).toEqual(['two', 'three']);
    expect(readFileSync(reopened.file).length).toBe(record * 3);
    const last = new CountingEmbedder();
    const vectors = await CachingEmbedder.open(last, dir, 'm').embed(['one', 'two', 'three']);
    expect(last.asked).toEqual([]);
    expect(Array.from(vectors[2]!)).toEqual(Array.from((await new CountingEmbedder().embed(['three']))[0]!));
  });

  it('hands out copies: changing a returned vector does not change the cache', async () => {
    const cache = CachingEmbedder.open(new CountingEmbedder(), tempDir(), 'm');
    const [vector] = await cache.embed(['x']);
    vector![0] = 99;
    const [again] = await cache.embed(['x']);
    expect(again![0]).toBe(1);
  });

  it("keeps the route classifier's question vectors apart per model", async () => {
    const dir = tempDir();
    const questions = [{ question: 'who cites whom', route: 'bibliometric' as const }];
    const minilm = Object.assign(new CountingEmbedder(), { modelName: 'minilm' });
    const other = Object.assign(new CountingEmbedder(), { modelName: 'bge-small' });
    await embedLabelled(questions, minilm, dir);
    await embedLabelled(questions, minilm, dir);
    // Embedded once, as a search query (the route stage embeds the question asked so); the second call read the cache.
    expect(minilm.asked).toEqual(['query:who cites whom']);
    await embedLabelled(questions, other, dir);
    expect(other.asked).toEqual(['query:who cites whom']); // another model's vectors are its own
  });
});
