import { ErrorCode } from '../../src/errors';
import { deflateBombPdf, hostileTextDocuments, manyRunsPdf, widePagePdf } from '../../scripts/lib/hostile-documents';
import { startTestServer } from '../helpers/context';

/**
 * The fixed sample of scripts/bench/hostile's reliability cases, against a real server and Neo4j: hostile uploads
 * are read in a bounded process of their own (the server, which is this test's process, would die otherwise), caps
 * hold under concurrent requests, the stream endpoint has the limits and masking of /graphql, and wrong keys are
 * throttled. Each case asserts what the client gets: a JSON answer with a code, never a 5xx.
 */

const KEY = 'front-secret-0123456789';

const start = (env: Record<string, string>) => startTestServer(env);

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });

describe('hostile uploads', () => {
  let server: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    server = await start({ CITEGRAPH_DOCUMENT_MAX_MEMORY_MB: '256', CITEGRAPH_DOCUMENT_SET_MAX_DOCUMENTS: '50' });
  });
  afterAll(() => server.close());

  const upload = (name: string, body: Buffer, path = '/document-sets') =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', 'x-document-name': encodeURIComponent(name) },
      body,
    }).then(json);

  it('reads absurd page sizes, a page of 100,000 runs and parser traps without harm, answering each with JSON', async () => {
    const cases: Array<[string, Buffer]> = [
      ['wide-1e9.pdf', widePagePdf(1e9)],
      ['runs-100k.pdf', manyRunsPdf(100_000)],
      ...hostileTextDocuments().map((doc): [string, Buffer] => [doc.name, doc.bytes]),
    ];
    for (const [name, bytes] of cases) {
      // The health probe answers while the document is read: the reading is not on this event loop.
      const [answer, health] = await Promise.all([
        upload(name, bytes),
        new Promise((resolve) => setTimeout(resolve, 50)).then(() => fetch(`${server.base}/healthz`)),
      ]);
      expect(health.status).toBe(200);
      expect([name, answer.status < 500]).toEqual([name, true]);
      if (answer.status >= 400) expect(answer.body.errors[0].extensions.code).toBe(ErrorCode.BAD_USER_INPUT);
    }
  });

  it('reads every line of the page 1e9 points wide', async () => {
    const answer = await upload('wide.pdf', widePagePdf(1e9));
    expect(answer.status).toBe(201);
    const text: string = (
      await server.app.documentSets.documentTexts([answer.body.document.id]).then((texts) => [...texts.values()])
    )[0]!;
    expect(text).toContain('Left column line 39 of ordinary words.');
    expect(text).toContain('Right column line 39 of other words.');
  });

  it('stops a PDF whose stream inflates past the memory cap, and keeps nothing of it', async () => {
    const bomb = await deflateBombPdf(512 << 20);
    expect(bomb.length).toBeLessThan(5000);
    const answer = await upload('bomb.pdf', bomb);
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].message).toMatch(/more than 256 MB \(CITEGRAPH_DOCUMENT_MAX_MEMORY_MB/);
  });

  it('refuses a multipart form, a bad percent-encoded path and keeps file names safe', async () => {
    const form = await fetch(`${server.base}/document-sets`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'x-document-name': 'a.md' },
      body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n# A\r\n--x--\r\n',
    }).then(json);
    expect(form.status).toBe(415);
    expect(form.body.errors[0].message).toMatch(/multipart/);
    const path = await upload('a.md', Buffer.from('# A\n\ntext'), '/document-sets/%E0%A4%A/documents');
    expect(path.status).toBe(400);
    expect(path.body.errors[0].extensions.code).toBe(ErrorCode.BAD_REQUEST);
    const named = await upload('../../etc/<b>x\r\ny</b>.md', Buffer.from('# Notes\n\nSome text here.'));
    expect(named.status).toBe(201);
    // The last path component of "../../etc/<b>x\r\ny</b>.md" is "b>.md".
    expect(named.body.document.name).toBe('b_.md');
  });
});

describe('caps under concurrent requests', () => {
  let server: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    server = await start({
      CITEGRAPH_API_KEYS: `capper:read:${KEY}`,
      CITEGRAPH_DOCUMENT_SET_MAX_SETS: '3',
      CITEGRAPH_DOCUMENT_SET_MAX_DOCUMENTS: '4',
    });
  });
  afterAll(() => server.close());

  const gql = (query: string) =>
    fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ query }),
    }).then(json);

  it('never lets one key hold more live sets or documents than its cap', async () => {
    const created = await Promise.all(Array.from({ length: 30 }, () => gql('mutation { createDocumentSet { id } }')));
    const ids = created.filter((r) => r.body.data?.createDocumentSet).map((r) => r.body.data.createDocumentSet.id);
    expect(ids).toHaveLength(3);
    expect(created.every((r) => r.status < 500)).toBe(true);
    const listed = await gql('{ documentSets { id } }');
    expect(listed.body.data.documentSets).toHaveLength(3);

    const uploads = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        fetch(`${server.base}/document-sets/${ids[0]}/documents`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'x-document-name': `note-${i}.md` },
          body: `# Note ${i}\n\nA short note number ${i} about aspirin.`,
        }).then(json),
      ),
    );
    expect(uploads.every((r) => r.status < 500)).toBe(true);
    expect(uploads.filter((r) => r.status === 200)).toHaveLength(4);
    const set = await gql(`{ documentSet(id: "${ids[0]}") { documents { id } } }`);
    expect(set.body.data.documentSet.documents).toHaveLength(4);
  });

  it('throttles an address that keeps sending wrong keys', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const response = await fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer guess-${i}` },
        body: JSON.stringify({ query: '{ health { ok } }' }),
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 2)).toEqual([401, 401]);
    expect(statuses).toContain(429);
  });
});

describe('the stream endpoint', () => {
  let server: Awaited<ReturnType<typeof start>>;

  beforeAll(async () => {
    server = await start({ CITEGRAPH_MAX_BODY_BYTES: '30000', CITEGRAPH_MAX_COST: '1000' });
  });
  afterAll(() => server.close());

  const post = (body: string) =>
    fetch(`${server.base}/graphql/stream`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
    });

  it('refuses a body over the limit before reading it whole', async () => {
    const answer = await post(
      JSON.stringify({ query: `subscription { askStream(question: "${'x'.repeat(50_000)}") { kind } }` }),
    );
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as any).errors[0].extensions.code).toBe(ErrorCode.BAD_REQUEST);
  });

  it('applies the cost and token limits of /graphql', async () => {
    const costly = await (
      await post(
        JSON.stringify({
          query: 'subscription { askStream(question: "aspirin") { kind result { answer } } }',
        }),
      )
    ).text();
    expect(costly).toMatch(/"code":"QUERY_TOO_COMPLEX"/);
    expect(costly).not.toMatch(/"kind":/);
    const fields = Array.from({ length: 4000 }, () => 'kind').join(' ');
    const long = await (
      await post(JSON.stringify({ query: `subscription { askStream(question: "x") { ${fields} } }` }))
    ).text();
    expect(long).toMatch(/"code":"QUERY_TOO_COMPLEX"/);
  });

  it('starts a GET only with a header no other site can make a browser send', async () => {
    const query = encodeURIComponent('subscription { askStream(question: "x") { kind } }');
    const bare = await fetch(`${server.base}/graphql/stream?query=${query}`, {
      headers: { accept: 'text/event-stream' },
    });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as any).errors[0].message).toMatch(/apollo-require-preflight/);
  });
});
