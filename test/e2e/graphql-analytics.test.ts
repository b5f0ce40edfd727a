import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serveGraphQL } from '../../src/api/server';
import { postGraphql } from '../helpers/graphql-client';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';

/** The raw SYNERGY works, read here independently of the product's mapping code. */
interface RawWork {
  id: string;
  publication_year: number;
  cited_by_count: number;
  referenced_works: string[];
  authorships: Array<{ author: { id: string | null } }>;
  concepts: Array<{ id: string; score: number | string; level: number }>;
}

const short = (url: string) => url.replace('https://openalex.org/', '');
const WORKS = path.join(SHARED_DIR, 'data/synergy/works');
const files = readdirSync(WORKS)
  .filter((name) => name.endsWith('.jsonl.gz'))
  .sort()
  .map((name) => path.join(WORKS, name));
const works = new Map<string, RawWork>();
for (const file of files) {
  for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (line.trim()) {
      const work = JSON.parse(line) as RawWork;
      works.set(short(work.id), work);
    }
  }
}
const refsOf = (id: string) => new Set((works.get(id)!.referenced_works ?? []).map(short).filter((ref) => ref !== id));
const internalCitations = new Map<string, number>();
for (const id of works.keys())
  for (const ref of refsOf(id)) if (works.has(ref)) internalCitations.set(ref, (internalCitations.get(ref) ?? 0) + 1);

function hIndex(counts: number[]): number {
  const sorted = [...counts].sort((a, b) => b - a);
  return sorted.filter((count, index) => count >= index + 1).length;
}

const { app } = createTestContext();
/** The SYNERGY reviews, one collection each (named after their files). */
const OWN = files.map((file) => path.basename(file).replace(/\.jsonl\.gz$/, ''));
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

const gql = (query: string, variables: Record<string, unknown> = {}): Promise<any> =>
  postGraphql(url, query, variables);

beforeAll(async () => {
  await removeCollections(app, OWN);
  await app.ingest.ingestFiles(files, { embed: 'defer', progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, OWN);
  await app.close();
});

describe('bibliometrics over GraphQL, checked against the raw JSONL', () => {
  it('counts papers per year for a topic', async () => {
    const topic = 'C71924100'; // Medicine
    const expected = new Map<number, number>();
    for (const work of works.values()) {
      if (
        work.publication_year >= 2000 &&
        work.publication_year <= 2010 &&
        (work.concepts ?? []).some((c) => short(c.id) === topic)
      ) {
        expected.set(work.publication_year, (expected.get(work.publication_year) ?? 0) + 1);
      }
    }
    const { data, errors } = await gql(
      'query ($t: [ID!]) { trends(topics: $t, from: 2000, to: 2010) { series { key total cagr topic { name } points { year count growth } } emerging { topic { id } early late growth } } }',
      { t: [topic] },
    );
    expect(errors).toBeUndefined();
    const series = data.trends.series[0];
    expect(series.topic.name).toBe('Medicine');
    expect(series.points).toHaveLength(11);
    for (const point of series.points) expect(point.count).toBe(expected.get(point.year) ?? 0);
    expect(series.total).toBe([...expected.values()].reduce((a, b) => a + b, 0));
    for (const emerging of data.trends.emerging) expect(emerging.late).toBeGreaterThanOrEqual(5);
  });

  it("computes an author's h-indexes, citations and co-authors", async () => {
    const byAuthor = new Map<string, Set<string>>();
    for (const [id, work] of works) {
      for (const authorship of work.authorships ?? []) {
        if (!authorship.author.id) continue;
        const author = short(authorship.author.id);
        byAuthor.set(author, (byAuthor.get(author) ?? new Set()).add(id));
      }
    }
    const [author, papers] = [...byAuthor.entries()].sort(
      (a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1),
    )[0]!;
    const internal = [...papers].map((id) => internalCitations.get(id) ?? 0);
    const global = [...papers].map((id) => works.get(id)!.cited_by_count ?? 0);
    const coauthors = new Map<string, number>();
    for (const id of papers) {
      const others = new Set(
        works
          .get(id)!
          .authorships.map((a) => a.author.id)
          .filter((x): x is string => Boolean(x))
          .map(short),
      );
      for (const other of others) if (other !== author) coauthors.set(other, (coauthors.get(other) ?? 0) + 1);
      // An author without an id is a co-author of that one paper only (never merged by name).
      works.get(id)!.authorships.forEach((a, order) => {
        if (!a.author.id) coauthors.set(`anon:${id}:${order}`, 1);
      });
    }
    const { data, errors } = await gql(
      `query ($id: ID!) { author(id: $id) { metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
         coauthors(first: 200) { totalCount edges { jointPapers node { id } } } works(first: 5) { totalCount } mainTopics(first: 3) { topic { id } papers } } }`,
      { id: author },
    );
    expect(errors).toBeUndefined();
    expect(data.author.metrics).toMatchObject({
      works: papers.size,
      hIndexInternal: hIndex(internal),
      hIndexGlobal: hIndex(global),
      citationsInternal: internal.reduce((a, b) => a + b, 0),
      citationsGlobal: global.reduce((a, b) => a + b, 0),
    });
    expect(data.author.works.totalCount).toBe(papers.size);
    expect(data.author.coauthors.totalCount).toBe(coauthors.size);
    for (const edge of data.author.coauthors.edges) expect(edge.jointPapers).toBe(coauthors.get(edge.node.id));
    expect(data.author.mainTopics).toHaveLength(3);
  });

  it('counts co-citations and bibliographic coupling of the most cited paper', async () => {
    const [target] = [...internalCitations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const cocited = new Map<string, number>();
    const coupled = new Map<string, number>();
    const targetRefs = refsOf(target);
    for (const id of works.keys()) {
      const refs = refsOf(id);
      if (refs.has(target)) for (const ref of refs) if (ref !== target) cocited.set(ref, (cocited.get(ref) ?? 0) + 1);
      if (id !== target) {
        const shared = [...refs].filter((ref) => targetRefs.has(ref)).length;
        if (shared > 0) coupled.set(id, shared);
      }
    }
    const { data, errors } = await gql(
      `query ($id: ID!) { paper(id: $id) { internalCitationCount citedBy(first: 5) { totalCount }
         coCited(first: 50) { totalCount edges { count node { id stub } } }
         coupled(first: 50) { totalCount edges { count node { id } } }
         related(first: 5) { score coCitations sharedReferences direct paper { id stub } } } }`,
      { id: target },
    );
    expect(errors).toBeUndefined();
    const paper = data.paper;
    expect(paper.internalCitationCount).toBe(internalCitations.get(target));
    expect(paper.citedBy.totalCount).toBe(internalCitations.get(target));
    expect(paper.coCited.totalCount).toBe(cocited.size);
    for (const edge of paper.coCited.edges) expect(edge.count).toBe(cocited.get(edge.node.id));
    const topCounts = [...cocited.values()].sort((a, b) => b - a).slice(0, 50);
    expect(paper.coCited.edges.map((e: { count: number }) => e.count)).toEqual(topCounts);
    expect(paper.coupled.totalCount).toBe(coupled.size);
    for (const edge of paper.coupled.edges) expect(edge.count).toBe(coupled.get(edge.node.id));
    for (const related of paper.related) expect(related.paper.stub).toBe(false);
  });

  it('ranks top papers by internal and global citations, with pagination', async () => {
    const internal = [...internalCitations.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10);
    const first = await gql(
      '{ topPapers(first: 5, by: INTERNAL_CITATIONS) { totalCount edges { cursor node { score paper { id } } } pageInfo { endCursor hasNextPage } } }',
    );
    expect(first.data.topPapers.totalCount).toBe(works.size);
    const second = await gql(
      'query ($after: String) { topPapers(first: 5, after: $after) { edges { node { score paper { id } } } } }',
      {
        after: first.data.topPapers.pageInfo.endCursor,
      },
    );
    const got = [...first.data.topPapers.edges, ...second.data.topPapers.edges].map((e: any) => [
      e.node.paper.id,
      e.node.score,
    ]);
    expect(got).toEqual(internal);
    const global = [...works.entries()]
      .map(([id, w]) => [id, w.cited_by_count ?? 0] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 5);
    const byGlobal = await gql(
      '{ topPapers(first: 5, by: GLOBAL_CITATIONS) { edges { node { score paper { id } } } } }',
    );
    expect(byGlobal.data.topPapers.edges.map((e: any) => [e.node.paper.id, e.node.score])).toEqual(global);
  });

  it('answers top authors, venues, topic views and a bounded collaboration network', async () => {
    const { data, errors } = await gql(`{
      topAuthors(first: 5, filter: { years: { from: 2010, to: 2022 } }) { edges { node { papers citations author { id name } } } }
      venues(first: 5) { totalCount edges { node { papers internalCitations venue { name } } } }
      topic(id: "C71924100") { name paperCount papers(first: 3) { totalCount } topPapers(first: 3) { score } topAuthors(first: 3) { papers } trend(from: 2015, to: 2020) { total points { year count } } }
      collaborationNetwork(limit: 30) { nodes { id papers } edges { source target jointPapers } }
    }`);
    expect(errors).toBeUndefined();
    const scores = data.topAuthors.edges.map((e: any) => e.node.citations);
    expect([...scores].sort((a: number, b: number) => b - a)).toEqual(scores);
    expect(data.venues.edges[0].node.papers).toBeGreaterThan(data.venues.edges[4].node.papers - 1);
    expect(data.topic.paperCount).toBe(data.topic.papers.totalCount);
    expect(data.collaborationNetwork.nodes.length).toBeLessThanOrEqual(30);
    const nodeIds = new Set(data.collaborationNetwork.nodes.map((n: { id: string }) => n.id));
    for (const edge of data.collaborationNetwork.edges) {
      expect(nodeIds.has(edge.source) && nodeIds.has(edge.target)).toBe(true);
      expect(edge.jointPapers).toBeGreaterThanOrEqual(1);
    }
  });

  it('bounds every list and range', async () => {
    const wide = await gql('{ trends(topics: ["C71924100"], from: 1000, to: 2020) { series { total } } }');
    expect(wide.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const big = await gql('{ topPapers(first: 100000) { edges { cursor } } }');
    expect(big.data.topPapers.edges).toHaveLength(200);
    const network = await gql('{ collaborationNetwork(limit: 100000) { nodes { id } } }');
    expect(network.data.collaborationNetwork.nodes.length).toBeLessThanOrEqual(200);
    const neither = await gql('{ trends(from: 2000, to: 2010) { series { total } } }');
    expect(neither.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
