import { MODEL_VECTORS } from '../../src/embedding/embedding-space';
import { queries } from '../../src/graph/query-registry';
import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks } from '../helpers/openalex-corpus';

/**
 * The graph records which model its chunk vectors come from: a service of another model refuses to compare its
 * queries with them and says how to re-embed; the change of model removes every old vector and embeds anew.
 */
const { app } = createTestContext();
const OWN = ['embedding-space'];

beforeAll(async () => {
  await ingestWorks(app, 'embedding-space', [
    {
      id: 'W9801',
      title: 'Vagus nerve stimulation for drug-resistant epilepsy',
      abstract:
        'Vagus nerve stimulation reduced seizure frequency by half in a third of adults with refractory epilepsy.',
      year: 2015,
    },
    {
      id: 'W9802',
      title: 'Ketogenic diet in children with refractory seizures',
      abstract: 'A ketogenic diet cut seizures by more than half in 38% of children after three months.',
      year: 2008,
    },
  ]);
});
afterAll(async () => {
  // Whatever a failed test left, the graph records MiniLM again, the model of every other suite.
  await app.executor.write(queries().recordEmbeddingSpace({ space: MODEL_VECTORS.space, model: 'minilm' }));
  await removeCollections(app, OWN);
  await app.close();
});

describe('the embedding space of the graph', () => {
  it('records the model its vectors come from, and the service it serves with', async () => {
    await app.embedder();
    expect(await app.embeddingSpace.recorded()).toBe('minilm');
    expect(app.embeddingSpace.model).toBe('minilm');
  });

  it('refuses a service of another model, naming both and the command that re-embeds', async () => {
    const other = createTestContext({ CITEGRAPH_EMBEDDING_MODEL: 'bge-small' }).app;
    try {
      await expect(other.embedder()).rejects.toThrow(
        /come from the embedding model "minilm", and this service embeds with "bge-small".*citegraph embed --model bge-small/,
      );
      await expect(other.search.search(other.requestContext(), 'vagus nerve stimulation', 5)).rejects.toThrow(
        /vectors of two models cannot be compared/,
      );
    } finally {
      await other.close();
    }
  });

  it('changes model by removing every old vector, then embedding every chunk anew; search finds by meaning again', async () => {
    // A graph whose vectors another model made: this MiniLM service refuses it until the change.
    await app.executor.write(queries().recordEmbeddingSpace({ space: MODEL_VECTORS.space, model: 'bge-small' }));
    const fresh = createTestContext().app;
    try {
      await expect(fresh.embedder()).rejects.toThrow(/"bge-small".*citegraph embed --model minilm/);
      const chunks = (await fresh.catalog.stats()).counts.chunks ?? 0;
      const removed = await fresh.embeddingSpace.switchTo(1);
      // Every chunk's vector (and any document set's).
      expect(removed).toBeGreaterThanOrEqual(chunks);
      expect(await fresh.catalog.pendingChunks()).toBe(chunks);
      expect(await fresh.embeddingSpace.recorded()).toBe('minilm');
      const result = await fresh.ingest.embedMissing(256, false);
      expect(result.embedded).toBe(chunks);
      expect(await fresh.catalog.pendingChunks()).toBe(0);
      const dense = await fresh.search.search(
        fresh.requestContext(),
        'electrical stimulation of a cranial nerve to control fits',
        2,
        { collections: OWN },
        { sparse: false, citation: false, expansion: false, pagerank: false, mmr: false },
      );
      expect(dense.results[0]!.paper.id).toBe('W9801');
    } finally {
      await fresh.close();
    }
  });
});
