import { serveGraphQL } from '../../src/api/server';
import { createTestContext, removeCollections, SAMPLE_FILE, sampleRecords } from '../helpers/context';
import { graphqlData, postGraphql } from '../helpers/graphql-client';

/** Lookup by name, ids as users type them, authors ranked by papers, emerging topics on their own, chunk counts. */
const COLLECTION = 'lookup-sample';
const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

type Raw = {
  id: string;
  publication_year: number;
  concepts?: Array<{ id: string; display_name: string; score: number | string }>;
  authorships?: Array<{ author: { id: string | null; display_name: string } }>;
  primary_location?: { source?: { id: string; display_name: string } | null } | null;
};
const works = sampleRecords<Raw>();
const short = (id: string) => id.replace('https://openalex.org/', '');

const gql = <T>(query: string, variables: Record<string, unknown> = {}) => graphqlData<T>(url, query, variables);

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

describe('lookup by name and ids as users type them', () => {
  it('finds a topic by (part of) its name, with the papers that carry it', async () => {
    const expected = works.filter((work) => work.concepts?.some((c) => c.display_name === 'Bone density')).length;
    const data = await gql<{ topics: Array<{ topic: { id: string; name: string }; papers: number; score: number }> }>(
      '{ topics(search: "bone dens", first: 5) { topic { id name } papers score } }',
    );
    const [best] = data.topics;
    expect(best?.topic.name).toBe('Bone density');
    expect(best?.papers).toBe(expected);
    // Its id works in the one filter.
    const papers = await gql<{ papers: { totalCount: number } }>(
      'query($t: ID!) { papers(filter: {topics: [$t], collections: ["lookup-sample"]}) { totalCount } }',
      { t: best!.topic.id },
    );
    expect(papers.papers.totalCount).toBe(expected);
  });

  it('finds an author by name and institutions and venues by theirs', async () => {
    const data = await gql<{
      authors: Array<{ author: { id: string; name: string }; papers: number }>;
      venues: { edges: Array<{ node: { venue: { id: string; name: string }; papers: number } }> };
    }>(
      `{ authors(search: "deborah grady") { author { id name } papers }
         venues(search: "maturitas", filter: {collections: ["lookup-sample"]}) { edges { node { venue { id name } papers } } } }`,
    );
    const grady = works.filter((work) =>
      work.authorships?.some((a) => a.author.id === 'https://openalex.org/A2555644867'),
    ).length;
    expect(data.authors[0]).toEqual({ author: { id: 'A2555644867', name: 'Deborah Grady' }, papers: grady });
    const maturitas = works.filter((work) => work.primary_location?.source?.display_name === 'Maturitas').length;
    expect(data.venues.edges.map((edge) => edge.node)).toEqual([
      { venue: { id: 'S127492747', name: 'Maturitas' }, papers: maturitas },
    ]);
    // Nothing searchable is a clear error, not an empty list.
    const bad = (await postGraphql(url, '{ topics(search: "  --  ") { papers } }')) as {
      errors?: Array<{ extensions?: { code?: string } }>;
    };
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('accepts OpenAlex URLs and any case wherever an id is taken', async () => {
    const work = short(works[0]!.id);
    const data = await gql<{
      a: { id: string } | null;
      b: { id: string } | null;
      author: { name: string } | null;
      venue: { venue: { name: string }; papers: number } | null;
      papers: { totalCount: number };
    }>(
      `query($url: ID!, $lower: ID!) {
         a: paper(id: $url) { id }
         b: paper(id: $lower) { id }
         author(id: "https://openalex.org/a2555644867") { name }
         venue(id: "s127492747") { venue { name } papers }
         papers(filter: {authors: ["https://openalex.org/A2555644867"], collections: ["lookup-sample"]}) { totalCount }
       }`,
      { url: `https://openalex.org/${work}`, lower: work.toLowerCase() },
    );
    expect(data.a?.id).toBe(work);
    expect(data.b?.id).toBe(work);
    expect(data.author?.name).toBe('Deborah Grady');
    expect(data.venue?.venue.name).toBe('Maturitas');
    expect(data.papers.totalCount).toBeGreaterThan(0);
  });
});

describe('rankings and growth without workarounds', () => {
  it('ranks authors by their number of papers', async () => {
    const counts = new Map<string, number>();
    for (const work of works)
      for (const a of work.authorships ?? [])
        if (a.author.id) counts.set(short(a.author.id), (counts.get(short(a.author.id)) ?? 0) + 1);
    const expected = [...counts.values()].sort((x, y) => y - x).slice(0, 5);
    const data = await gql<{ topAuthors: { edges: Array<{ node: { papers: number; score: number } }> } }>(
      '{ topAuthors(by: PAPERS, first: 5, filter: {collections: ["lookup-sample"]}) { edges { node { papers score } } } }',
    );
    expect(data.topAuthors.edges.map((edge) => edge.node.score)).toEqual(expected);
    expect(data.topAuthors.edges.map((edge) => edge.node.papers)).toEqual(expected);
  });

  it('answers emerging topics on their own, honouring the filter', async () => {
    const query = `query($f: WorkFilter) {
      emergingTopics(filter: $f, from: 1990, to: 2002, options: {minSupport: 3, first: 5}) { topic { id } late early } }`;
    const all = await gql<{ emergingTopics: Array<{ topic: { id: string }; late: number }> }>(query, {
      f: { collections: [COLLECTION] },
    });
    expect(all.emergingTopics.length).toBeGreaterThan(0);
    // Recount one topic's later-half papers (1997–2002) from the raw records.
    const first = all.emergingTopics[0]!;
    const late = works.filter(
      (work) =>
        work.publication_year >= 1997 &&
        work.publication_year <= 2002 &&
        work.concepts?.some((c) => short(c.id) === first.topic.id && Number(c.score) >= 0.3),
    ).length;
    expect(first.late).toBe(late);
    const narrowed = await gql<{ emergingTopics: Array<{ topic: { id: string }; late: number }> }>(query, {
      f: { collections: [COLLECTION], authors: ['A2555644867'] },
    });
    expect(narrowed.emergingTopics).not.toEqual(all.emergingTopics);
  });

  it('says how many chunks are embedded and how many wait, reading the chunks once per request', async () => {
    const count = jest.spyOn(app.catalog, 'pendingChunks');
    try {
      const data = await gql<{ stats: { chunks: number; embeddedChunks: number; pendingChunks: number } }>(
        '{ stats { chunks embeddedChunks pendingChunks } }',
      );
      expect(data.stats.pendingChunks).toBeGreaterThan(0); // the sample was ingested with deferred embedding
      expect(data.stats.embeddedChunks + data.stats.pendingChunks).toBe(data.stats.chunks);
      expect(count).toHaveBeenCalledTimes(1);
      await gql('{ stats { chunks } }');
      expect(count).toHaveBeenCalledTimes(1); // not asked, not counted
      // Which model the vectors come from, as the graph records it (from the service's first use of its model on a
      // graph without a record), and the one this service embeds with.
      await app.embedder();
      const models = await gql<{ stats: { embeddingModel: string | null; embeddingModelServed: string } }>(
        '{ stats { embeddingModel embeddingModelServed } }',
      );
      expect(models.stats).toEqual({ embeddingModel: 'minilm', embeddingModelServed: 'minilm' });
    } finally {
      count.mockRestore();
    }
  });
});
