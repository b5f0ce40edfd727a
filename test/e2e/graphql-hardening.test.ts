import { serveGraphQL } from '../../src/api/server';
import {
  argumentCases,
  documentCases,
  httpCases,
  outcomeOf,
  streamAndUploadCases,
} from '../../scripts/lib/hostile-inputs';
import { createTestContext, removeCollections } from '../helpers/context';
import { SEARCH_CORPUS, writeSearchCorpus } from '../helpers/search-corpus';

/** A server of its own settings on the test database, with a client that sees status, headers and raw body. */
async function start(env: Record<string, string> = {}) {
  const { app } = createTestContext({
    CITEGRAPH_EXTERNAL_SEARCH: 'false',
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
    ...env,
  });
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  const send = async (
    body: unknown,
    init: { headers?: Record<string, string>; raw?: string; method?: string } = {},
  ) => {
    const response = await fetch(url, {
      method: init.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...init.headers },
      ...(init.method === 'GET' ? {} : { body: init.raw ?? JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the assertion that follows says so
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  const gql = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    send({ query, variables }, { headers });
  return {
    app,
    url,
    send,
    gql,
    close: async () => {
      await stop();
      await app.close();
    },
  };
}

type Server = Awaited<ReturnType<typeof start>>;
let server: Server;
const OWN = ['hardening'];

beforeAll(async () => {
  server = await start();
  await removeCollections(server.app, OWN);
  await server.app.ingest.ingestFiles([writeSearchCorpus()], {
    embed: 'now',
    collection: 'hardening',
    progress: false,
  });
});
afterAll(async () => {
  await removeCollections(server.app, OWN);
  await server.close();
});

const codeOf = (result: { json: any }) => result.json?.errors?.[0]?.extensions?.code;

/** Every error response of this suite must leak nothing internal and stay small. */
function expectClean(result: { status: number; text: string }): void {
  expect(result.status).toBeLessThan(500);
  expect(result.text.length).toBeLessThan(64 * 1024);
  expect(result.text).not.toMatch(/stacktrace|\/work\/|node_modules|Neo\.ClientError|at .*\.js:\d+/);
}

describe('cost control before execution', () => {
  it('rejects a deep nested traversal before any of it runs, with its cost and the limit', async () => {
    const before = server.app.executor.statementsRun;
    const result = await server.gql(`{ author(id: "A901") { works(first: 200) { edges { node { authors { author {
      works(first: 200) { edges { node { authors { author { works(first: 200) { edges { node { id } } } } } } } } } } } } } } }`);
    expect(codeOf(result)).toBe('QUERY_TOO_COMPLEX');
    expectClean(result);
    expect(server.app.executor.statementsRun).toBe(before);
  });

  it('rejects twenty maximal searches in one request, saying the cost and the limit', async () => {
    const one = (i: number) =>
      `s${i}: search(query: "aspirin", first: 200, options: { candidates: 1000, pagerank: true, mmr: true }) { results { paper { id title authors { author { name } } } } }`;
    const result = await server.gql(`{ ${Array.from({ length: 20 }, (_, i) => one(i)).join(' ')} }`);
    expect(codeOf(result)).toBe('QUERY_TOO_COMPLEX');
    const error = result.json.errors[0];
    expect(error.extensions.cost).toBeGreaterThan(error.extensions.limit);
    expect(error.extensions.limit).toBe(server.app.settings.api.maxCost);
    // It says where the cost comes from: each costliest field by its response key, and the page size that multiplies it.
    expect(error.message).toMatch(/; costliest: s0 \d+ \(200 items × \d+\), s1 \d+ \(200 items × \d+\)/);
    expect(error.extensions.costliest[0]).toMatchObject({ path: 's0', items: 200 });
  });

  it('rejects too many aliases and oversized documents', async () => {
    const aliases = await server.gql(`{ ${Array.from({ length: 100 }, (_, i) => `h${i}: health { ok }`).join(' ')} }`);
    expect(codeOf(aliases)).toBe('QUERY_TOO_COMPLEX');
    const tokens = await server.gql(`{ health { ${Array.from({ length: 4000 }, () => 'ok').join(' ')} } }`);
    expect(codeOf(tokens)).toBe('QUERY_TOO_COMPLEX');
    expectClean(tokens);
  });

  it('keeps ordinary queries, the documented examples among them, within the limits', async () => {
    const result =
      await server.gql(`{ papers(first: 20, filter: { collections: ["hardening"] }) { totalCount edges { node {
      id title authors { author { name } } topics(first: 5) { topic { name } } references(first: 10) { edges { node { id } } }
      chunks(first: 5) { edges { node { text } } } } } } }`);
    expect(result.json.errors).toBeUndefined();
    expect(result.json.data.papers.totalCount).toBe(SEARCH_CORPUS.length);
  });
});

describe('input contracts at the edge', () => {
  it('names the argument of a bad number or cursor, before any Cypher runs', async () => {
    const before = server.app.executor.statementsRun;
    const negative = await server.gql('{ papers(first: -1) { totalCount } }');
    expect(negative.json.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'first' } });
    const forged = Buffer.from('offset:99999999999').toString('base64url');
    const cursor = await server.gql(`{ papers(after: "${forged}") { totalCount } }`);
    expect(cursor.json.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'after' } });
    const topics = await server.gql('{ author(id: "A901") { mainTopics(first: 3, minLevel: -1) { papers } } }');
    expect(codeOf(topics)).toBe('BAD_USER_INPUT');
    const years = await server.gql('{ trends(topics: ["C901"], from: -5, to: 2000) { series { total } } }');
    expect(years.json.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', argument: 'from' } });
    expect(server.app.executor.statementsRun - before).toBeLessThanOrEqual(2); // the author lookup only
  });

  it('quotes at most a little of a huge input, and shows no internals', async () => {
    const huge = 'x'.repeat(600_000);
    const result = await server.gql('query ($d: String) { paper(doi: $d) { id } }', { d: huge });
    expect(codeOf(result)).toBe('BAD_USER_INPUT');
    expect(result.json.errors[0].message.length).toBeLessThanOrEqual(300);
    expectClean(result);
  });

  it('answers malformed, oversized and unsupported requests with JSON errors', async () => {
    const malformed = await server.send(null, { raw: '{"query": "{ health { ok } ' });
    expect(malformed.status).toBe(400);
    expect(codeOf(malformed)).toBe('BAD_REQUEST');
    const oversized = await server.send(null, {
      raw: JSON.stringify({ query: `{ health { ok } } # ${'y'.repeat(1_100_000)}` }),
    });
    expect(oversized.status).toBe(413);
    expect(codeOf(oversized)).toBe('BAD_REQUEST');
    // The schema has no subscriptions: an operation of a type it lacks fails validation.
    const mutation = await server.gql('subscription { __typename }');
    expect(mutation.status).toBe(400);
    expect(codeOf(mutation)).toBe('GRAPHQL_VALIDATION_FAILED');
    const batched = await server.send([{ query: '{ health { ok } }' }, { query: '{ health { ok } }' }]);
    expect(batched.status).toBe(400);
    for (const result of [malformed, oversized, mutation, batched]) expectClean(result);
  });

  it('does not expose the database address or CORS to anyone by default', async () => {
    const result = await server.gql(
      '{ health { ok database databaseReachable } }',
      {},
      { origin: 'https://evil.example' },
    );
    expect(result.json.data.health).toEqual({
      ok: true,
      database: expect.stringMatching(/^(embedded|external)$/),
      databaseReachable: true,
    });
    expect(result.text).not.toMatch(/bolt:|neo4j:\/\//);
    expect(result.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('bounded work', () => {
  it('turns heavy work away with OVERLOADED and a retry hint when its lane and queue are full', async () => {
    const busy = await start({ CITEGRAPH_ASK_CONCURRENCY: '1', CITEGRAPH_QUEUE_LENGTH: '0' });
    try {
      const ask = () =>
        busy.gql(
          '{ ask(question: "Does low-dose aspirin prevent myocardial infarction?", options: { collections: ["hardening"] }) { abstained } }',
        );
      const results = await Promise.all([ask(), ask(), ask()]);
      const codes = results.map(codeOf);
      expect(codes.filter((code) => code === undefined).length).toBeGreaterThanOrEqual(1);
      const overloaded = results.find((result) => codeOf(result) === 'OVERLOADED');
      expect(overloaded?.json.errors[0].extensions).toMatchObject({
        retryable: true,
        retryAfterSeconds: expect.any(Number),
      });
      // A cheap read does not wait in that lane.
      expect((await busy.gql('{ health { ok } }')).json.data.health.ok).toBe(true);
    } finally {
      await busy.close();
    }
  });

  it('stops a request at its deadline with DEADLINE_EXCEEDED', async () => {
    const hurried = await start({ CITEGRAPH_REQUEST_TIMEOUT_MS: '100' });
    try {
      const result = await hurried.gql(
        '{ ask(question: "Does low-dose aspirin prevent myocardial infarction?", options: { collections: ["hardening"] }) { abstained } }',
      );
      expect(result.json.errors[0].extensions).toMatchObject({ code: 'DEADLINE_EXCEEDED', retryable: true });
      expectClean(result);
    } finally {
      await hurried.close();
    }
  });
});

describe('access', () => {
  const reader = 'reader:read:0123456789abcdef-read';
  it("asks for a key when keys are configured, and limits each key's rate", async () => {
    const guarded = await start({ CITEGRAPH_API_KEYS: reader, CITEGRAPH_RATE_LIMIT: '20' });
    try {
      const none = await guarded.gql('{ health { ok } }');
      expect(none.status).toBe(401);
      expect(codeOf(none)).toBe('UNAUTHENTICATED');
      const wrong = await guarded.gql('{ health { ok } }', {}, { authorization: 'Bearer not-the-key-at-all' });
      expect(wrong.status).toBe(401);
      const ok = await guarded.gql('{ health { ok } }', {}, { authorization: 'Bearer 0123456789abcdef-read' });
      expect(ok.json.data.health.ok).toBe(true);
      // 20 a minute, bursts of 2: the third request at once is refused with a retry hint.
      await guarded.gql('{ health { ok } }', {}, { 'x-api-key': '0123456789abcdef-read' });
      const limited = await guarded.gql('{ health { ok } }', {}, { 'x-api-key': '0123456789abcdef-read' });
      expect(limited.status).toBe(429);
      expect(codeOf(limited)).toBe('RATE_LIMITED');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await guarded.close();
    }
  });

  it('refuses to listen beyond loopback without keys, unless anonymous use is allowed', async () => {
    const { app } = createTestContext({ CITEGRAPH_HOST: '0.0.0.0' });
    try {
      await expect(serveGraphQL(app, 0, '0.0.0.0')).rejects.toThrow(/CITEGRAPH_API_KEYS/);
    } finally {
      await app.close();
    }
  });

  it('answers browsers of listed origins only, and introspection only when allowed', async () => {
    const listed = await start({ CITEGRAPH_CORS_ORIGINS: 'https://lab.example', CITEGRAPH_INTROSPECTION: 'false' });
    try {
      const allowed = await listed.gql('{ health { ok } }', {}, { origin: 'https://lab.example' });
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://lab.example');
      const other = await listed.gql('{ health { ok } }', {}, { origin: 'https://other.example' });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      const introspection = await listed.gql('{ __schema { types { name } } }');
      expect(codeOf(introspection)).toBe('GRAPHQL_VALIDATION_FAILED');
    } finally {
      await listed.close();
    }
  });
});

describe('hostile inputs (a fixed sample of scripts/bench/hostile)', () => {
  it('answers every one without a 5xx, internals, a huge error, or a database error, and changes nothing', async () => {
    const samples = { paperId: 'W903', authorId: 'A901', topicId: 'C901' };
    // Every document and HTTP case, and every 15th argument case: each argument kind of the schema is reached.
    const cases = [
      ...documentCases(samples),
      ...streamAndUploadCases(),
      ...httpCases(),
      ...argumentCases(samples).filter((_, index) => index % 15 === 0),
    ];
    expect(cases.length).toBeGreaterThan(200);
    const hostile = await start({ CITEGRAPH_RATE_LIMIT: '1000000' });
    try {
      const stats = () =>
        hostile.gql('{ stats { papers authors chunks citesBetweenPapers relationships { type count } } }');
      const before = (await stats()).text;
      const problems: string[] = [];
      const outcomes = new Set<string>();
      for (const item of cases) {
        const target = new URL(hostile.url);
        if (item.path) target.pathname = item.path;
        if (item.search) target.search = item.search;
        const method = item.method ?? 'POST';
        const response = await fetch(target, {
          method,
          headers: { 'content-type': item.contentType ?? 'application/json', ...item.headers },
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: item.raw ?? JSON.stringify(item.body) }),
        });
        const result = outcomeOf(response.status, await response.text(), method);
        if (item.expect && !result.outcome.split('+').includes(item.expect)) {
          result.problems.push(`expected ${item.expect}, got ${result.outcome}`);
        }
        outcomes.add(result.outcome);
        problems.push(...result.problems.map((problem) => `${item.name}: ${problem}`));
      }
      expect(problems).toEqual([]);
      // The sample reaches the rejections it is meant to reach, not only successes.
      expect([...outcomes]).toEqual(
        expect.arrayContaining(['ok', 'BAD_USER_INPUT', 'BAD_REQUEST', 'QUERY_TOO_COMPLEX', 'GRAPHQL_PARSE_FAILED']),
      );
      expect((await stats()).text).toBe(before);
    } finally {
      await hostile.close();
    }
  });
});
