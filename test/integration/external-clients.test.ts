import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, type ClientSettings } from '../../src/config/settings';
import { CrossrefClient, mapCrossrefWork } from '../../src/external/crossref-client';
import { OpenAlexClient } from '../../src/external/openalex-client';
import { mapS2Paper, SemanticScholarClient } from '../../src/external/semantic-scholar-client';
import { FetchService } from '../../src/external/fetch-service';
import { mergeWorks } from '../../src/external/merge';
import { ResponseCache } from '../../src/external/response-cache';
import { mapOpenAlexWork } from '../../src/ingest/openalex';
import { RequestContext } from '../../src/request-context';
import { createTestContext, removeCollections } from '../helpers/context';
import { loadRecorded, ReplayServer } from '../helpers/replay-server';
import { SHARED_DIR } from '../helpers/test-database';

function clientSettings(overrides: Record<string, string>): ClientSettings {
  return loadSettings({
    CITEGRAPH_HTTP_TIMEOUT_MS: '500',
    CITEGRAPH_HTTP_RETRIES: '2',
    CITEGRAPH_HTTP_BACKOFF_MS: '20',
    CITEGRAPH_HTTP_MAX_BACKOFF_MS: '2000',
    OPENALEX_RPS: '100',
    CROSSREF_RPS: '100',
    S2_RPS: '100',
    OPENALEX_MAILTO: 'tests@example.org',
    CROSSREF_MAILTO: 'tests@example.org',
    ...overrides,
  }).clients;
}

const cache = () => new ResponseCache(60_000, 1000);
/** A fresh request context: no LLM, no deadline, its own ledger of API calls. */
const request = () => RequestContext.create({ llm: null });

describe('recorded responses', () => {
  it('every recorded body parses and maps without throwing', () => {
    let mapped = 0;
    for (const interaction of loadRecorded('crossref')) {
      const message = (interaction.body_json as { message?: unknown } | undefined)?.message as
        Record<string, unknown> | undefined;
      if (!message || typeof message !== 'object') continue;
      const items = Array.isArray(message.items) ? message.items : message.DOI ? [message] : [];
      for (const item of items)
        if (item && typeof item === 'object' && 'DOI' in item) {
          expect(() => mapCrossrefWork(item as Record<string, unknown>)).not.toThrow();
          mapped += 1;
        }
    }
    for (const interaction of loadRecorded('semanticscholar')) {
      const body = interaction.body_json as { data?: unknown[] } | undefined;
      for (const item of Array.isArray(body?.data) ? body.data : []) {
        const paper =
          (item as Record<string, unknown>).citingPaper ?? (item as Record<string, unknown>).citedPaper ?? item;
        expect(() => mapS2Paper(paper as Record<string, unknown>)).not.toThrow();
        mapped += 1;
      }
    }
    for (const interaction of loadRecorded('openalex')) {
      const body = interaction.body_json as { results?: unknown[] } | undefined;
      for (const item of Array.isArray(body?.results) ? body.results : []) {
        if ((item as { id?: string }).id?.includes('/W')) {
          expect(() => mapOpenAlexWork(item)).not.toThrow();
          mapped += 1;
        }
      }
    }
    expect(mapped).toBeGreaterThan(1500);
  });

  it('maps the Semantic Scholar paper with 1,000 citations', () => {
    const paper = JSON.parse(
      readFileSync(path.join(SHARED_DIR, 'fixtures/semanticscholar/objects/Paper.json'), 'utf8'),
    );
    const work = mapS2Paper(paper)!;
    expect(work).toMatchObject({
      id: 'doi:10.1093/mind/lix.236.433',
      doi: '10.1093/mind/lix.236.433',
      title: 'Computing Machinery and Intelligence',
      year: 1950,
      citedByCount: 10059,
    });
    expect(work.ids).toMatchObject({ s2: '2d5673caa9e6af3a7b82a43f19ee920992db07ad', mag: '2145482038' });
    expect(work.authorships[0]).toMatchObject({ name: 'A. Turing', authorId: 's2a:2262347' });
    // 14 references, of which 8 carry an id (the rest are unresolved citations without paperId or DOI).
    expect(paper.references).toHaveLength(14);
    expect(work.references).toHaveLength(
      (paper.references as Array<{ paperId: string | null }>).filter((r) => r.paperId).length,
    );
    expect(work.references).toHaveLength(8);
    const citing = (paper.citations as Array<Record<string, unknown>>).map(mapS2Paper);
    expect(citing.filter(Boolean)).toHaveLength(1000);
  });
});

describe('clients against a local replay of real responses', () => {
  const servers: ReplayServer[] = [];
  afterAll(async () => Promise.all(servers.map((server) => server.stop())));

  async function replay(provider: 'crossref' | 'openalex' | 'semanticscholar'): Promise<[ReplayServer, string]> {
    const server = new ReplayServer(loadRecorded(provider));
    servers.push(server);
    return [server, await server.start()];
  }

  it('Crossref: a work by DOI with its 70-entry reference list; 404 is null', async () => {
    const [server, url] = await replay('crossref');
    const client = new CrossrefClient(clientSettings({ CROSSREF_BASE_URL: url }), cache());
    const work = (await client.getWork(request(), '10.1371/journal.pone.0033693'))!;
    expect(server.unmatched).toEqual([]);
    expect(work).toMatchObject({
      doi: '10.1371/journal.pone.0033693',
      year: 2012,
      citedByCount: 72,
      source: 'crossref',
    });
    expect(work.title).toMatch(/^Methylphenidate Exposure Induces Dopamine Neuron Loss/);
    expect(work.authorships[0]).toMatchObject({ name: 'Shankar Sadasivan', position: 'first' });
    expect(work.venue?.name).toBe('PLoS ONE');
    const recorded = loadRecorded('crossref').find((i) => i.url.endsWith('/works/10.1371/journal.pone.0033693'))!;
    const withDoi = ((recorded.body_json as any).message.reference as Array<{ DOI?: string }>).filter(
      (r) => r.DOI,
    ).length;
    expect(work.references).toHaveLength(
      new Set(
        ((recorded.body_json as any).message.reference as Array<{ DOI?: string }>)
          .filter((r) => r.DOI)
          .map((r) => r.DOI!.toLowerCase()),
      ).size,
    );
    expect(withDoi).toBeGreaterThan(50);
    expect(await client.getWork(request(), '10.1371/notarealdoi')).toBeNull();
    await client.close();
  });

  it('Semantic Scholar: offset paging through 1,000+ citations up to a cap', async () => {
    const [server, url] = await replay('semanticscholar');
    const client = new SemanticScholarClient(clientSettings({ S2_BASE_URL: url }), cache(), 'title');
    const citations = await client.citations(request(), 'CorpusID:14514057', 1000);
    expect(server.unmatched).toEqual([]);
    expect(citations).toHaveLength(1000);
    expect(server.requests.filter((r) => r.key.includes('/citations'))).toHaveLength(10);
    const search = await client.searchWorks(request(), 'turing', 150);
    expect(search.length).toBeGreaterThan(100);
    expect(await client.getWork(request(), '10.1093/mind/lix.236.433')).toMatchObject({
      title: 'Computing Machinery and Intelligence',
    });
    await client.close();
  });

  it('OpenAlex: the citation neighbourhood, and cursor paging to the last empty page', async () => {
    const [server, url] = await replay('openalex');
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    const citing = await client.citations(request(), 'W3046863325|W3045921891', 200);
    const cited = await client.references(request(), 'W3046863325|W3045921891', 200);
    expect(citing.length).toBe(5);
    expect(cited.length).toBe(38);
    expect(server.unmatched.filter((key) => !key.includes('cursor=Il'))).toEqual([]);
    const both = await client.filterWorks(request(), 'openalex:W3045921891|W3046863325', 500);
    expect(both.map((w) => w.id).sort()).toEqual(['W3045921891', 'W3046863325']);
    // meta.count says there are 2: no request for the (recorded, empty) next page is needed.
    expect(server.requests.filter((r) => r.key.includes('filter=openalex:'))).toHaveLength(1);
    await client.close();
  });

  it('OpenAlex: follows next_cursor down to the last empty page when the count is unknown', async () => {
    const server = new ReplayServer();
    servers.push(server);
    const url = await server.start();
    const work = (id: string) => ({ id: `https://openalex.org/${id}`, title: id });
    server.script('/works', [
      { status: 200, body: { meta: { count: null, next_cursor: 'page2' }, results: [work('W1'), work('W2')] } },
      { status: 200, body: { meta: { count: null, next_cursor: 'page3' }, results: [work('W3')] } },
      { status: 200, body: { meta: { count: null, next_cursor: null }, results: [] } },
    ]);
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    expect((await client.filterWorks(request(), 'cites:W9', 100)).map((w) => w.id)).toEqual(['W1', 'W2', 'W3']);
    expect(server.requests.map((r) => /cursor=([^&]*)/.exec(r.key)![1])).toEqual(['*', 'page2', 'page3']);
    await client.close();
  });
});

describe('faults injected on purpose', () => {
  let server: ReplayServer;
  let url = '';
  beforeEach(async () => {
    server = new ReplayServer();
    url = await server.start();
  });
  afterEach(() => server.stop());

  it('waits as Retry-After says on 429, then succeeds', async () => {
    server.script('/works/W1', [
      { status: 429, headers: { 'retry-after': '1' }, body: { error: 'slow down' } },
      { status: 200, body: { id: 'https://openalex.org/W1', title: 'One' } },
    ]);
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    const started = Date.now();
    const work = await client.getWork(request(), 'W1');
    expect(work?.title).toBe('One');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
    await client.close();
  });

  it('retries a 500, gives up after the retries with a retryable error', async () => {
    server.script('/works/W2', [
      { status: 500 },
      { status: 200, body: { id: 'https://openalex.org/W2', title: 'Two' } },
    ]);
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    expect((await client.getWork(request(), 'W2'))?.title).toBe('Two');
    server.script('/works/W3', [{ status: 503 }]);
    await expect(client.getWork(request(), 'W3')).rejects.toMatchObject({
      code: 'EXTERNAL_HTTP',
      status: 503,
      retryable: true,
    });
    expect(server.requests.filter((r) => r.key.includes('/works/W3'))).toHaveLength(3);
    await client.close();
  });

  it('times out a hung connection within its bounds', async () => {
    server.script('/works/W4', [{ hang: true }]);
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url, CITEGRAPH_HTTP_RETRIES: '1' }), cache());
    const started = Date.now();
    await expect(client.getWork(request(), 'W4')).rejects.toMatchObject({ code: 'EXTERNAL_TIMEOUT', retryable: true });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(2 * 500);
    expect(elapsed).toBeLessThan(2 * 500 + 2500);
    await client.close();
  });

  it('names a malformed body, and does not retry a 400', async () => {
    server.script('/works/W5', [{ malformed: true }]);
    server.script('/works/W6', [{ status: 400, body: { error: 'Invalid query parameters error.' } }]);
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    await expect(client.getWork(request(), 'W5')).rejects.toMatchObject({
      code: 'EXTERNAL_BAD_RESPONSE',
      retryable: false,
    });
    await expect(client.getWork(request(), 'W6')).rejects.toMatchObject({
      code: 'EXTERNAL_HTTP',
      status: 400,
      retryable: false,
    });
    expect(server.requests.filter((r) => r.key.includes('/works/W6'))).toHaveLength(1);
    server.script('/works/W7', [{ status: 404 }]);
    expect(await client.getWork(request(), 'W7')).toBeNull();
    await client.close();
  });

  it('holds the rate limit and the concurrency limit under concurrent calls', async () => {
    for (let i = 0; i < 12; i += 1)
      server.script(`/works/W10${i}`, [{ status: 200, body: { id: `https://openalex.org/W10${i}` } }]);
    server.delayMs = 150;
    const client = new OpenAlexClient(
      clientSettings({ OPENALEX_BASE_URL: url, OPENALEX_RPS: '10', OPENALEX_CONCURRENCY: '2' }),
      cache(),
    );
    // When the limiter lets each call go: that is the rate the provider sees, whatever the network adds after.
    const starts: number[] = [];
    (client as unknown as { limiter: { on(event: string, listener: () => void): void } }).limiter.on('executing', () =>
      starts.push(performance.now()),
    );
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getWork(request(), `W10${i}`)));
    expect(starts).toHaveLength(12);
    // minTime 100 ms between starts: 10 a second, 11 at a window edge. The limiter schedules on its own clock and the
    // event reaches us a little later, by a delay that varies on a loaded machine, so one gap may read short; the span
    // of 11 gaps may not (without the limiter all 12 start within a few milliseconds).
    expect(starts[starts.length - 1]! - starts[0]!).toBeGreaterThanOrEqual(1000);
    for (const start of starts)
      expect(starts.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(11);
    expect(server.requests).toHaveLength(12);
    expect(server.maxInFlight).toBeLessThanOrEqual(2);
    await client.close();
  });

  it('serves a repeated call from the cache', async () => {
    server.script('/works/W8', [{ status: 200, body: { id: 'https://openalex.org/W8', title: 'Eight' } }]);
    const ctx = request();
    const client = new OpenAlexClient(clientSettings({ OPENALEX_BASE_URL: url }), cache());
    await client.getWork(ctx, 'W8');
    await client.getWork(ctx, 'W8');
    expect(server.requests).toHaveLength(1);
    expect(ctx.ledger.counts().openalex).toMatchObject({ ok: 1, cached: 1 });
    await client.close();
  });
});

describe('merging and writing through to the graph', () => {
  const { app } = createTestContext();
  beforeAll(() => removeCollections(app, ['external']));
  afterAll(async () => {
    await removeCollections(app, ['external']);
    await app.close();
  });

  const openalexWork = () =>
    mapOpenAlexWork(
      JSON.parse(readFileSync(path.join(SHARED_DIR, 'fixtures/openalex/entities-2026/work.json'), 'utf8')),
    );
  const s2Work = () =>
    mapS2Paper({
      paperId: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
      externalIds: { DOI: '10.7717/PEERJ.4375', PubMed: '29456894' },
      title: 'The state of OA: a large-scale analysis of the prevalence and impact of Open Access articles',
      year: 2018,
      citationCount: 9999,
      authors: [{ authorId: '1', name: 'Heather Piwowar' }],
      references: [],
    })!;

  it('merges the same work from two sources by DOI, with the union of identifiers and field provenance', () => {
    const [merged, ...rest] = mergeWorks([s2Work(), openalexWork()]);
    expect(rest).toEqual([]);
    expect(merged!.record.id).toBe('W2741809807');
    expect(merged!.record.ids).toMatchObject({
      openalex: 'W2741809807',
      doi: '10.7717/peerj.4375',
      s2: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
      pmid: '29456894',
    });
    expect(merged!.provenance.title).toBe('openalex');
    expect(merged!.provenance['ids.s2']).toBe('s2');
    expect(merged!.record.citedByCount).toBe(9999);
    expect(merged!.provenance.citedByCount).toBe('s2');
  });

  it('merges by normalised title and year when there is no DOI', () => {
    const a = {
      ...s2Work(),
      doi: null,
      ids: { s2: 'x1' },
      id: 's2:x1',
      title: 'Deep Learning — a Review!',
      year: 2015,
    };
    const b = {
      ...s2Work(),
      doi: null,
      ids: { s2: 'x2' },
      id: 's2:x2',
      title: 'deep learning: a review',
      year: 2016,
      source: 'crossref',
    };
    const c = { ...s2Work(), doi: null, ids: { s2: 'x3' }, id: 's2:x3', title: 'deep learning: a review', year: 2020 };
    expect(mergeWorks([a, b, c])).toHaveLength(2);
  });

  it('writes fetched papers through, idempotently, turning a stub into a full paper', async () => {
    // A cited stub first: some paper cites W2741809807.
    await app.ingest.writeRecords(
      [
        {
          ...s2Work(),
          id: 'doi:10.1000/citing',
          doi: '10.1000/citing',
          ids: { doi: '10.1000/citing' },
          references: ['W2741809807'],
          title: 'A citing paper',
        },
      ],
      { collection: 'external', embed: 'defer' },
    );
    expect((await app.catalog.paperById('W2741809807'))?.stub).toBe(true);
    const [merged] = mergeWorks([openalexWork(), s2Work()]);
    const first = await app.ingest.writeRecords([merged!.record], {
      collection: 'external',
      embed: 'defer',
      fetchedAt: '2026-12-02T00:00:00Z',
    });
    expect(first.papersWritten).toBe(1);
    const paper = await app.catalog.paperById('W2741809807');
    expect(paper).toMatchObject({
      stub: false,
      s2Id: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
      doi: '10.7717/peerj.4375',
      fetchedAt: '2026-12-02T00:00:00Z',
    });
    const before = await app.catalog.stats();
    const again = await app.ingest.writeRecords([merged!.record], {
      collection: 'external',
      embed: 'defer',
      fetchedAt: '2026-12-03T00:00:00Z',
    });
    expect(again.papersUnchanged).toBe(1);
    expect(await app.catalog.stats()).toEqual(before);
    // An S2-only record of the same DOI joins the existing paper instead of duplicating it.
    await app.ingest.writeRecords([s2Work()], { collection: 'external', embed: 'defer' });
    expect((await app.catalog.paperByDoi('10.7717/peerj.4375'))?.id).toBe('W2741809807');
    expect((await app.catalog.stats()).counts.paperNodes).toBe(before.counts.paperNodes);
  });

  it('reports a failing source without failing the fetch', async () => {
    const server = new ReplayServer();
    const url = await server.start();
    server.script('/works/doi:10.7717/peerj.4375', [
      {
        status: 200,
        body: JSON.parse(readFileSync(path.join(SHARED_DIR, 'fixtures/openalex/entities-2026/work.json'), 'utf8')),
      },
    ]);
    server.script('/works/10.7717/peerj.4375', [{ status: 500 }]);
    const fetch = new FetchService(
      clientSettings({ OPENALEX_BASE_URL: url, CROSSREF_BASE_URL: url, CITEGRAPH_HTTP_RETRIES: '1' }),
    );
    const report = await fetch.fetch(request(), { doi: '10.7717/peerj.4375', sources: ['openalex', 'crossref'] });
    expect(report.perSource).toEqual([
      { source: 'openalex', found: 1, error: null },
      { source: 'crossref', found: 0, error: expect.objectContaining({ code: 'EXTERNAL_HTTP', retryable: true }) },
    ]);
    expect(report.merged).toHaveLength(1);
    expect(report.calls).toMatchObject({ openalex: { ok: 1 }, crossref: { retry: 1, error: 1 } });
    // The fetch writes nothing; its caller writes what it keeps.
    const written = await app.ingest.writeFetched(report.merged.map((work) => work.record));
    expect(written.skipped).toEqual([]);
    expect(written.paperIds).toEqual(['W2741809807']);
    await fetch.close();
    await server.stop();
  });
});
