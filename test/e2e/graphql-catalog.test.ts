import path from 'node:path';
import { printSchema } from 'graphql';
import { makeExecutableSchemaForSnapshot } from '../helpers/schema-snapshot';
import { serveGraphQL } from '../../src/api/server';
import { postGraphql } from '../helpers/graphql-client';
import { PROJECT_ROOT } from '../../src/config/settings';
import { createTestContext, removeCollections } from '../helpers/context';

const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

async function gql<T = Record<string, unknown>>(
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> }> {
  return postGraphql(url, query, variables);
}

beforeAll(async () => {
  await removeCollections(app, ['nelson-2002']);
  await app.ingest.ingestFiles([path.join(PROJECT_ROOT, 'data/sample/nelson-2002.jsonl.gz')], {
    embed: 'defer',
    progress: false,
  });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, ['nelson-2002']);
  await app.close();
});

describe('GraphQL over HTTP', () => {
  it('answers health with the database in use', async () => {
    const { data } = await gql<{
      health: {
        ok: boolean;
        database: string;
        databaseReachable: boolean;
        neo4jVersion: string;
        neo4jEdition: string;
        settingsHash: string;
      };
    }>('{ health { ok database databaseReachable neo4jVersion neo4jEdition settingsHash } }');
    expect(data?.health.ok).toBe(true);
    expect(data?.health.databaseReachable).toBe(true);
    // Which kind of database, never its address.
    expect(['embedded', 'external']).toContain(data?.health.database);
    expect(data?.health.neo4jVersion).toMatch(/^5\./);
    expect(data?.health.settingsHash).toMatch(/^[0-9a-f]{12}$/);
  });

  it('counts labels and relationships', async () => {
    const { data } = await gql<{
      stats: {
        papers: number;
        stubPapers: number;
        labels: Array<{ label: string; count: number }>;
        relationships: Array<{ type: string; count: number }>;
        collections: unknown[];
      };
    }>(
      '{ stats { papers stubPapers authors chunks citesBetweenPapers labels { label count } relationships { type count } collections { collection papers } } }',
    );
    expect(data?.stats.papers).toBe(366);
    expect(data?.stats.collections).toEqual([{ collection: 'nelson-2002', papers: 366 }]);
    const paperLabel = data?.stats.labels.find((l) => l.label === 'Paper');
    expect(paperLabel?.count).toBe(366 + data!.stats.stubPapers);
    expect(data?.stats.relationships.find((r) => r.type === 'CITES')?.count).toBeGreaterThan(0);
  });

  it('serves a paper by id and by DOI with authors, venue, topics, references and chunks', async () => {
    const query = `query ($id: ID, $doi: String) { paper(id: $id, doi: $doi) {
      id doi doiUrl title year stub collections
      authors { position order author { id name anonymous } }
      venue { id name } topics(first: 3) { score topic { id name level kind } }
      references(first: 5) { totalCount edges { node { id stub } } } chunks(first: 50) { totalCount edges { node { id ordinal start end tokenCount text } } } } }`;
    const [full] = await app.executor.autoCommit<{ id: string }>({
      name: 'full-paper',
      text: `MATCH (p:Paper {stub: false}) WHERE p.doi IS NOT NULL AND EXISTS { (p)<-[:AUTHORED]-() } AND EXISTS { (p)-[:PUBLISHED_IN]->() }
               AND EXISTS { (p)-[:CITES]->() } AND COUNT { (p)-[:HAS_TOPIC]->() } >= 3 AND COUNT { (p)-[:HAS_CHUNK]->() } >= 2
             RETURN p.id AS id ORDER BY p.id LIMIT 1`,
    });
    const byId = await gql<{ paper: Record<string, any> }>(query, { id: full!.id });
    const paper = byId.data!.paper;
    expect(paper).toBeTruthy();
    expect(paper.stub).toBe(false);
    expect(paper.authors.length).toBeGreaterThan(0);
    expect(paper.authors.map((a: { order: number }) => a.order)).toEqual([...paper.authors.keys()]);
    expect(paper.venue.id).toMatch(/^S\d+$/);
    expect(paper.references.edges.length).toBeGreaterThan(0);
    expect(paper.references.totalCount).toBeGreaterThanOrEqual(paper.references.edges.length);
    expect(paper.topics).toHaveLength(3);
    expect(paper.topics[0].score).toBeGreaterThanOrEqual(paper.topics[1].score);
    const abstract = (await app.catalog.paperById(paper.id))!.abstract as string;
    expect(paper.chunks.totalCount).toBe(paper.chunks.edges.length);
    for (const { node: chunk } of paper.chunks.edges) expect(abstract.slice(chunk.start, chunk.end)).toBe(chunk.text);
    const byDoi = await gql<{ paper: { id: string } }>(query, {
      doi: `https://doi.org/${String(paper.doi).toUpperCase()}`,
    });
    expect(byDoi.data?.paper.id).toBe(paper.id);
  });

  it('serves an author with institutions and papers', async () => {
    const [row] = await app.executor.autoCommit<{ id: string; n: number }>({
      name: 'author',
      text: 'MATCH (a:Author {anonymous: false})-[:AUTHORED]->(p) WITH a, count(p) AS n ORDER BY n DESC, a.id LIMIT 1 RETURN a.id AS id, n',
    });
    const { data } = await gql<{
      author: { id: string; paperCount: number; works: { totalCount: number; edges: Array<{ node: { id: string } }> } };
    }>(
      'query ($id: ID!) { author(id: $id) { id name anonymous paperCount institutions { id name } works(first: 50) { totalCount edges { node { id title } } } } }',
      { id: row!.id },
    );
    expect(data?.author.paperCount).toBe(row!.n);
    expect(data?.author.works.totalCount).toBe(row!.n);
    expect(data?.author.works.edges).toHaveLength(row!.n);
  });

  it('pages papers Relay-style without gaps or repeats', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let total = 0;
    for (let page = 0; page < 10; page += 1) {
      const result: any = await gql(
        'query ($after: String) { papers(first: 50, after: $after, filter: {years: {from: 1990}}) { totalCount edges { cursor node { id year } } pageInfo { hasNextPage endCursor } } }',
        { after },
      );
      const connection = result.data.papers;
      total = connection.totalCount;
      for (const edge of connection.edges) {
        expect(edge.node.year).toBeGreaterThanOrEqual(1990);
        seen.push(edge.node.id);
      }
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(seen);
  });

  it('returns null for an unknown paper and coded errors for bad requests', async () => {
    expect((await gql('{ paper(id: "W0") { id } }')).data).toEqual({ paper: null });
    const both = await gql('{ paper(id: "W1", doi: "10.1/x") { id } }');
    expect(both.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const badDoi = await gql('{ paper(doi: "nonsense") { id } }');
    expect(badDoi.errors?.[0]).toMatchObject({
      message: 'not a DOI: nonsense',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const badCursor = await gql('{ papers(after: "xyz") { totalCount } }');
    expect(badCursor.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const invalid = await gql('{ paper(id: "W1") { nope } }');
    expect(invalid.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('keeps the printed schema as reviewed', () => {
    expect(printSchema(makeExecutableSchemaForSnapshot())).toMatchSnapshot();
  });
});
