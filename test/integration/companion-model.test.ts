import { COMPANION_VECTORS } from '../../src/embedding/embedding-space';
import { queries } from '../../src/graph/query-registry';
import type { AppContext } from '../../src/app-context';
import { createTestContext, removeCollections } from '../helpers/context';
import type { IngestSummary } from '../../src/ingest/ingest-types';
import { openAlexRecord, writeJsonl } from '../helpers/openalex-corpus';

/**
 * A companion model (CITEGRAPH_COMPANION_MODEL=e5-small beside MiniLM): ingest stores its vector on every chunk, search
 * fuses its dense list with the dense weight split between the two models, and leaves it out — saying why — while
 * some chunk has no companion vector or the graph's companion vectors are another model's.
 */
const COMPANION = { CITEGRAPH_COMPANION_MODEL: 'e5-small' };
const OWN = ['companion-model', 'companion-model-late'];
const { app } = createTestContext(COMPANION);
const contexts: AppContext[] = [];
const another = (env: Record<string, string> = COMPANION): AppContext => {
  const context = createTestContext(env).app;
  contexts.push(context);
  return context;
};
const FILTER = { collections: ['companion-model'] };

const WORKS = [
  {
    id: 'W9851',
    title: 'Vagus nerve stimulation for drug-resistant epilepsy',
    abstract:
      'Vagus nerve stimulation reduced seizure frequency by half in a third of adults with refractory epilepsy.',
    year: 2015,
  },
  {
    id: 'W9852',
    title: 'Statins and the risk of a first myocardial infarction',
    abstract:
      'In 12,000 adults, atorvastatin lowered LDL cholesterol and the rate of first heart attacks over five years.',
    year: 2011,
  },
  {
    id: 'W9853',
    title: 'Reading aloud to preschool children and vocabulary growth',
    abstract: 'Children read to daily knew more words at school entry than children read to rarely.',
    year: 2019,
  },
];

let ingested: IngestSummary;

beforeAll(async () => {
  await removeCollections(app, OWN);
  await app.executor.write(queries().recordEmbeddingSpace({ space: COMPANION_VECTORS.space, model: 'e5-small' }));
  ingested = await app.ingest.ingestFiles([writeJsonl('companion-model', WORKS.map(openAlexRecord))], {
    embed: 'now',
    collection: 'companion-model',
    progress: false,
  });
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await Promise.all(contexts.map((context) => context.close()));
  await app.close();
});

describe('a companion embedding model', () => {
  it('stores its vector beside the model’s on every chunk an ingest writes', async () => {
    expect(ingested.chunks).toBeGreaterThanOrEqual(WORKS.length);
    expect(ingested.chunksEmbedded).toBe(ingested.chunks);
    // Every chunk without a companion vector, this run's among them (and any an earlier suite left).
    expect(ingested.companionEmbedded).toBeGreaterThanOrEqual(ingested.chunks);
    expect(await app.companion!.space.recorded()).toBe('e5-small');
    expect(await app.catalog.pendingCompanionChunks()).toBe(0);
  });

  it('is a second dense list in the fusion, the dense weight split evenly between the models', async () => {
    const { results, trace } = await app.search.search(
      app.requestContext(),
      'which treatment cuts how often epileptic fits happen',
      3,
      FILTER,
    );
    expect(trace.companion).toEqual({ model: 'e5-small', fused: true, skipped: null });
    expect(trace.counts.companion).toBe(WORKS.length);
    const top = results[0]!;
    expect(top.paper.id).toBe('W9851');
    expect(top.trace.companion?.rank).toBe(1);
    const { sparseWeight, denseWeight, rrfK } = trace.options;
    const share = (weight: number, hit: { rank: number } | null) => (hit ? weight / (rrfK + hit.rank) : 0);
    for (const result of results) {
      expect(result.trace.fusedScore).toBeCloseTo(
        share(sparseWeight, result.trace.sparse) +
          share(denseWeight / 2, result.trace.dense) +
          share(denseWeight / 2, result.trace.companion),
        10,
      );
    }
    // Asked without it: the model's list alone, at the whole dense weight.
    const alone = await app.search.search(
      app.requestContext(),
      'which treatment cuts how often epileptic fits happen',
      3,
      FILTER,
      {
        companion: false,
      },
    );
    expect(alone.trace.companion).toEqual({
      model: 'e5-small',
      fused: false,
      skipped: 'the search asked for none (companion: false)',
    });
    expect(alone.results.every((result) => result.trace.companion === null)).toBe(true);
    const first = alone.results[0]!.trace;
    expect(first.fusedScore).toBeCloseTo(share(sparseWeight, first.sparse) + share(denseWeight, first.dense), 10);
  });

  it('is left out while a chunk has no companion vector, and fused again once `embed` has made it', async () => {
    await app.executor.write(queries().clearChunkEmbeddings({ limit: 1, property: COMPANION_VECTORS.property }));
    const fresh = another();
    const { trace } = await fresh.search.search(fresh.requestContext(), 'seizure frequency', 3, FILTER);
    expect(trace.companion?.fused).toBe(false);
    expect(trace.companion?.skipped).toMatch(/no e5-small vector yet: run `citegraph embed`/);
    expect(trace.counts.companion).toBe(0);
    expect(await fresh.catalog.pendingCompanionChunks()).toBe(1);

    expect((await fresh.ingest.embedCompanionMissing(256, false)).embedded).toBe(1);
    fresh.search.invalidate();
    const again = await fresh.search.search(fresh.requestContext(), 'seizure frequency', 3, FILTER);
    expect(again.trace.companion).toEqual({ model: 'e5-small', fused: true, skipped: null });
  });

  it('is left out when the graph’s companion vectors are another model’s; ingest says so and keeps what it wrote', async () => {
    await app.executor.write(queries().recordEmbeddingSpace({ space: COMPANION_VECTORS.space, model: 'bge-small' }));
    try {
      const fresh = another();
      const { results, trace } = await fresh.search.search(fresh.requestContext(), 'seizure frequency', 3, FILTER);
      expect(results[0]!.paper.id).toBe('W9851');
      expect(trace.companion?.fused).toBe(false);
      expect(trace.companion?.skipped).toMatch(
        /companion chunk vectors come from the embedding model "bge-small".*citegraph embed --companion e5-small/,
      );

      const file = writeJsonl('companion-model-late', [
        openAlexRecord({
          id: 'W9854',
          title: 'Bicycle lanes and commuter injuries',
          abstract: 'Protected lanes halved cycling injuries on the streets that gained them.',
          year: 2020,
        }),
      ]);
      const summary = await fresh.ingest.ingestFiles([file], {
        embed: 'now',
        collection: 'companion-model-late',
        progress: false,
      });
      expect(summary.papersWritten).toBe(1);
      expect(summary.chunksEmbedded).toBe(summary.chunks);
      expect(summary.companionEmbedded).toBe(0);
      expect(summary.warnings).toEqual([
        expect.objectContaining({ where: 'companion model', reason: expect.stringMatching(/"bge-small"/) }),
      ]);
      expect(await fresh.catalog.pendingCompanionChunks()).toBe(summary.chunks);

      // `citegraph embed --companion e5-small`: the other model's vectors removed, every chunk embedded anew.
      const removed = await fresh.companion!.space.switchTo();
      expect(removed).toBeGreaterThanOrEqual(WORKS.length);
      await fresh.ingest.embedCompanionMissing(256, false);
      expect(await fresh.companion!.space.recorded()).toBe('e5-small');
      expect(await fresh.catalog.pendingCompanionChunks()).toBe(0);
    } finally {
      await app.executor.write(queries().recordEmbeddingSpace({ space: COMPANION_VECTORS.space, model: 'e5-small' }));
    }
  });

  it('is refused when it names the model itself', () => {
    expect(() => createTestContext({ CITEGRAPH_COMPANION_MODEL: 'minilm' })).toThrow(
      /names the embedding model itself \(minilm\): a companion is another model/,
    );
  });
});
