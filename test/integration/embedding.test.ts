import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadSettings } from '../../src/config/settings';
import { cosine, OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { MODEL_VECTORS } from '../../src/embedding/embedding-space';
import { EMBEDDING_MODELS } from '../../src/embedding/models';
import { ErrorCode } from '../../src/errors';
import { paperFilterParams, queries } from '../../src/graph/query-registry';
import { IngestService } from '../../src/ingest/ingest-service';
import type { GraphExecutor } from '../../src/graph/executor';
import type { Embedder } from '../../src/embedding/embedder';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app } = createTestContext();

const OWN = ['scifact-mini', 'scifact-defer', 'scifact-overlap', 'scifact-overlap-defer'];
beforeAll(() => removeCollections(app, OWN));
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('the local embedding model', () => {
  it('is real: related sentences score clearly higher than unrelated ones', async () => {
    const embedder = await app.embedder();
    const [a, b, c, d] = await embedder.embed([
      'Aspirin reduces the risk of heart attack.',
      'Acetylsalicylic acid lowers the incidence of myocardial infarction.',
      'The stock market fell sharply on Monday.',
      'Low-dose aspirin prevents cardiovascular events.',
    ]);
    expect(a).toHaveLength(384);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 5);
    expect(cosine(a!, b!)).toBeGreaterThan(0.5);
    expect(cosine(a!, d!)).toBeGreaterThan(0.5);
    expect(cosine(a!, c!)).toBeLessThan(0.2);
    expect(cosine(a!, b!) - cosine(a!, c!)).toBeGreaterThan(0.35);
  });

  it("pools as the model says and puts the model's prefix before a query, not before a passage", async () => {
    // MiniLM's own weights under a made-up profile: [CLS] pooling and a query prefix.
    const profile = { ...EMBEDDING_MODELS.minilm!, name: 'test', pooling: 'cls' as const, queryPrefix: 'search: ' };
    const cls = await OnnxSentenceEmbedder.load(loadSettings().model, profile);
    try {
      const text = 'Aspirin reduces the risk of heart attack.';
      const [mean] = await (await app.embedder()).embed([text]);
      const [passage] = await cls.embed([text]);
      const [query] = await cls.embed([text], 'query');
      const [prefixed] = await cls.embed([`search: ${text}`]);
      expect(Math.hypot(...passage!)).toBeCloseTo(1, 5);
      // The [CLS] state is another vector than the mean of the tokens.
      expect(cosine(passage!, mean!)).toBeLessThan(0.99);
      // A query is the prefixed text; a passage is the text as it is.
      expect(Array.from(query!)).toEqual(Array.from(prefixed!));
      expect(cosine(query!, passage!)).toBeLessThan(0.999);
      // The default model has no prefix: its query and passage vectors are one.
      const [asQuery] = await (await app.embedder()).embed([text], 'query');
      for (let i = 0; i < 384; i += 1) expect(asQuery![i]).toBeCloseTo(mean![i]!, 5);
    } finally {
      await cls.close();
    }
  });

  it('is deterministic, whatever the batch around a text', async () => {
    const embedder = await app.embedder();
    const text = 'Estrogen therapy and the risk of breast cancer in postmenopausal women.';
    const [alone] = await embedder.embed([text]);
    const batch = await embedder.embed([
      'short',
      text,
      'a much longer sentence that pads the batch with many more tokens than the others',
    ]);
    const again = await embedder.embed([text]);
    expect(Array.from(again[0]!)).toEqual(Array.from(alone!));
    for (let i = 0; i < 384; i += 1) expect(batch[1]![i]).toBeCloseTo(alone![i]!, 4);
  });

  it('runs the model on a thread of its own: the event loop turns during a batch, callers get their own vectors', async () => {
    // One batch of 32 texts at the model's 256 word pieces: on the calling thread it froze the loop throughout.
    const own = await OnnxSentenceEmbedder.load({ ...loadSettings().model, batchSize: 32 });
    const long = Array.from({ length: 32 }, (_, i) => `Passage ${i}: ${'aspirin dose response platelet '.repeat(60)}`);
    let settled = false;
    let turns = 0;
    const spin = (): void => {
      turns += 1;
      if (!settled) setImmediate(spin);
    };
    const running = own.embed(long).finally(() => {
      settled = true;
    });
    setImmediate(spin);
    // Another caller's short texts, at the same time, get their own vectors, not a row of the long batch.
    const [short, vectors] = await Promise.all([own.embed(['heart attack', 'stock market']), running]);
    expect(vectors).toHaveLength(32);
    expect(turns).toBeGreaterThan(20);
    const [heart, market] = await (await app.embedder()).embed(['heart attack', 'stock market']);
    for (let i = 0; i < 384; i += 1) {
      expect(short[0]![i]).toBeCloseTo(heart![i]!, 4);
      expect(short[1]![i]).toBeCloseTo(market![i]!, 4);
    }
    await own.close();
    await expect(own.embed(['a sentence'])).rejects.toMatchObject({ code: ErrorCode.MODEL_UNAVAILABLE });
  });

  it('embeds chunks at ingest and finds a paper by its own words through the vector index', async () => {
    const lines = gunzipSync(readFileSync(path.join(SHARED_DIR, 'data/scifact/corpus.jsonl.gz')))
      .toString('utf8')
      .split('\n')
      .slice(0, 40);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'embed-')), 'corpus.jsonl');
    writeFileSync(file, lines.join('\n'));
    const summary = await app.ingest.ingestFiles([file], { embed: 'now', collection: 'scifact-mini', progress: false });
    expect(summary.chunksEmbedded).toBe(summary.chunks);
    const target = JSON.parse(lines[7]!) as { _id: string; title: string };
    const [vector] = await (await app.embedder()).embed([target.title]);
    // The vector index finds the paper from its title (dense retrieval alone, no BM25).
    const hits = await app.executor.read<{ paperId: string; score: number }>(
      queries().denseChunks({
        ...paperFilterParams({ collections: ['scifact-mini'] }),
        index: MODEL_VECTORS.index,
        vector: Array.from(vector!),
        k: 5,
        limit: 50,
      }),
    );
    expect(hits[0]!.paperId).toBe(`scifact-mini:${target._id}`);
  });

  it('backfills embeddings of chunks ingested with deferred embedding', async () => {
    const lines = gunzipSync(readFileSync(path.join(SHARED_DIR, 'data/scifact/corpus.jsonl.gz')))
      .toString('utf8')
      .split('\n')
      .slice(40, 60);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'defer-')), 'corpus.jsonl');
    writeFileSync(file, lines.join('\n'));
    const summary = await app.ingest.ingestFiles([file], {
      embed: 'defer',
      collection: 'scifact-defer',
      progress: false,
    });
    expect(summary.chunksEmbedded).toBe(0);
    const result = await app.ingest.embedMissing(16, false);
    expect(result.embedded).toBe(summary.chunks);
    expect((await app.ingest.embedMissing(16, false)).embedded).toBe(0);
  });

  describe('the model and the writer at once', () => {
    // Every write made slow and every embedding call recorded: a batch embedded while another batch's write is
    // open shows that the two overlap; sequential code would embed only between writes.
    const timeline: string[] = [];
    const slowWriter = (method: 'writeTransaction' | 'write'): GraphExecutor =>
      new Proxy(app.executor, {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (property !== method || typeof value !== 'function') {
            return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
          }
          return async (...args: unknown[]) => {
            timeline.push('write starts');
            await new Promise((resolve) => setTimeout(resolve, 400));
            const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            timeline.push('write ends');
            return result;
          };
        },
      });
    const recordingEmbedder = async (): Promise<Embedder> => {
      const inner = await app.embedder();
      return {
        dimensions: inner.dimensions,
        tokenizer: inner.tokenizer,
        modelName: inner.modelName,
        embed: (texts, kind) => {
          timeline.push('embed');
          return inner.embed(texts, kind);
        },
      };
    };
    const service = (executor: GraphExecutor) =>
      new IngestService({
        executor,
        embedder: recordingEmbedder,
        tokenCounter: async () => (await app.embedder()).tokenizer,
        chunking: app.settings.chunking,
        ingest: { ...app.settings.ingest, batchSize: 4 },
        documents: app.settings.documents,
        logger: app.logger,
      });
    const records = (from: number, to: number) => {
      const lines = gunzipSync(readFileSync(path.join(SHARED_DIR, 'data/scifact/corpus.jsonl.gz')))
        .toString('utf8')
        .split('\n')
        .slice(from, to);
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'overlap-')), 'corpus.jsonl');
      writeFileSync(file, lines.join('\n'));
      return file;
    };
    const embedsDuringWrites = () =>
      timeline.filter(
        (event, index) =>
          event === 'embed' && timeline.lastIndexOf('write starts', index) > timeline.lastIndexOf('write ends', index),
      ).length;
    const storedVectors = async (collection: string) => {
      const [row] = await app.executor.read<{ chunks: number; embedded: number }>({
        name: 'test/stored-vectors',
        text: 'MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk) WHERE $collection IN p.collections RETURN count(c) AS chunks, count(c.embedding) AS embedded',
        params: { collection },
      });
      return row!;
    };

    it('ingest embeds the next batch while the previous one is written, and writes every record whole', async () => {
      timeline.length = 0;
      const summary = await service(slowWriter('writeTransaction')).ingestFiles([records(60, 76)], {
        embed: 'now',
        collection: 'scifact-overlap',
        progress: false,
      });
      expect(summary.papersWritten).toBe(16);
      expect(summary.skipped).toEqual([]);
      expect(timeline.filter((event) => event === 'write starts')).toHaveLength(4);
      expect(embedsDuringWrites()).toBeGreaterThanOrEqual(3);
      expect(await storedVectors('scifact-overlap')).toEqual({ chunks: summary.chunks, embedded: summary.chunks });
    });

    it('the embedding backfill writes one batch while it embeds the next, and embeds every chunk once', async () => {
      const summary = await app.ingest.ingestFiles([records(80, 92)], {
        embed: 'defer',
        collection: 'scifact-overlap-defer',
        progress: false,
      });
      timeline.length = 0;
      const result = await service(slowWriter('write')).embedMissing(4, false);
      expect(result.embedded).toBe(summary.chunks);
      expect(embedsDuringWrites()).toBeGreaterThanOrEqual(2);
      expect(await storedVectors('scifact-overlap-defer')).toEqual({
        chunks: summary.chunks,
        embedded: summary.chunks,
      });
    });
  });
});
