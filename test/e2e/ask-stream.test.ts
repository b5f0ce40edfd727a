import { createClient } from 'graphql-sse';
import { serveGraphQL } from '../../src/api/server';
import type { AppContext } from '../../src/app-context';
import { createTestContext, removeCollections } from '../helpers/context';
import { OpenAiCompatibleServer } from '../helpers/openai-server';
import { writeSearchCorpus } from '../helpers/search-corpus';

/**
 * `askStream` over GraphQL-over-SSE (graphql-sse's client against /graphql/stream): the stages arrive as they finish,
 * the sentences and the result at the end match a plain `ask`, and a client that disconnects stops the work.
 */
const COLLECTION = 'ask-stream';
const QUESTION = 'Does low-dose aspirin prevent myocardial infarction?';
const STREAM = `subscription ($q: String!, $o: AskOptionsInput) {
  askStream(question: $q, options: $o) {
    kind stage ms note route routeReasons
    sufficiency { score band }
    sentence { text citations { marker quote } }
    result { answer abstained sentences { text } cost { llmCalls } }
  }
}`;

interface AskEvent {
  kind: string;
  stage: string;
  route: string | null;
  sufficiency: { score: number } | null;
  sentence: { text: string } | null;
  result: { answer: string; abstained: boolean; sentences: Array<{ text: string }> } | null;
}

async function serve(app: AppContext) {
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  return { stream: url.replace(/\/graphql$/, '/graphql/stream'), stop };
}

describe('streamed answers', () => {
  const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
  let stream = '';
  let stop: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    await removeCollections(app, [COLLECTION]);
    await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: COLLECTION, progress: false });
    ({ stream, stop } = await serve(app));
  });

  afterAll(async () => {
    await stop();
    await removeCollections(app, [COLLECTION]);
    await app.close();
  });

  it('sends the route, each stage, the sufficiency and each sentence before the result, which matches ask', async () => {
    const client = createClient({ url: stream, fetchFn: fetch, retryAttempts: 0 });
    const events: AskEvent[] = [];
    for await (const message of client.iterate<{ askStream: AskEvent }>({
      query: STREAM,
      variables: { q: QUESTION, o: { collections: [COLLECTION] } },
    })) {
      expect(message.errors).toBeUndefined();
      events.push(message.data!.askStream);
    }
    client.dispose();
    const kinds = events.map((e) => e.kind);
    expect(kinds[0]).toBe('STAGE');
    expect(events[0]!.stage).toBe('route');
    expect(kinds[1]).toBe('ROUTE');
    expect(events[1]!.route).toBe('content');
    expect(kinds.at(-1)).toBe('RESULT');
    const stages = events.filter((e) => e.kind === 'STAGE').map((e) => e.stage);
    expect(stages).toEqual(expect.arrayContaining(['route', 'rewrite', 'retrieve', 'relate', 'generate', 'verify']));
    expect(kinds.indexOf('SUFFICIENCY')).toBeGreaterThan(stages.indexOf('retrieve'));
    const result = events.at(-1)!.result!;
    const direct = await app.ask.ask(app.requestContext(), QUESTION, {
      collections: [COLLECTION],
      externalSearch: false,
    });
    expect(result.abstained).toBe(false);
    expect(result.answer).toBe(direct.answer);
    expect(events.filter((e) => e.kind === 'SENTENCE').map((e) => e.sentence!.text)).toEqual(
      direct.sentences.map((s) => s.text),
    );
  });

  it('delivers the first events while the answer is still being worked out', async () => {
    const response = await fetch(stream, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: STREAM, variables: { q: QUESTION, o: { collections: [COLLECTION] } } }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    // Comment lines (":", the stream's keep-alive) may arrive in a read of their own: read up to the first event.
    let first = '';
    while (!/^data:/m.test(first)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      first += new TextDecoder().decode(chunk.value);
    }
    expect(first).toMatch(/"kind":"STAGE"/);
    expect(first).not.toMatch(/"kind":"RESULT"/);
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toMatch(/"kind":"RESULT"/);
    expect(rest).toMatch(/event: complete/);
  });

  it('refuses a query over its limits, or naming an unknown field, before anything runs', async () => {
    const post = (query: string) =>
      fetch(stream, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query }),
      });
    const aliases = Array.from({ length: 25 }, (_, i) => `a${i}: stage`).join(' ');
    // Over SSE a refused operation is one event carrying the errors (GraphQL over HTTP's graceful reporting).
    const tooMany = await (await post(`subscription { askStream(question: "x") { kind ${aliases} } }`)).text();
    expect(tooMany).toMatch(/"errors":\[\{"message":"[^"]*alias/i);
    expect(tooMany).not.toMatch(/"kind"/);
    const unknown = await (await post('subscription { nothing }')).text();
    expect(unknown).toMatch(/Cannot query field \\"nothing\\"/);
  });
});

describe('a client that disconnects', () => {
  const model = new OpenAiCompatibleServer();
  let app: AppContext;
  let stream = '';
  let stop: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    const base = await model.start();
    ({ app } = createTestContext({
      CITEGRAPH_EXTERNAL_SEARCH: 'false',
      OPENAI_BASE_URL: base,
      OPENAI_API_KEY: 'test',
      CITEGRAPH_REQUEST_TIMEOUT_MS: '600000',
    }));
    ({ stream, stop } = await serve(app));
  });

  afterAll(async () => {
    await stop();
    await app.close();
    await model.stop();
  });

  it('stops the work done for it: the pipeline ends at once instead of waiting on the model', async () => {
    // The model never answers: without the disconnect, the ask would wait on it until the 10-minute deadline.
    model.behaviour = { hang: true };
    let running: Promise<unknown> | null = null;
    const original = app.ask.ask.bind(app.ask);
    app.ask.ask = (ctx, question, options) => {
      running = original(ctx, question, options);
      return running as ReturnType<typeof original>;
    };
    const aborter = new AbortController();
    const response = await fetch(stream, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: STREAM, variables: { q: QUESTION } }),
      signal: aborter.signal,
    });
    const reader = response.body!.getReader();
    let seen = '';
    while (!/"kind":"ROUTE"/.test(seen)) seen += new TextDecoder().decode((await reader.read()).value);
    // The rules have routed the question; the LLM classifier now waits on the model. Leave.
    await waitFor(() => model.requests.length > 0);
    aborter.abort();
    await expect(running!).rejects.toMatchObject({ code: 'DEADLINE_EXCEEDED' });
  }, 60_000);
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
