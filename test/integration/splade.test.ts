import path from 'node:path';
import { loadSettings } from '../../src/config/settings';
import { SpladeEncoder } from '../../src/embedding/splade';
import { ErrorCode } from '../../src/errors';
import { SearchService } from '../../src/retrieval/search-service';
import { createTestContext, removeCollections } from '../helpers/context';
import { writeSearchCorpus } from '../helpers/search-corpus';
import { SpladeReference } from '../helpers/splade-reference';

const { app } = createTestContext();
const COLLECTION = 'splade-corpus';
const only = { collections: [COLLECTION] };
const plain = { expansion: false, citation: false, pagerank: false, mmr: false };
const dir = loadSettings().model.spladeDir;
let encoder: SpladeEncoder;

beforeAll(async () => {
  encoder = await SpladeEncoder.load(dir);
  await removeCollections(app, [COLLECTION]);
  await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: COLLECTION, progress: false });
});
afterAll(async () => {
  await encoder.close();
  await removeCollections(app, [COLLECTION]);
  await app.close();
});

describe('SPLADE-tiny, run by onnxruntime from a graph written from its weights', () => {
  it('computes what the forward pass written out loop by loop computes, alone or batched with longer texts', async () => {
    const reference = SpladeReference.load(dir);
    const texts = [
      'Heart attack risk in smokers',
      'Does vitamin D supplementation reduce fracture risk in older adults? A randomised trial of 2,686 people.',
      'IL-6 signalling through STAT3 in CD4+ T cells',
    ];
    // Batched: rows of unequal length share a padded batch; alone: one row each.
    const batched = await encoder.activations(texts);
    for (const [index, text] of texts.entries()) {
      const expected = reference.activations(text);
      const [alone] = await encoder.activations([text]);
      for (const got of [alone!, batched[index]!]) {
        expect(got).toHaveLength(30_522);
        let worst = 0;
        for (let i = 0; i < expected.length; i++) worst = Math.max(worst, Math.abs(expected[i]! - got[i]!));
        expect(worst).toBeLessThan(1e-4);
      }
      expect(expected.some((value) => value > 1)).toBe(true);
    }
  });

  it('is real: a text weighs its own words and the words they imply, not unrelated ones', async () => {
    const [heart, market] = await encoder.terms(
      ['heart attack risk in smokers', 'the stock market fell on Monday'],
      20,
    );
    const words = (terms: Array<{ term: string }>) => terms.map((t) => t.term);
    expect(words(heart!).slice(0, 4)).toEqual(expect.arrayContaining(['heart', 'attack']));
    // Expansion: the text never says "cigarette".
    expect(words(heart!)).toContain('cigarette');
    expect(words(market!)).toEqual(expect.arrayContaining(['stock', 'market']));
    expect(words(market!)).not.toContain('heart');
    // Weights are sorted and positive; no word-piece continuation or special token is a term.
    expect(heart!.every((t, i) => t.weight > 0 && (i === 0 || heart![i - 1]!.weight >= t.weight))).toBe(true);
    expect(words(heart!).every((term) => /^[a-z0-9]+$/.test(term))).toBe(true);
  });

  it("weighs a query's own words, those the vocabulary splits into pieces too, before the words it implies", async () => {
    const words = ['hydroxychloroquine', 'heart', 'attack'];
    const terms = await encoder.queryTerms('hydroxychloroquine and heart attack', words, {
      limit: 10,
      floor: 0.3,
      expansionWeight: 0.25,
    });
    expect(terms).toHaveLength(10);
    // "hydroxychloroquine" is no single vocabulary term: it weighs its heaviest piece, at least the floor.
    expect(terms.slice(0, 3).map((t) => t.term)).toEqual(expect.arrayContaining(words));
    expect(terms.find((t) => t.term === 'hydroxychloroquine')!.weight).toBeGreaterThanOrEqual(0.3);
    const [plain] = await encoder.activations(['hydroxychloroquine and heart attack'], 128);
    const heartId = encoder.tokenizer.tokenize('heart')[0]!.id;
    expect(terms.find((t) => t.term === 'heart')!.weight).toBeCloseTo(plain![heartId]!, 5);
    // Implied words carry a quarter of their activation, so none outweighs the lightest own word's activation.
    const implied = terms.slice(3);
    expect(implied.every((t) => !words.includes(t.term) && t.weight <= 0.25 * 3)).toBe(true);
    expect(implied.every((t, i) => i === 0 || implied[i - 1]!.weight >= t.weight)).toBe(true);
  });

  it('says which file is missing when the model is not set up', async () => {
    await expect(SpladeEncoder.load(path.join(dir, 'nowhere'))).rejects.toMatchObject({
      code: ErrorCode.MODEL_UNAVAILABLE,
      message: expect.stringContaining('--only splade'),
    });
  });
});

describe("search's SPLADE list", () => {
  it('fuses a third list from the weighted terms of the query, and explains every rank with it', async () => {
    const response = await app.search.search(app.requestContext(), 'heart attack in smokers', 8, only, {
      ...plain,
      splade: true,
    });
    const trace = response.trace;
    expect(trace.splade?.skipped).toBeNull();
    expect(trace.splade?.terms.map((t) => t.term)).toEqual(expect.arrayContaining(['heart', 'attack', 'cigarette']));
    expect(trace.counts.splade).toBeGreaterThan(0);
    expect(trace.timings.spladeEncodeMs).toBeGreaterThan(0);
    expect(response.results.some((result) => result.trace.splade !== null)).toBe(true);
    const { sparseWeight, denseWeight, spladeWeight, rrfK } = trace.options;
    for (const { trace: t } of response.results) {
      const expected =
        (t.sparse ? sparseWeight / (rrfK + t.sparse.rank) : 0) +
        (t.dense ? denseWeight / (rrfK + t.dense.rank) : 0) +
        (t.splade ? spladeWeight / (rrfK + t.splade.rank) : 0);
      expect(t.fusedScore).toBeCloseTo(expected, 10);
    }
    // The paper on heart attacks ranks first in the SPLADE list itself.
    const first = response.results.find((result) => result.trace.splade?.rank === 1);
    expect(first?.paper.id).toBe('W906');
  });

  it('runs alone, is left out unless asked for, and a search with no list at all is refused', async () => {
    const alone = await app.search.search(app.requestContext(), 'sleep loss and memory', 3, only, {
      ...plain,
      sparse: false,
      dense: false,
      splade: true,
    });
    expect(alone.results[0]!.paper.id).toBe('W904');
    expect(alone.results.every((r) => r.trace.sparse === null && r.trace.dense === null)).toBe(true);
    const without = await app.search.search(app.requestContext(), 'sleep loss and memory', 3, only, plain);
    expect(without.trace.splade).toBeNull();
    expect(without.results.every((r) => r.trace.splade === null)).toBe(true);
    await expect(
      app.search.search(app.requestContext(), 'sleep', 3, only, { sparse: false, dense: false, splade: false }),
    ).rejects.toMatchObject({ code: ErrorCode.BAD_USER_INPUT });
  });

  it('leaves the list out and says why when the model cannot be loaded, and still answers', async () => {
    const search = new SearchService(
      app.executor,
      () => app.embedder(),
      app.search.defaultOptions,
      null,
      () => SpladeEncoder.load(path.join(dir, 'nowhere')),
    );
    const response = await search.search(app.requestContext(), 'aspirin heart attack', 3, only, {
      ...plain,
      splade: true,
    });
    expect(response.trace.splade?.skipped).toContain('is missing');
    expect(response.trace.counts.splade).toBe(0);
    expect(response.results.length).toBeGreaterThan(0);
  });
});
