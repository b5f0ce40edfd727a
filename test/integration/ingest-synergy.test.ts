import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createTestContext, clearDatabase } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app } = createTestContext();
const WORKS = path.join(SHARED_DIR, 'data/synergy/works');
const files = readdirSync(WORKS)
  .filter((name) => name.endsWith('.jsonl.gz'))
  .sort()
  .map((name) => path.join(WORKS, name));

beforeAll(() => clearDatabase(app));
afterAll(async () => {
  await clearDatabase(app);
  await app.close();
});

describe('ingesting the nine SYNERGY reviews', () => {
  let firstStats: Awaited<ReturnType<typeof app.catalog.stats>>;

  it('builds the expected graph', async () => {
    const summary = await app.ingest.ingestFiles(files, { embed: 'defer', progress: false });
    expect(summary.skipped).toEqual([]);
    expect(summary.records).toBe(7234);
    expect(summary.papersWritten).toBe(7233);
    expect(summary.selfCitationsSkipped).toBe(20);
    firstStats = await app.catalog.stats();
    const c = firstStats.counts;
    expect((c.paperNodes ?? 0) - (c.stubPapers ?? 0)).toBe(7233);
    expect(c.citesBetweenPapers).toBe(20286);
    expect(c.stubPapers).toBe(159073);
    expect((c.authorNodes ?? 0) - (c.anonymousAuthors ?? 0)).toBe(30857);
    expect(c.anonymousAuthors).toBe(745);
    expect(c.chunks).toBeGreaterThan(7233 - 296);
    expect(firstStats.collections.map((row) => row.collection)).toHaveLength(9);
  });

  it('changes no count on a second ingest', async () => {
    const summary = await app.ingest.ingestFiles(files, { embed: 'defer', progress: false });
    expect(summary.papersWritten).toBe(0);
    expect(summary.papersUnchanged).toBe(7234);
    expect(await app.catalog.stats()).toEqual(firstStats);
  });

  it('remembers every collection of the work listed in two reviews', async () => {
    const rows = await app.executor.autoCommit<{ id: string; collections: string[] }>({
      name: 'multi',
      text: 'MATCH (p:Paper) WHERE size(p.collections) > 1 RETURN p.id AS id, p.collections AS collections',
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.collections).toHaveLength(2);
    const { collections } = await app.catalog.stats();
    expect(collections.reduce((sum, row) => sum + row.papers, 0)).toBe(7234);
    for (const collection of rows[0]!.collections) {
      const page = await app.catalog.papers(
        { collections: [collection], yearFrom: null, yearTo: null },
        { skip: 0, limit: 1 },
      );
      expect(await page.totalCount()).toBe(collections.find((row) => row.collection === collection)!.papers);
    }
    const perFile = files.map(
      (file) =>
        require('node:zlib').gunzipSync(require('node:fs').readFileSync(file)).toString('utf8').trim().split('\n')
          .length,
    );
    expect(collections.map((row) => row.papers)).toEqual(perFile);
  });

  it('keeps authors without ids apart even when they share a name', async () => {
    const rows = await app.executor.autoCommit<{ name: string; nodes: number }>({
      name: 'anon',
      text: 'MATCH (a:Author {anonymous: true}) WITH a.name AS name, count(a) AS nodes WHERE nodes > 1 RETURN name, nodes LIMIT 1',
    });
    // Some unnamed authorships share a display name across works; each is still its own node.
    if (rows.length > 0) expect(rows[0]!.nodes).toBeGreaterThan(1);
    const edges = await app.executor.autoCommit<{ papers: number }>({
      name: 'anon-papers',
      text: 'MATCH (a:Author {anonymous: true}) RETURN max(COUNT { (a)-[:AUTHORED]->() }) AS papers',
    });
    expect(edges[0]!.papers).toBe(1);
  });

  it('turns a stub into a full paper when the work itself is ingested', async () => {
    const [stub] = await app.executor.autoCommit<{ id: string }>({
      name: 'stub',
      text: 'MATCH (p:Paper {stub: true})<-[:CITES]-() RETURN p.id AS id LIMIT 1',
    });
    const file = path.join(require('node:os').tmpdir(), `stub-${Date.now()}.jsonl`);
    require('node:fs').writeFileSync(
      file,
      `${JSON.stringify({ id: `https://openalex.org/${stub!.id}`, title: 'Now a full paper', publication_year: 2001 })}\n`,
    );
    const summary = await app.ingest.ingestFiles([file], { embed: 'defer', collection: 'stub-test', progress: false });
    expect(summary.papersWritten).toBe(1);
    const paper = await app.catalog.paperById(stub!.id);
    expect(paper).toMatchObject({ stub: false, title: 'Now a full paper', collections: ['stub-test'] });
  });
});
