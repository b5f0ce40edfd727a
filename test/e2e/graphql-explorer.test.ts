import { serveGraphQL } from '../../src/api/server';
import { createTestContext, removeCollections, SAMPLE_FILE, sampleRecords } from '../helpers/context';
import { graphqlData, postGraphql } from '../helpers/graphql-client';

/**
 * The explorer's one-call tasks on the bundled sample, each checked against the raw OpenAlex records: the text and
 * institution parts of the one filter, sort with stable paging, group-by, whole networks, growth from smoothed ends.
 */
const COLLECTION = 'explorer-sample';
const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

type Raw = {
  id: string;
  title: string | null;
  publication_year: number;
  cited_by_count: number;
  abstract_inverted_index?: Record<string, number[]> | null;
  concepts?: Array<{ id: string; display_name: string; level: number }>;
  referenced_works?: string[];
  authorships: Array<{
    author: { id: string | null };
    institutions: Array<{ id: string | null; country_code: string | null }>;
  }>;
};
const works = sampleRecords<Raw>();
const short = (id: string) => id.replace('https://openalex.org/', '');
const abstractOf = (work: Raw) => Object.keys(work.abstract_inverted_index ?? {}).join(' ');

type Response<T> = { data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> };
const gql = <T>(query: string, variables: Record<string, unknown> = {}) => graphqlData<T>(url, query, variables);
const inSample = { collections: [COLLECTION] };

beforeAll(async () => {
  await removeCollections(app, [COLLECTION]);
  await app.ingest.ingestFiles([SAMPLE_FILE], { embed: 'defer', collection: COLLECTION, progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, [COLLECTION]);
  await app.close();
});

describe('the one filter: text and institutions', () => {
  it('keeps the papers whose title or abstract holds every word, most relevant first by default', async () => {
    const data = await gql<{ papers: { totalCount: number; edges: Array<{ node: { id: string } }> } }>(
      'query($f: WorkFilter) { papers(filter: $f, first: 200) { totalCount edges { node { id } } } }',
      { f: { ...inSample, text: 'the bone density' } },
    );
    const found = new Set(data.papers.edges.map((edge) => edge.node.id));
    expect(found.size).toBe(data.papers.totalCount);
    const byId = new Map(works.map((work) => [short(work.id), work]));
    for (const id of found) {
      const text = `${byId.get(id)!.title ?? ''} ${abstractOf(byId.get(id)!)}`.toLowerCase();
      expect(text).toMatch(/\bbone/);
      expect(text).toMatch(/\bdensit/);
    }
    // Every paper with the phrase in its title is in.
    const titled = works.filter((work) => /bone density/i.test(work.title ?? '')).map((work) => short(work.id));
    expect(titled.length).toBeGreaterThan(3);
    for (const id of titled) expect(found).toContain(id);
    // Fewer than all: the filter restricts.
    expect(found.size).toBeLessThan(works.length);
  });

  it('reads a filter once per request, however many fields share it', async () => {
    const matches = jest.spyOn(app.catalog.names, 'textMatches');
    const checks = jest.spyOn(app.catalog.names, 'unknownFilterValues');
    try {
      const data = await gql<{ papers: { totalCount: number }; groupBy: { papers: number } }>(
        `query($f: WorkFilter) { papers(filter: $f) { totalCount } groupBy(field: YEAR, filter: $f) { papers }
           other: papers(filter: $f, first: 1) { totalCount } }`,
        { f: { ...inSample, text: 'bone density' } },
      );
      expect(data.groupBy.papers).toBe(data.papers.totalCount);
      expect(matches).toHaveBeenCalledTimes(1);
      expect(checks).toHaveBeenCalledTimes(1);
      // Another request reads it again: nothing is kept between requests.
      await gql('query($f: WorkFilter) { papers(filter: $f) { totalCount } }', {
        f: { ...inSample, text: 'bone density' },
      });
      expect(matches).toHaveBeenCalledTimes(2);
    } finally {
      matches.mockRestore();
      checks.mockRestore();
    }
  });

  it('says relevance needs a text, and rejects a text with no word', async () => {
    const relevance = (await postGraphql(url, '{ papers(sort: {by: RELEVANCE}) { totalCount } }')) as Response<unknown>;
    expect(relevance.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(relevance.errors?.[0]?.message).toMatch(/filter\.text/);
    const empty = (await postGraphql(url, '{ papers(filter: {text: "the of"}) { totalCount } }')) as Response<unknown>;
    expect(empty.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('keeps the papers of authors affiliated with an institution', async () => {
    const institution = 'https://openalex.org/I201448701';
    const expected = works.filter((work) =>
      work.authorships.some((a) => a.institutions.some((i) => i.id === institution)),
    ).length;
    const data = await gql<{ papers: { totalCount: number } }>(
      'query($f: WorkFilter) { papers(filter: $f) { totalCount } }',
      { f: { ...inSample, institutions: [institution.toLowerCase()] } },
    );
    expect(data.papers.totalCount).toBe(expected);
    expect(expected).toBeGreaterThan(5);
  });
});

describe('sort', () => {
  const pageQuery = `query($f: WorkFilter, $s: PaperSort, $after: String) {
    papers(filter: $f, sort: $s, first: 50, after: $after) {
      edges { node { id year citedByCount title } } pageInfo { hasNextPage endCursor } } }`;
  type Row = { id: string; year: number | null; citedByCount: number | null; title: string | null };

  async function all(sort: Record<string, string>): Promise<Row[]> {
    const rows: Row[] = [];
    let after: string | null = null;
    for (;;) {
      const data: { papers: { edges: Array<{ node: Row }>; pageInfo: { hasNextPage: boolean; endCursor: string } } } =
        await gql(pageQuery, { f: inSample, s: sort, after });
      rows.push(...data.papers.edges.map((edge) => edge.node));
      if (!data.papers.pageInfo.hasNextPage) return rows;
      after = data.papers.pageInfo.endCursor;
    }
  }

  it('pages a whole collection by global citations, most first, ties by id', async () => {
    const rows = await all({ by: 'CITATIONS' });
    const expected = [...works]
      .sort((a, b) => b.cited_by_count - a.cited_by_count || (short(a.id) < short(b.id) ? -1 : 1))
      .map((work) => short(work.id));
    expect(rows.map((row) => row.id)).toEqual(expected);
  });

  it('orders by year either way, by title without case', async () => {
    const ascending = await all({ by: 'YEAR', direction: 'ASC' });
    const years = ascending.map((row) => row.year!);
    expect(years).toEqual([...works.map((work) => work.publication_year)].sort((a, b) => a - b));
    const newest = await gql<{ papers: { edges: Array<{ node: Row }> } }>(pageQuery, {
      f: inSample,
      s: { by: 'YEAR' },
    });
    expect(newest.papers.edges[0]!.node.year).toBe(Math.max(...years));
    const titles = (await all({ by: 'TITLE' })).map((row) => row.title?.toLowerCase() ?? null);
    const known = titles.filter((title): title is string => title !== null);
    // Papers without a title come last.
    expect(titles).toEqual([
      ...[...known].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      ...titles.filter((t) => t === null),
    ]);
    expect(known.length).toBeLessThan(titles.length);
  });

  it("orders an author's works as asked", async () => {
    const data = await gql<{
      author: { works: { edges: Array<{ node: Row }> } };
    }>(
      `{ author(id: "A2555644867") {
           works(sort: {by: CITATIONS, direction: ASC}, first: 100, filter: {collections: ["${COLLECTION}"]}) {
             edges { node { id year citedByCount title } } } } }`,
    );
    const counts = data.author.works.edges.map((edge) => edge.node.citedByCount!);
    expect(counts.length).toBeGreaterThan(2);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });
});

describe('sort on the citation lists of a paper', () => {
  it('orders citing papers and references as asked', async () => {
    const data = await gql<{
      paper: {
        citedBy: { edges: Array<{ node: { year: number } }> };
        references: { edges: Array<{ node: { id: string; title: string | null; stub: boolean } }> };
      };
    }>(`{ paper(id: "W1593442063") {
          citedBy(sort: {by: YEAR, direction: ASC}, first: 200) { edges { node { year } } }
          references(sort: {by: TITLE}, first: 200) { edges { node { id title stub } } } } }`);
    const years = data.paper.citedBy.edges.map((edge) => edge.node.year);
    expect(years.length).toBeGreaterThan(5);
    expect(years).toEqual([...years].sort((a, b) => a - b));
    const titles = data.paper.references.edges.map((edge) => edge.node.title?.toLowerCase() ?? null);
    const known = titles.filter((title): title is string => title !== null);
    expect(known.length).toBeGreaterThan(0);
    expect(titles).toEqual([
      ...[...known].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      ...titles.filter((t) => t === null),
    ]);
  });
});

describe('group-by', () => {
  it('counts papers per year, in year order, like the raw records', async () => {
    const data = await gql<{
      groupBy: { papers: number; unknown: number; totalGroups: number; groups: Array<{ key: string; count: number }> };
    }>(`{ groupBy(field: YEAR, order: KEY, filter: {collections: ["${COLLECTION}"]}) {
          papers unknown totalGroups groups { key count } } }`);
    const expected = new Map<string, number>();
    for (const work of works)
      expected.set(String(work.publication_year), (expected.get(String(work.publication_year)) ?? 0) + 1);
    expect(data.groupBy.papers).toBe(works.length);
    expect(data.groupBy.unknown).toBe(0);
    expect(data.groupBy.groups).toEqual(
      [...expected.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([key, count]) => ({ key, count })),
    );
  });

  it('counts papers per country of their authors, each paper once per country', async () => {
    const expected = new Map<string, number>();
    let unknown = 0;
    for (const work of works) {
      const countries = new Set(
        work.authorships.flatMap((a) =>
          a.institutions.filter((i) => i.id && i.country_code).map((i) => i.country_code!),
        ),
      );
      if (countries.size === 0) unknown += 1;
      for (const country of countries) expected.set(country, (expected.get(country) ?? 0) + 1);
    }
    const data = await gql<{
      groupBy: { unknown: number; totalGroups: number; groups: Array<{ key: string; count: number }> };
    }>(`{ groupBy(field: COUNTRY, first: 3, filter: {collections: ["${COLLECTION}"]}) {
          unknown totalGroups groups { key count } } }`);
    const top = [...expected.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3);
    expect(data.groupBy.groups).toEqual(top.map(([key, count]) => ({ key, count })));
    expect(data.groupBy.totalGroups).toBe(expected.size);
    expect(data.groupBy.unknown).toBe(unknown);
  });
});

describe('whole networks in one call', () => {
  it('builds the topic co-occurrence network with weights from the records', async () => {
    const data = await gql<{
      network: {
        nodes: Array<{ id: string; label: string; type: string; weight: number; degree: number }>;
        edges: Array<{ source: string; target: string; weight: number }>;
        isolatedDropped: number;
      };
    }>(`{ network(kind: TOPIC_COOCCURRENCE, limit: 15, minWeight: 3, filter: {collections: ["${COLLECTION}"]}) {
          nodes { id label type weight degree } edges { source target weight } isolatedDropped } }`);
    const { nodes, edges } = data.network;
    expect(nodes.length).toBeGreaterThan(3);
    expect(edges.length).toBeGreaterThan(0);
    const topicsOf = works.map((work) => new Set((work.concepts ?? []).map((c) => short(c.id))));
    for (const edge of edges.slice(0, 10)) {
      const both = topicsOf.filter((set) => set.has(edge.source) && set.has(edge.target)).length;
      expect(edge.weight).toBe(both);
      expect(edge.weight).toBeGreaterThanOrEqual(3);
    }
    for (const node of nodes) {
      expect(node.type).toBe('TOPIC');
      expect(node.weight).toBe(topicsOf.filter((set) => set.has(node.id)).length);
      expect(node.degree).toBe(edges.filter((e) => e.source === node.id || e.target === node.id).length);
      expect(node.degree).toBeGreaterThan(0);
    }
    const ids = new Set(nodes.map((node) => node.id));
    for (const edge of edges) expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
  });

  it('builds a co-citation map whose nodes say which are stubs, and can leave stubs out', async () => {
    const query = `query($stubs: Boolean) { network(kind: COCITATION, limit: 60, stubs: $stubs, isolated: true,
        filter: {collections: ["${COLLECTION}"]}) { nodes { id stub year label } edges { source target weight } } }`;
    type Map = { network: { nodes: Array<{ id: string; stub: boolean; year: number | null; label: string }> } };
    const withStubs = await gql<Map>(query, { stubs: true });
    const sampleIds = new Set(works.map((work) => short(work.id)));
    expect(withStubs.network.nodes.length).toBe(60);
    // Works of the sample are full papers; works only cited are stubs unless another collection holds them.
    for (const node of withStubs.network.nodes) if (sampleIds.has(node.id)) expect(node.stub).toBe(false);
    expect(withStubs.network.nodes.some((node) => node.stub)).toBe(true);
    const full = withStubs.network.nodes.filter((node) => !node.stub);
    expect(full.length).toBeGreaterThan(0);
    for (const node of full) expect(node.year).not.toBeNull();
    const withoutStubs = await gql<Map>(query, { stubs: false });
    expect(withoutStubs.network.nodes.length).toBeGreaterThan(0);
    for (const node of withoutStubs.network.nodes) expect(node.stub).toBe(false);
  });

  it('caps the nodes with a warning instead of silently', async () => {
    const response = (await postGraphql(
      url,
      `{ network(kind: COUPLING, limit: 900, filter: {collections: ["${COLLECTION}"]}) { nodes { id } } }`,
    )) as Response<unknown> & { extensions?: { warnings?: string[] } };
    expect(response.errors).toBeUndefined();
    expect(response.extensions?.warnings?.join(' ')).toMatch(/network: limit 900 is above the limit; 500/);
  });
});

describe('the collaboration network says which authors have no edge', () => {
  it('counts them, and drops them when asked', async () => {
    const query = `query($isolated: Boolean) { collaborationNetwork(limit: 60, minJointPapers: 2, isolated: $isolated,
        filter: {collections: ["${COLLECTION}"]}) { nodes { id } edges { source target } isolatedNodes } }`;
    type Net = {
      collaborationNetwork: {
        nodes: Array<{ id: string }>;
        edges: Array<{ source: string; target: string }>;
        isolatedNodes: number;
      };
    };
    const all = (await gql<Net>(query, { isolated: true })).collaborationNetwork;
    const linked = new Set(all.edges.flatMap((edge) => [edge.source, edge.target]));
    const lonely = all.nodes.filter((node) => !linked.has(node.id)).length;
    expect(lonely).toBeGreaterThan(0);
    expect(all.isolatedNodes).toBe(lonely);
    const dropped = (await gql<Net>(query, { isolated: false })).collaborationNetwork;
    expect(dropped.nodes).toHaveLength(all.nodes.length - lonely);
    expect(dropped.isolatedNodes).toBe(lonely);
    expect(dropped.edges).toEqual(all.edges);
  });
});

describe('growth from smoothed ends', () => {
  it("states a topic's CAGR from the means of its first and last three years", async () => {
    const data = await gql<{
      topic: { trend: { cagr: number; points: Array<{ year: number; count: number; partial: boolean }> } };
    }>(`{ topic(id: "C2778562196") { trend(from: 1995, to: 2003, filter: {collections: ["${COLLECTION}"]}) {
          cagr points { year count partial } } } }`);
    const counts = new Map<number, number>();
    for (const work of works)
      if ((work.concepts ?? []).some((c) => short(c.id) === 'C2778562196'))
        counts.set(work.publication_year, (counts.get(work.publication_year) ?? 0) + 1);
    const { points, cagr } = data.topic.trend;
    expect(points.map((p) => p.count)).toEqual(points.map((p) => counts.get(p.year) ?? 0));
    expect(points.every((p) => !p.partial)).toBe(true);
    const series = points.slice(points.findIndex((p) => p.count > 0));
    const mean = (part: typeof series) => part.reduce((s, p) => s + p.count, 0) / part.length;
    const early = series.slice(0, 3);
    const late = series.slice(-3);
    expect(cagr).toBeCloseTo((mean(late) / mean(early)) ** (1 / (late[1]!.year - early[1]!.year)) - 1, 10);
  });
});

describe('honest caps and misses', () => {
  type Warned = Response<Record<string, unknown>> & { extensions?: { warnings?: string[] } };

  it('treats an over-cap size the same way on every list: capped, and said so', async () => {
    const response = (await postGraphql(
      url,
      `{ papers(first: 5000, filter: {collections: ["${COLLECTION}"]}) { edges { node { id } } }
         topics(search: "estrogen", first: 900) { topic { id } }
         search(query: "estrogen bone density", first: 201, filter: {collections: ["${COLLECTION}"]}) {
           results { paper { id } } }
         collaborationNetwork(limit: 500, filter: {collections: ["${COLLECTION}"]}) { nodes { id } } }`,
    )) as Warned;
    expect(response.errors).toBeUndefined();
    const warnings = response.extensions?.warnings ?? [];
    expect(warnings).toEqual(
      expect.arrayContaining([
        'papers: first 5000 is above the limit; 200 returned at most',
        'topics: first 900 is above the limit; 200 returned at most',
        'search: first 201 is above the limit; 200 returned at most',
        'collaborationNetwork: limit 500 is above the limit; 200 returned at most',
      ]),
    );
    const data = response.data as { papers: { edges: unknown[] } };
    expect(data.papers.edges).toHaveLength(200);
  });

  it('refuses a filter naming an unknown collection or id, naming the closest known one; a lookup miss is a warning', async () => {
    const refused = (await postGraphql(
      url,
      `{ papers(filter: {collections: ["Explorer_Sample"], topics: ["C0000001"]}) { totalCount } }`,
    )) as Warned & { errors?: Array<{ message: string; extensions: { code: string; details?: unknown } }> };
    expect(refused.errors).toHaveLength(1);
    // Closest first (other suites' collections may follow it).
    expect(refused.errors![0]!.message).toMatch(
      new RegExp(
        `^filter.collections: no collection "Explorer_Sample"; closest: ${COLLECTION}\\b.*; filter.topics: no topic with id C0000001$`,
      ),
    );
    const details = refused.errors![0]!.extensions as unknown as {
      argument: string;
      unknown: Array<{ field: string; value: string; closest: string[] }>;
    };
    expect(refused.errors![0]!.extensions.code).toBe('BAD_USER_INPUT');
    expect(details.argument).toBe('filter.collections');
    expect(details.unknown.map((u) => [u.field, u.value, u.closest[0]])).toEqual([
      ['filter.collections', 'Explorer_Sample', COLLECTION],
      ['filter.topics', 'C0000001', undefined],
    ]);
    // The same for a question scoped to a misspelt collection, and for a download.
    const asked = (await postGraphql(
      url,
      `{ ask(question: "Does alendronate raise bone density?", options: { collections: ["Explorer Sample"] }) { answer } }`,
    )) as { errors?: Array<{ message: string; extensions: { code: string } }> };
    expect(asked.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(asked.errors?.[0]?.message).toMatch(
      new RegExp(`^filter.collections: no collection "Explorer Sample"; closest: ${COLLECTION}\\b`),
    );
    const download = await fetch(`${new URL(url).origin}/export/papers?format=ris&collection=EXPLORER_SAMPLE`);
    expect(download.status).toBe(400);
    expect(JSON.stringify(await download.json())).toContain(`closest: ${COLLECTION}`);
    // A lookup of one record by id answers null, and says why in the warnings.
    const missing = (await postGraphql(
      url,
      `{ paper(id: "W1") { id } topic(id: "https://openalex.org/C0000002") { id } }`,
    )) as Warned;
    expect(missing.errors).toBeUndefined();
    expect(missing.extensions?.warnings).toEqual([
      'paper: no paper with id W1',
      'topic: no topic with id https://openalex.org/C0000002',
    ]);
  });

  it('says nothing when every name is known', async () => {
    const response = (await postGraphql(
      url,
      `{ papers(filter: {collections: ["${COLLECTION}"], topics: ["C2778562196"]}) { totalCount } }`,
    )) as Warned;
    expect(response.errors).toBeUndefined();
    expect(response.extensions?.warnings).toBeUndefined();
  });
});
