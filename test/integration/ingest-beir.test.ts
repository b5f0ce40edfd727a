import path from 'node:path';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app } = createTestContext();
const CORPUS = path.join(SHARED_DIR, 'data/scifact/corpus.jsonl.gz');

const OWN = ['scifact', 'scifact-copy'];
let before: Awaited<ReturnType<typeof app.catalog.stats>>;

beforeAll(async () => {
  await removeCollections(app, OWN);
  before = await app.catalog.stats();
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('ingesting a BEIR corpus', () => {
  it('gives 5,183 SciFact papers namespaced by collection', async () => {
    const summary = await app.ingest.ingestFiles([CORPUS], { embed: 'defer', progress: false });
    expect(summary.collections).toEqual(['scifact']);
    expect(summary.skipped).toEqual([]);
    expect(summary.papersWritten).toBe(5183);
    const page = await app.catalog.papers({ collections: ['scifact'] }, { skip: 0, limit: 3 });
    expect(await page.totalCount()).toBe(5183);
    expect(page.items[0]!.id).toMatch(/^scifact:\d+$/);
    expect(page.items[0]!.source).toBe('beir:scifact');
  });

  it('keeps a second corpus with the same local ids apart', async () => {
    await app.ingest.ingestFiles([CORPUS], { embed: 'defer', collection: 'scifact-copy', progress: false });
    const { counts, collections } = await app.catalog.stats();
    const papers = (c: Record<string, number>) => (c.paperNodes ?? 0) - (c.stubPapers ?? 0);
    expect(papers(counts) - papers(before.counts)).toBe(2 * 5183);
    expect(collections.filter((row) => OWN.includes(row.collection))).toEqual([
      { collection: 'scifact', papers: 5183 },
      { collection: 'scifact-copy', papers: 5183 },
    ]);
    const original = await app.catalog.paperById('scifact:4983');
    const copy = await app.catalog.paperById('scifact-copy:4983');
    expect(copy?.title).toBe(original?.title);
  });

  it('removes a collection and leaves the other whole', async () => {
    const deletion = await app.ingest.deleteCollection('scifact-copy');
    expect(deletion).toMatchObject({ collection: 'scifact-copy', papers: 5183, deleted: 5183, stubbed: 0 });
    expect(await app.catalog.paperById('scifact-copy:4983')).toBeNull();
    expect(await app.catalog.paperById('scifact:4983')).not.toBeNull();
    const { collections } = await app.catalog.stats();
    expect(collections.filter((row) => OWN.includes(row.collection))).toEqual([
      { collection: 'scifact', papers: 5183 },
    ]);
  });
});
