import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/app-context';
import { createTestContext, removeCollections } from '../helpers/context';
import { loadRecorded, ReplayServer } from '../helpers/replay-server';
import { SHARED_DIR } from '../helpers/test-database';

/**
 * References of an uploaded document resolved through the scholarly APIs (Crossref's citation matching, OpenAlex by
 * DOI), served by local replay servers with recorded real responses: a Crossref `/works` search whose best hit is
 * "The forecast trap" (Boettiger 2022), and the OpenAlex work W2741809807 ("The state of OA", PeerJ 2018).
 */
const NOTE = `# Reading notes on forecasting and open access

## Notes

Forecasts in ecology can trap decision makers; open access shares keep rising.

## References

1. Boettiger C. The forecast trap. Ecology Letters. 2022;25(7):1655-1664.
2. Piwowar H, Priem J, Larivière V, et al. The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles. PeerJ. 2018;6:e4375. doi:10.7717/peerj.4375
3. Smith J. An unrelated survey of garden birds in winter. Birding Quarterly. 1999;4:1-9.
`;

const OWN = ['doc-online', 'doc-offline'];
const crossref = new ReplayServer();
const openalex = new ReplayServer();
let dir: string;
let app: AppContext;

beforeAll(async () => {
  const forecast = loadRecorded('crossref').find(
    (i) => (i.body_json as any)?.message?.items?.[0]?.title?.[0] === 'The forecast trap',
  )!;
  crossref.script('/works', [{ status: 200, body: forecast.body_json }]);
  const stateOfOa = JSON.parse(
    readFileSync(path.join(SHARED_DIR, 'fixtures', 'openalex', 'entities-2025', 'W2741809807.json'), 'utf8'),
  );
  openalex.script('/works/doi:10.7717/peerj.4375', [{ status: 200, body: stateOfOa }]);
  openalex.script('/works/doi:10.1111/ele.14024', [{ status: 404, body: { error: 'not found' } }]);
  const [crossrefUrl, openalexUrl] = await Promise.all([crossref.start(), openalex.start()]);
  ({ app } = createTestContext({
    CROSSREF_BASE_URL: crossrefUrl,
    OPENALEX_BASE_URL: openalexUrl,
    CITEGRAPH_HTTP_RETRIES: '0',
  }));
  await removeCollections(app, OWN);
  dir = mkdtempSync(path.join(os.tmpdir(), 'citegraph-refs-'));
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
  await Promise.all([crossref.stop(), openalex.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

async function citedBy(name: string) {
  return app.executor.read<{
    id: string;
    stub: boolean;
    title: string | null;
    year: number | null;
    doi: string | null;
    resolvedBy: string | null;
    raw: string | null;
  }>({
    name: 'test',
    text: `MATCH (p:Paper {documentName: $name})-[:CITES]->(q:Paper)
           RETURN q.id AS id, q.stub AS stub, q.title AS title, q.year AS year, q.doi AS doi,
                  q.resolvedBy AS resolvedBy, q.rawReference AS raw ORDER BY q.rawReference`,
    params: { name },
  });
}

describe('references resolved online', () => {
  it('matches an entry on Crossref, finds a DOI on OpenAlex, and rejects a hit that is not the work cited', async () => {
    const file = path.join(dir, 'online-notes.md');
    writeFileSync(file, NOTE);
    const summary = await app.ingest.ingestFiles([file], {
      embed: 'defer',
      collection: 'doc-online',
      progress: false,
      resolveOnline: true,
    });
    expect(summary.skipped).toEqual([]);
    expect(summary.documents.references).toBe(3);
    expect(summary.documents.referencesResolvedOnline).toBe(2);
    const cited = await citedBy('online-notes.md');
    const byId = new Map(cited.map((c) => [c.id, c]));
    // Crossref's best hit for entry 1 is the work (title in the entry, year 2022, author Boettiger); OpenAlex does
    // not know its DOI here (404), so the stub is the DOI.
    expect(byId.get('doi:10.1111/ele.14024')).toMatchObject({
      stub: true,
      title: 'The forecast trap',
      year: 2022,
      doi: '10.1111/ele.14024',
      resolvedBy: 'crossref',
    });
    // Entry 2 gives its DOI; OpenAlex names the work, so the stub is the node that work becomes when ingested.
    expect(byId.get('W2741809807')).toMatchObject({
      title: expect.stringMatching(/^The state of OA/),
      year: 2018,
      doi: '10.7717/peerj.4375',
      resolvedBy: 'openalex',
    });
    // Entry 3 got the same Crossref answer, whose title is not in it: it stays a stub of its raw text.
    const unrelated = cited.find((c) => c.raw?.includes('garden birds'))!;
    expect(unrelated.id).toMatch(/^ref:/);
    expect(unrelated.resolvedBy).toBeNull();
    expect(crossref.requests.map((r) => r.key)).toEqual(
      expect.arrayContaining([expect.stringMatching(/query\.bibliographic=Boettiger C\. The forecast trap/)]),
    );
  });
  it('stays offline unless asked; a later document citing a work resolved before joins its node', async () => {
    const file = path.join(dir, 'offline-notes.md');
    writeFileSync(file, NOTE.replace('Reading notes', 'Offline reading notes'));
    const calls = crossref.requests.length + openalex.requests.length;
    const summary = await app.ingest.ingestFiles([file], {
      embed: 'defer',
      collection: 'doc-offline',
      progress: false,
    });
    expect(summary.documents.references).toBe(3);
    expect(summary.documents.referencesResolvedOnline).toBe(0);
    expect(crossref.requests.length + openalex.requests.length).toBe(calls);
    const cited = await citedBy('offline-notes.md');
    // The DOI of entry 2 is now a node of the graph (the stub OpenAlex named): found without going online.
    expect(cited.map((c) => c.id)).toContain('W2741809807');
    const forecast = cited.find((c) => c.raw?.includes('forecast trap'))!;
    expect(forecast.id).toMatch(/^ref:/);
  });
});
