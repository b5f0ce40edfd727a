import type { AppContext } from '../../src/app-context';
import type { WorkRecord } from '../../src/domain';
import { type CompiledQuery, paperFilterParams, queries } from '../../src/graph/query-registry';
import { refreshAllAggregates } from '../../src/graph/schema';
import { createTestContext, removeCollections } from '../helpers/context';

/** Stored aggregates (aggregates/refresh) checked against a recount from the raw graph after every kind of write. */
const A = 'aggregates-a';
const B = 'aggregates-b';
const { app } = createTestContext();

function work(id: string, fields: Partial<WorkRecord> & { authors?: Array<[string, string | null]> }): WorkRecord {
  const { authors = [], ...rest } = fields;
  return {
    id,
    ids: { openalex: id },
    doi: null,
    title: `Work ${id}`,
    abstract: null,
    year: 2020,
    publicationDate: null,
    type: 'article',
    citedByCount: 0,
    isRetracted: false,
    source: 'openalex',
    authorships: authors.map(([authorId, orcid], order) => ({
      authorId,
      name: `Author ${authorId}`,
      orcid,
      position: order === 0 ? 'first' : 'last',
      order,
      corresponding: false,
      institutions: [],
    })),
    venue: null,
    topics: [],
    references: [],
    ...rest,
  };
}

const venue = (id: string) => ({ id, name: `Venue ${id}`, issnL: null, issn: [], type: 'journal', publisher: null });
const topic = (id: string, score: number) => ({ id, name: `Topic ${id}`, level: 1, score, kind: 'concept' as const });

/** Stored and recounted values for the papers and people the suite's works touch; equal when the store is right. */
async function storedAndRecounted(context: AppContext) {
  const read = <T extends object>(text: string) =>
    context.executor.autoCommit<T>({ name: 'aggregates-check', text, params: { ids: ALL_IDS } });
  const papers = await read<{ id: string; stored: number | null; recounted: number }>(
    `MATCH (p:Paper) WHERE p.id IN $ids
     RETURN p.id AS id, p.internalCitedBy AS stored, COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS recounted
     ORDER BY id`,
  );
  const people = await read<{ record: string; stored: unknown[]; recounted: unknown[] }>(
    `MATCH (a:Author) WHERE a.id STARTS WITH 'A9'
     WITH coalesce('orcid:' + a.orcid, a.id) AS person, collect(a) AS records
     CALL (records) {
       UNWIND records AS a
       MATCH (a)-[:AUTHORED]->(p:Paper {stub: false})
       WITH DISTINCT p
       RETURN count(p) AS papers, sum(COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }) AS internal,
              sum(coalesce(p.citedByCount, 0)) AS global
     }
     UNWIND records AS a
     RETURN a.id AS record,
            [a.person, a.personPapers, a.personInternal, a.personGlobal, a.personRecord, a:Person] AS stored,
            [person, papers, internal, global, reduce(m = null, r IN records | CASE WHEN m IS NULL OR r.id < m THEN r.id ELSE m END),
             papers > 0 AND a.id = reduce(m = null, r IN records | CASE WHEN m IS NULL OR r.id < m THEN r.id ELSE m END)] AS recounted
     ORDER BY record`,
  );
  const venues = await read<{ id: string; stored: unknown[]; recounted: unknown[] }>(
    `MATCH (v:Venue) WHERE v.id STARTS WITH 'S9'
     OPTIONAL MATCH (v)<-[:PUBLISHED_IN]-(p:Paper {stub: false})
     WITH v, count(p) AS papers, sum(coalesce(p.citedByCount, 0)) AS global,
          sum(COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }) AS internal, min(p.year) AS first, max(p.year) AS last
     RETURN v.id AS id, [v.venuePapers, v.venueGlobal, v.venueInternal, v.venueFirstYear, v.venueLastYear] AS stored,
            [papers, global, internal, first, last] AS recounted
     ORDER BY id`,
  );
  // The yearly counts of the suite's topics (C9…), and per year and in all over the whole graph.
  const topicYears = {
    stored: await read<Record<string, unknown>>(
      `MATCH (c:TopicYear) WHERE c.topic STARTS WITH 'C9'
       RETURN c.topic AS topic, c.year AS year, c.papers AS papers, c.strong AS strong, c.internal AS internal
       ORDER BY topic, year`,
    ),
    recounted: await read<Record<string, unknown>>(
      `MATCH (t:Topic)<-[r:HAS_TOPIC]-(p:Paper {stub: false}) WHERE t.id STARTS WITH 'C9' AND p.year IS NOT NULL
       WITH t.id AS topic, p.year AS year, count(DISTINCT p) AS papers,
            count(DISTINCT CASE WHEN r.score >= 0.3 THEN p END) AS strong,
            sum(COUNT { (p)<-[:CITES]-(:Paper {stub: false}) }) AS internal
       RETURN topic, year, papers, strong, internal ORDER BY topic, year`,
    ),
  };
  const years = {
    stored: await read<Record<string, unknown>>(
      `CALL () { MATCH (c:PaperYear) WITH c ORDER BY c.year RETURN collect([c.year, c.papers]) AS years }
       OPTIONAL MATCH (t:PaperTotals {id: 'full'}) RETURN years, t.papers AS papers`,
    ),
    recounted: await read<Record<string, unknown>>(
      `CALL () { MATCH (p:Paper {stub: false}) WHERE p.year IS NOT NULL WITH p.year AS year, count(*) AS n
                 ORDER BY year RETURN collect([year, n]) AS years }
       RETURN years, COUNT { (:Paper {stub: false}) } AS papers`,
    ),
  };
  return { papers, people, venues, topicYears, years };
}

async function expectFresh(): Promise<void> {
  const { papers, people, venues, topicYears, years } = await storedAndRecounted(app);
  expect(topicYears.stored).toEqual(topicYears.recounted);
  expect(years.stored).toEqual(years.recounted);
  for (const row of venues)
    expect({ venue: row.id, totals: row.stored }).toEqual({ venue: row.id, totals: row.recounted });
  for (const paper of papers)
    expect({ id: paper.id, count: paper.stored }).toEqual({ id: paper.id, count: paper.recounted });
  for (const person of people)
    expect({ record: person.record, totals: person.stored }).toEqual({
      record: person.record,
      totals: person.recounted,
    });
}

const ALL_IDS = ['W9100000001', 'W9100000002', 'W9100000003', 'W9100000004', 'W9100000009'];

beforeAll(async () => {
  await removeCollections(app, [A, B]);
});

afterAll(async () => {
  await removeCollections(app, [A, B]);
  await app.close();
});

describe('stored aggregates: internal citation counts and per-person totals', () => {
  it('stay equal to a recount through ingest, re-ingest, a stub becoming a full paper and removal', async () => {
    // Two records of one person (same ORCID) sign W1 and W2; W1 and W2 both cite W3 (a stub) and W9 (a stub).
    await app.ingest.writeRecords(
      [
        work('W9100000001', {
          citedByCount: 10,
          venue: venue('S9000000001'),
          topics: [topic('C9000000001', 0.9), topic('C9000000002', 0.1)],
          authors: [
            ['A9000000001', '0000-0001-0000-0001'],
            ['A9000000003', null],
          ],
          references: ['W9100000003', 'W9100000009', 'W9100000002'],
        }),
        work('W9100000002', {
          citedByCount: 5,
          venue: venue('S9000000001'),
          topics: [topic('C9000000001', 0.5)],
          authors: [['A9000000002', '0000-0001-0000-0001']],
          references: ['W9100000003', 'W9100000009'],
        }),
      ],
      { collection: A, embed: 'defer' },
    );
    await expectFresh();
    const { people } = await storedAndRecounted(app);
    expect(people.find((row) => row.record === 'A9000000002')?.stored).toEqual([
      'orcid:0000-0001-0000-0001',
      2, // W1 and W2, each once
      1, // W2 cited by W1
      15,
      'A9000000001',
      false, // A9000000001 stands for the person
    ]);
    const top = await app.analytics.topAuthors(null, 'GLOBAL_CITATIONS', { skip: 0, limit: 1000 });
    const person = top.items.find((item) => item.author.id === 'A9000000001');
    expect(person).toMatchObject({ papers: 2, score: 15 });
    expect(top.items.some((item) => item.author.id === 'A9000000002')).toBe(false);

    // The stub W3 becomes a full paper (another collection), citing W1 and signed by the no-ORCID author.
    await app.ingest.writeRecords(
      [
        work('W9100000003', {
          citedByCount: 7,
          year: 2018,
          venue: venue('S9000000002'),
          topics: [topic('C9000000002', 0.8)],
          authors: [['A9000000003', null]],
          references: ['W9100000001'],
        }),
      ],
      { collection: B, embed: 'defer' },
    );
    await expectFresh();

    // Re-ingest W1 with other references and without its second author; W2 learns nothing new.
    await app.ingest.writeRecords(
      [
        work('W9100000001', {
          citedByCount: 11,
          year: 2019,
          venue: venue('S9000000002'),
          topics: [topic('C9000000002', 0.4)],
          authors: [['A9000000001', '0000-0001-0000-0001']],
          references: ['W9100000004'],
        }),
      ],
      { collection: A, embed: 'defer' },
    );
    await expectFresh();
    const state = await storedAndRecounted(app);
    // W1 moved to S2 (with W3): S1 keeps W2 only; in S2, W3 cites W1 and W2 cites W3.
    expect(state.venues.find((row) => row.id === 'S9000000001')?.stored).toEqual([1, 5, 0, 2020, 2020]);
    expect(state.venues.find((row) => row.id === 'S9000000002')?.stored).toEqual([2, 18, 2, 2018, 2019]);
    // W1 moved from 2020 on C1 (strong) and C2 (weak) to 2019 on C2 (strong): C2 in 2020 counts nothing and is gone.
    // W3 (2018) cites W1; W2 (2020) cites W3.
    expect(state.topicYears.stored).toEqual([
      { topic: 'C9000000001', year: 2020, papers: 1, strong: 1, internal: 0 },
      { topic: 'C9000000002', year: 2018, papers: 1, strong: 1, internal: 1 },
      { topic: 'C9000000002', year: 2019, papers: 1, strong: 1, internal: 1 },
    ]);
    const [w9] = state.papers.filter((row) => row.id === 'W9100000009');
    expect(w9?.stored).toBe(1); // only W2 cites it now

    // Removing collection A stubs W1 (W3 cites it) and deletes W2; W3's author keeps its totals right.
    await removeCollections(app, [A]);
    await expectFresh();

    // The whole-graph recount finds nothing to change.
    const before = await storedAndRecounted(app);
    await refreshAllAggregates(app.executor);
    expect(await storedAndRecounted(app)).toEqual(before);
  });

  it('give whole-graph top papers from the top of an index, equal to ranking every paper', async () => {
    await app.ingest.writeRecords(
      [
        work('W9200000001', { citedByCount: 40, references: ['W9200000002', 'W9200000003'] }),
        work('W9200000002', { citedByCount: 30, references: ['W9200000003'] }),
        work('W9200000003', { citedByCount: 30 }),
      ],
      { collection: A, embed: 'defer' },
    );
    const ranked = async (by: 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS', skip: number, limit: number) => {
      const [row] = await app.executor.read<{ total: number; items: Array<{ paper: { id: string }; score: number }> }>(
        queries().topPapers({ by, ...paperFilterParams(null), skip, limit }),
      );
      return { total: row!.total, ids: row!.items.map((item) => [item.paper.id, item.score]) };
    };
    for (const by of ['INTERNAL_CITATIONS', 'GLOBAL_CITATIONS'] as const) {
      for (const [skip, limit] of [
        [0, 1],
        [0, 2],
        [1, 2],
        [0, 200],
      ] as const) {
        const page = await app.analytics.topPapers(null, by, { skip, limit });
        const expected = await ranked(by, skip, limit);
        expect(page.items.map((item) => [item.paper.id, item.score])).toEqual(expected.ids);
        const total = typeof page.total === 'function' ? await page.total() : page.total;
        expect(total).toBe(expected.total);
      }
      // The first page comes from the index (a page whose total is counted only when asked).
      const first = await app.analytics.topPapers(null, by, { skip: 0, limit: 1 });
      expect(typeof first.total).toBe('function');
    }
    await removeCollections(app, [A]);
  });

  it('give whole-graph venue statistics from the stored venue totals, equal to counting every paper', async () => {
    await app.ingest.writeRecords(
      [
        work('W9300000001', {
          citedByCount: 4,
          year: 2001,
          venue: venue('S9000000011'),
          references: ['W9300000002'],
          authors: [
            ['A9000000011', '0000-0002-0000-0001'],
            ['A9000000012', '0000-0002-0000-0001'],
          ],
        }),
        work('W9300000002', {
          citedByCount: 6,
          year: 2003,
          venue: venue('S9000000011'),
          authors: [['A9000000012', '0000-0002-0000-0001']],
        }),
        work('W9300000003', { citedByCount: 9, year: 2002, venue: venue('S9000000012'), references: ['W9300000002'] }),
      ],
      { collection: A, embed: 'defer' },
    );
    const [counted] = await app.executor.read<{ total: number; items: unknown[] }>(
      queries().venueStats({ ...paperFilterParams(null), skip: 0, limit: 200 }),
    );
    const stored = await app.analytics.venueStats(null, { skip: 0, limit: 200 });
    expect(stored.total).toBe(counted!.total);
    expect(stored.items).toEqual(counted!.items);
    expect(stored.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          papers: 2,
          globalCitations: 10,
          internalCitations: 2,
          firstYear: 2001,
          lastYear: 2003,
        }),
      ]),
    );
    // Lotka's law of the whole graph from the per-person totals: the distribution counted from every authorship.
    const productivity = await app.executor.read<{ papers: number; authors: number }>(
      queries().authorProductivity(paperFilterParams(null)),
    );
    const storedLotka = await app.executor.read<{ papers: number; authors: number }>(
      queries().authorProductivityAll({}),
    );
    expect(storedLotka).toEqual(productivity);
    // The two records sharing an ORCID are one author with two papers.
    expect(productivity.find((row) => row.papers === 2)?.authors ?? 0).toBeGreaterThan(0);
    await removeCollections(app, [A]);
  });
  it('give whole-graph emerging topics, topic bursts and Bradford zones from the yearly counts, equal to counting every paper', async () => {
    const records = [2001, 2002, 2002, 2004, 2005, 2005, 2005].map((year, index) =>
      work(`W940000000${index}`, {
        year,
        venue: index % 3 === 0 ? null : venue(`S90000000${21 + (index % 2)}`),
        topics: [topic('C9000000031', 0.9), topic(`C90000000${32 + (index % 2)}`, index < 4 ? 0.2 : 0.7)],
      }),
    );
    await app.ingest.writeRecords(records, { collection: A, embed: 'defer' });
    const rows = (query: CompiledQuery) => app.executor.read<Record<string, unknown>>(query);
    const byTopic = (list: Array<Record<string, unknown>>) =>
      [...list].sort((a, b) => String((a.topic as { id: string }).id).localeCompare((b.topic as { id: string }).id));
    const window = { from: 2001, to: 2006, split: 2004, minSupport: 1, minLevel: null };
    const emerging = await rows(queries().emergingTopicsAll(window));
    expect(byTopic(emerging)).toEqual(
      byTopic(await rows(queries().emergingTopics({ ...window, minScore: 0.3, ...paperFilterParams(null) }))),
    );
    // C31 on every paper (3 before 2004, 4 after); C32 and C33 strong only from 2004 on.
    expect(emerging.find((row) => (row.topic as { id: string }).id === 'C9000000031')).toMatchObject({
      early: 3,
      late: 4,
    });
    const bursts = { from: 1990, to: 2026, minLevel: null, limit: 100 };
    expect(await rows(queries().topicYearCountsAll(bursts))).toEqual(
      await rows(queries().topicYearCounts({ ...bursts, ...paperFilterParams(null) })),
    );
    const byVenue = (list: Array<Record<string, unknown>>) =>
      list
        .map((row) => [(row.venue as { id: string } | null)?.id ?? null, row.papers])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    const venues = await rows(queries().venuePaperCountsAll({}));
    expect(byVenue(venues)).toEqual(byVenue(await rows(queries().venuePaperCounts(paperFilterParams(null)))));
    expect(venues.find((row) => row.venue === null)?.papers).toBeGreaterThanOrEqual(3);
    // The whole graph's paper count comes from the kept total, equal to counting every full paper.
    const [counted] = await rows(queries().papersCount(paperFilterParams(null)));
    const page = await app.catalog.papers(null, { skip: 0, limit: 1 });
    expect(await page.totalCount()).toBe(counted!.total);
    await removeCollections(app, [A]);
    await expectFresh();
  });
});
