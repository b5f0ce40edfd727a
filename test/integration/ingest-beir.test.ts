import path from 'node:path';
import { createTestContext, clearDatabase } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app } = createTestContext();
const CORPUS = path.join(SHARED_DIR, 'data/scifact/corpus.jsonl.gz');

beforeAll(() => clearDatabase(app));
afterAll(async () => {
  await clearDatabase(app);
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
    expect((counts.paperNodes ?? 0) - (counts.stubPapers ?? 0)).toBe(2 * 5183);
    expect(collections).toEqual([
      { collection: 'scifact', papers: 5183 },
      { collection: 'scifact-copy', papers: 5183 },
    ]);
    const original = await app.catalog.paperById('scifact:4983');
    const copy = await app.catalog.paperById('scifact-copy:4983');
    expect(copy?.title).toBe(original?.title);
  });
});
