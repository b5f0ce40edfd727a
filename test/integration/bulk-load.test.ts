import { rmSync } from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../../src/app-context';
import { bulkLoad } from '../../src/cli/bulk-load';
import { PROJECT_ROOT } from '../../src/config/settings';
import { stopEmbedded } from '../../src/graph/embedded-server';
import { MemoryLogger } from '../../src/logger';
import { createTestContext, removeCollections } from '../helpers/context';
import { ownServerSettings } from '../helpers/test-database';

/**
 * The bulk path (CSV + neo4j-admin database import) gives the graph the Bolt ingest gives: same nodes, properties,
 * edges, chunks and stored aggregates for the bundled sample.
 */
const SAMPLE = path.join(PROJECT_ROOT, 'data/sample/nelson-2002.jsonl.gz');
const COLLECTION = 'bulk-check';
const { settings: bulkSettings, dataDir } = ownServerSettings('bulk', 30);
const { app: bolt } = createTestContext();

/** The collection's graph reduced to comparable rows: papers with their properties, neighbours, edges, chunks. */
async function fingerprint(app: AppContext) {
  const read = <T extends object>(text: string) =>
    app.executor.autoCommit<T>({ name: 'bulk-fingerprint', text, params: { c: COLLECTION } });
  const papers = await read<Record<string, unknown>>(
    `MATCH (p:Paper) WHERE $c IN p.collections
     RETURN p.id AS id, p.contentHash AS hash, p.title AS title, p.abstract AS abstract, p.year AS year,
            p.doi AS doi, p.citedByCount AS cited, p.internalCitedBy AS internal, p.referenceCount AS refs,
            p.citationYears AS years, p.citationCounts AS counts, p.isRetracted AS retracted, p.stub AS stub
     ORDER BY id`,
  );
  const edges = await read<Record<string, unknown>>(
    `MATCH (p:Paper)-[r]-(x) WHERE $c IN p.collections
     RETURN p.id AS paper, type(r) AS type, startNode(r) = p AS out, labels(x)[0] AS label, x.id AS other,
            properties(r) AS props, x.stub AS stub, x.doi AS doi, x.internalCitedBy AS internal
     ORDER BY paper, type, other`,
  );
  const people = await read<Record<string, unknown>>(
    `MATCH (a:Author)-[:AUTHORED]->(p:Paper) WHERE $c IN p.collections
     WITH DISTINCT a
     RETURN a.id AS id, a.name AS name, a.orcid AS orcid, a.anonymous AS anonymous, a.person AS person,
            a.personPapers AS papers, a.personInternal AS internal, a.personGlobal AS global,
            a.personRecord AS record, COLLECT { MATCH (a)-[:AFFILIATED_WITH]->(i) RETURN [i.id, i.name, i.countryCode] AS row ORDER BY i.id } AS institutions
     ORDER BY id`,
  );
  const chunks = await read<Record<string, unknown>>(
    `MATCH (p:Paper)-[:HAS_CHUNK]->(c:Chunk) WHERE $c IN p.collections
     RETURN c.id AS id, c.text AS text, c.ordinal AS ordinal, c.start AS start, c.end AS end,
            c.tokenCount AS tokens, c.section AS section, c.paperId AS paper, c.paperTitle AS title
     ORDER BY id`,
  );
  return { papers, edges, people, chunks };
}

afterAll(async () => {
  await removeCollections(bolt, [COLLECTION]);
  await bolt.close();
  await stopEmbedded(bulkSettings);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('bulk load through neo4j-admin database import', () => {
  it('gives the graph the Bolt ingest gives', async () => {
    await removeCollections(bolt, [COLLECTION]);
    await bolt.ingest.ingestFiles([SAMPLE], { embed: 'defer', collection: COLLECTION, progress: false });
    const expected = await fingerprint(bolt);
    expect(expected.papers).toHaveLength(366);

    const app = createAppContext({ settings: bulkSettings, logger: new MemoryLogger() });
    try {
      const result = await bulkLoad(app, [SAMPLE], { collection: COLLECTION });
      expect(result.counts.papers).toBe(366);
      expect(result.summary.skipped).toEqual([]);
      const actual = await fingerprint(app);
      expect(actual.papers).toEqual(expected.papers);
      expect(actual.chunks).toEqual(expected.chunks);
      expect(actual.people).toEqual(expected.people);
      expect(actual.edges).toEqual(expected.edges);
      // The indexes search needs are there: a full-text query finds a sample paper by a word of its title.
      const { results } = await app.search.search(
        app.requestContext(),
        'estrogen replacement therapy',
        5,
        { collections: [COLLECTION] },
        { dense: false, passages: 0 },
      );
      expect(results.length).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });

  it('refuses to run against an external server', async () => {
    const app = createAppContext({
      settings: { ...bulkSettings, neo4j: { ...bulkSettings.neo4j, uri: 'bolt://127.0.0.1:1' } },
      logger: new MemoryLogger(),
    });
    try {
      await expect(bulkLoad(app, [SAMPLE], {})).rejects.toThrow(/embedded store/);
    } finally {
      await app.close();
    }
  });
});
