import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

const { app } = createTestContext();
const WORKS = path.join(SHARED_DIR, 'data/synergy/works');
const files = readdirSync(WORKS)
  .filter((name) => name.endsWith('.jsonl.gz'))
  .sort()
  .map((name) => path.join(WORKS, name));

/** The nine reviews (one collection each, named after their files) and the collection of the stub test. */
const REVIEWS = files.map((file) => path.basename(file).replace(/\.jsonl\.gz$/, ''));
const OWN = [...REVIEWS, 'stub-test'];
let initial: Awaited<ReturnType<typeof app.catalog.stats>>;
/** How much a count grew since the suite started. */
const grown = (counts: Record<string, number>, key: string) => (counts[key] ?? 0) - (initial.counts[key] ?? 0);

beforeAll(async () => {
  await removeCollections(app, OWN);
  initial = await app.catalog.stats();
});
afterAll(() => app.close());

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
    expect(grown(c, 'paperNodes') - grown(c, 'stubPapers')).toBe(7233);
    expect(grown(c, 'citesBetweenPapers')).toBe(20286);
    expect(grown(c, 'stubPapers')).toBe(159073);
    expect(grown(c, 'authorNodes') - grown(c, 'anonymousAuthors')).toBe(30857);
    expect(grown(c, 'anonymousAuthors')).toBe(745);
    expect(grown(c, 'chunks')).toBeGreaterThan(7233 - 296);
    expect(firstStats.collections.filter((row) => REVIEWS.includes(row.collection))).toHaveLength(9);
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
      text: `MATCH (p:Paper) WHERE size(p.collections) > 1 AND any(c IN p.collections WHERE c IN $reviews)
             RETURN p.id AS id, p.collections AS collections`,
      params: { reviews: REVIEWS },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.collections).toHaveLength(2);
    const collections = (await app.catalog.stats()).collections.filter((row) => REVIEWS.includes(row.collection));
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
    // Authorships without an author id, by the name the records give them (read from the raw JSONL).
    const byName = new Map<string, number>();
    for (const file of files) {
      for (const line of gunzipSync(readFileSync(file)).toString('utf8').trim().split('\n')) {
        const work = JSON.parse(line) as {
          authorships?: Array<{ author?: { id?: string | null; display_name?: string } }>;
        };
        for (const authorship of work.authorships ?? []) {
          const name = authorship.author?.display_name;
          if (!authorship.author?.id && name) byName.set(name, (byName.get(name) ?? 0) + 1);
        }
      }
    }
    const [name, authorships] = [...byName].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    expect(authorships).toBeGreaterThan(1);
    // That name stands for as many distinct author nodes as it has authorships: never merged by name.
    const [row] = await app.executor.autoCommit<{ nodes: number }>({
      name: 'anon',
      text: 'MATCH (a:Author {anonymous: true, name: $name}) RETURN count(a) AS nodes',
      params: { name },
    });
    expect(row!.nodes).toBe(authorships);
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

  it('deletes its collections and leaves the graph as it found it', async () => {
    const deletions = [];
    for (const collection of OWN) deletions.push(await app.ingest.deleteCollection(collection));
    expect(deletions.reduce((sum, d) => sum + d.papers, 0)).toBe(7234 + 1);
    expect(await app.catalog.stats()).toEqual(initial);
  });
});
