import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSettings } from '../../src/config/settings';
import { OpenAiCompatibleClient } from '../../src/generation/llm';
import { createAppContext, type AppContext } from '../../src/app-context';
import { MemoryLogger } from '../../src/logger';
import { removeCollections } from '../helpers/context';
import { OpenAiCompatibleServer } from '../helpers/openai-server';
import { writeSearchCorpus } from '../helpers/search-corpus';
import { ingestWorks } from '../helpers/openalex-corpus';

const model = new OpenAiCompatibleServer();
let baseUrl = '';

beforeAll(async () => {
  baseUrl = await model.start();
});
afterAll(() => model.stop());

function client(timeoutMs = 2000) {
  return new OpenAiCompatibleClient(
    loadSettings({
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'test-key',
      CITEGRAPH_LLM_MODEL: 'local-model',
      CITEGRAPH_LLM_TIMEOUT_MS: String(timeoutMs),
    }).generation,
  );
}

describe('the OpenAI-compatible provider against a local server', () => {
  it('sends the model and messages and returns the text and token usage', async () => {
    model.behaviour = {
      reply: (messages) => `echo: ${messages[messages.length - 1]!.content}`,
      promptTokens: 42,
      completionTokens: 7,
    };
    const result = await client().chat([{ role: 'user', content: 'hello' }], { json: true });
    expect(result).toEqual({ text: 'echo: hello', promptTokens: 42, completionTokens: 7 });
    expect(model.requests[model.requests.length - 1]).toMatchObject({
      model: 'local-model',
      response_format: { type: 'json_object' },
    });
  });

  it('turns a server error into a retryable LLM_ERROR', async () => {
    model.behaviour = { status: 500, error: 'boom' };
    await expect(client().chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_ERROR',
      retryable: true,
    });
    model.behaviour = { status: 400, error: 'bad request' };
    await expect(client().chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_ERROR',
      retryable: false,
    });
  });

  it('times out', async () => {
    // The server never answers: only the client's own 300 ms timeout can end the call (jest's test timeout fails a call
    // that never ends; no stopwatch — a wall-time bound fails on a loaded machine). Under jest's test environment the
    // SDK (openai 6.30.1) reports this timeout as APIConnectionError "Connection error."; the same call under plain
    // Node gives APIConnectionTimeoutError ("LLM call failed: timed out"). Both are retryable.
    model.behaviour = { hang: true };
    await expect(client(300).chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_ERROR',
      retryable: true,
    });
  });

  it('reports malformed output', async () => {
    model.behaviour = { malformed: true };
    await expect(client().chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({ code: 'LLM_ERROR' });
  });
});

/** An app whose LLM is the local server, offline otherwise, on an empty graph holding the search corpus. */
async function appWithLlm(collection: string): Promise<AppContext> {
  const app = createAppContext({
    settings: loadSettings({
      ...process.env,
      OPENAI_BASE_URL: baseUrl,
      OPENAI_API_KEY: 'k',
      CITEGRAPH_EXTERNAL_SEARCH: 'false',
    }),
    logger: new MemoryLogger(),
  });
  await removeCollections(app, [collection]);
  await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection, progress: false });
  return app;
}

describe('ask with an LLM', () => {
  let app: AppContext;
  beforeAll(async () => {
    app = await appWithLlm('ask-llm');
  });
  afterAll(async () => {
    await removeCollections(app, ['ask-llm']);
    await app.close();
  });

  it('routes, rewrites, generates with citations, verifies them, and counts tokens', async () => {
    model.behaviour = {
      reply: (messages) => {
        const system = messages[0]!.content;
        if (system.startsWith('Classify')) return '{"route": "content"}';
        if (system.startsWith('Rewrite'))
          return '{"rewrite": "low-dose aspirin myocardial infarction prevention", "subQueries": ["aspirin bleeding risk", "Fakename 2031 megatrial"]}';
        const evidence = messages[1]!.content;
        const label = /\[(E\d+)\] \(Low-dose aspirin/.exec(evidence)?.[1] ?? 'E1';
        return `Low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent [${label}]. Aspirin also cures baldness [${label}]. This is supported by [E99].`;
      },
    };
    const result = await app.ask.ask(app.requestContext(), 'Does low-dose aspirin prevent myocardial infarction?', {
      collections: ['ask-llm'],
    });
    expect(result.route).toBe('content');
    expect(result.routeReasons[0]).toMatch(/LLM classifier/);
    expect(result.subQueries.map((s) => s.text)).not.toContain('Fakename 2031 megatrial');
    expect(result.generator).toBe('llm');
    expect(result.abstained).toBe(false);
    expect(result.sentences).toHaveLength(1);
    const citation = result.sentences[0]!.citations[0]!;
    expect(citation).toMatchObject({ marker: 1, paper: { id: 'W901' }, method: 'normalised' });
    expect(citation.quote.toLowerCase()).toBe(
      'low-dose aspirin reduced the risk of a first myocardial infarction by 44 percent',
    );
    expect(result.droppedSentences.map((d) => d.text)).toEqual([
      'Aspirin also cures baldness.',
      'This is supported by.',
    ]);
    expect(result.cost.llmCalls).toBe(3);
    expect(result.cost.promptTokens).toBeGreaterThan(0);
    expect(result.cost.estimatedUsd).toBeGreaterThan(0);
  });

  it("takes the LLM's analytics plan when it checks out, and keeps the rules' plan when it does not", async () => {
    const plans: string[] = [];
    model.behaviour = {
      reply: (messages) => {
        const system = messages[0]!.content;
        if (system.startsWith('Classify')) return '{"route": "bibliometric"}';
        if (system.startsWith('Rewrite')) return '{"rewrite": "prevention", "subQueries": []}';
        if (system.startsWith('Turn the')) return plans.shift() ?? '{}';
        return '{}';
      },
    };
    const base = {
      topic: 'prevention',
      person: null,
      paper: null,
      relation: null,
      yearFrom: null,
      yearTo: null,
      venue: null,
      citationBasis: 'internal',
    };
    // A valid plan (top venues instead of the rules' top papers) is taken and carried out.
    plans.push(JSON.stringify({ ...base, operation: 'top_venues' }));
    const taken = await app.ask.ask(app.requestContext(), 'What is written about prevention?', {
      collections: ['ask-llm'],
    });
    expect(taken.plan).toMatchObject({ operation: 'top_venues', topic: 'prevention', source: 'llm' });
    expect(taken.answer).toMatch(/counted by venue/);
    // A plan naming a person the question does not name, or one the schema refuses, leaves the rules' plan.
    plans.push(JSON.stringify({ ...base, operation: 'author_metrics', topic: null, person: 'Invented Person' }));
    const invented = await app.ask.ask(app.requestContext(), 'What is written about prevention?', {
      collections: ['ask-llm'],
    });
    expect(invented.plan).toMatchObject({ source: 'rules', person: null });
    plans.push(JSON.stringify({ ...base, operation: 'drop_everything' }));
    const refused = await app.ask.ask(app.requestContext(), 'What is written about prevention?', {
      collections: ['ask-llm'],
    });
    expect(refused.plan).toMatchObject({ source: 'rules' });
  });

  it('falls back to extractive generation when the LLM fails', async () => {
    model.behaviour = { status: 503, error: 'overloaded' };
    const result = await app.ask.ask(app.requestContext(), 'Does low-dose aspirin prevent myocardial infarction?', {
      collections: ['ask-llm'],
    });
    expect(result.generator).toBe('extractive');
    expect(result.abstained).toBe(false);
    // Every LLM stage failed soft and said so: the rules routed, the offline rewrite stood, the extractive generator wrote.
    expect(result.routeReasons.join(' ')).toMatch(/LLM classifier failed: LLM call failed/);
    expect(result.trace.find((t) => t.stage === 'rewrite_llm')?.note).toMatch(/^failed: LLM call failed/);
    expect(
      result.trace.find((t) => t.stage === 'generate' && /LLM failed, extractive instead/.test(t.note)),
    ).toBeDefined();
    expect(result.cost.llmCalls).toBe(0);
  });
});

/** Four papers on platelet inhibitors citing one trial (W9850): a research front of four for a report. */
const PLATELET_WORKS = [
  {
    id: 'W9850',
    year: 1995,
    title: 'A trial of platelet inhibitors after infarction',
    abstract: 'Platelet inhibitors given after a first infarction were compared with placebo.',
  },
  {
    id: 'W9851',
    year: 2016,
    title: 'Stopping platelet inhibitors and heart attacks',
    abstract:
      'Patients who discontinued platelet inhibitors had a higher rate of heart attacks in the following year than patients who continued treatment.',
    refs: ['W9850'],
  },
  {
    id: 'W9852',
    year: 2017,
    title: 'Platelet inhibitors and bleeding',
    abstract: 'Major bleeding was more frequent with dual platelet inhibitors than with a single drug.',
    refs: ['W9850'],
  },
  {
    id: 'W9853',
    year: 2019,
    title: 'Platelet inhibitors in coronary disease',
    abstract:
      'Ticagrelor reduced cardiovascular death more than clopidogrel among platelet inhibitors in coronary disease.',
    refs: ['W9850', 'W9851'],
  },
  {
    id: 'W9854',
    year: 2020,
    title: 'Platelet inhibitors after stenting',
    abstract: 'Six months of platelet inhibitors after stenting were as safe as twelve months.',
    refs: ['W9850', 'W9852'],
  },
];

describe('a report written by an LLM in two stages', () => {
  let app: AppContext;
  beforeAll(async () => {
    app = await appWithLlm('report-llm');
    await ingestWorks(app, 'report-llm', PLATELET_WORKS);
  });
  afterAll(async () => {
    await removeCollections(app, ['report-llm']);
    await app.close();
  });

  it('attributes each drafted sentence to a passage and verifies it; what no passage supports is dropped and listed', async () => {
    model.behaviour = {
      reply: (messages) =>
        messages[0]!.content.startsWith('You write one paragraph')
          ? 'Patients who stopped platelet inhibitors had more heart attacks in the following year than those who continued. Platelet inhibitors cure baldness in most adults.'
          : '{}',
    };
    const report = await app.reports.report(
      'platelet inhibitors',
      { collections: ['report-llm'] },
      { ctx: app.requestContext() },
    );
    const fronts = report.sections.filter((s) => s.kind === 'front');
    expect(fronts.length).toBeGreaterThan(0);
    expect(report.generator).toBe('llm');
    const written = fronts.find((s) => s.generator === 'llm')!;
    const cited = written.sentences.filter((s) => s.kind === 'cited');
    expect(cited.map((s) => s.text)).toEqual([
      'Patients who stopped platelet inhibitors had more heart attacks in the following year than those who continued.',
    ]);
    const citation = cited[0]!.citations[0]!;
    expect(citation.paperId).toBe('W9851');
    const abstract = PLATELET_WORKS.find((p) => p.id === 'W9851')!.abstract;
    expect(abstract.slice(citation.start, citation.end)).toBe(citation.quote);
    expect(report.dropped).toContainEqual({
      section: written.title,
      text: 'Platelet inhibitors cure baldness in most adults.',
      reason: expect.stringMatching(/^LLM: no cited passage supports it/),
    });
    // An LLM that fails leaves the front to the extractive generator.
    model.behaviour = { status: 503, error: 'overloaded' };
    const fallback = await app.reports.report(
      'platelet inhibitors',
      { collections: ['report-llm'] },
      { ctx: app.requestContext() },
    );
    expect(fallback.generator).toBe('extractive');
    expect(fallback.sections.filter((s) => s.kind === 'front').every((s) => s.generator === 'extractive')).toBe(true);
  });
});

describe('the cost of an answer', () => {
  let app: AppContext;
  let providers: http.Server;
  const providerRequests: string[] = [];
  beforeAll(async () => {
    // The three scholarly APIs, answering every search with nothing found (their real empty shapes).
    providers = http.createServer((request, response) => {
      providerRequests.push(request.url ?? '');
      const url = request.url ?? '';
      const body =
        url.startsWith('/works?') && url.includes('filter=')
          ? { results: [], meta: { count: 0, next_cursor: null } }
          : url.startsWith('/works')
            ? { message: { items: [] } }
            : { data: [], total: 0 };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => providers.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(providers.address() as AddressInfo).port}`;
    app = createAppContext({
      settings: loadSettings({
        ...process.env,
        OPENAI_BASE_URL: baseUrl,
        OPENAI_API_KEY: 'k',
        OPENALEX_BASE_URL: base,
        CROSSREF_BASE_URL: base,
        S2_BASE_URL: base,
        CITEGRAPH_HTTP_RETRIES: '0',
      }),
      logger: new MemoryLogger(),
    });
    await removeCollections(app, ['ask-cost']);
    await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: 'ask-cost', progress: false });
  });
  afterAll(async () => {
    await removeCollections(app, ['ask-cost']);
    await app.close();
    providers.closeAllConnections();
    await new Promise<void>((resolve) => providers.close(() => resolve()));
  });

  const replies = (messages: Array<{ role: string; content: string }>) => {
    const system = messages[0]!.content;
    if (system.startsWith('Classify')) return '{"route": "content"}';
    if (system.startsWith('Rewrite')) return '{"rewrite": "zinc common cold duration", "subQueries": []}';
    if (system.startsWith('List up to')) return '{"terms": ["rhinovirus", "lozenges"]}';
    if (system.startsWith('Which of these')) return '{"keep": []}';
    return 'Nothing in the evidence answers this [E1].';
  };

  it("counts every LLM call of an answer, the retry's query expansion included", async () => {
    model.behaviour = { reply: replies };
    const before = model.requests.length;
    const result = await app.ask.ask(app.requestContext(), 'Does zinc supplementation shorten the common cold?', {
      collections: ['ask-cost'],
      externalSearch: false,
    });
    const sent = model.requests.slice(before);
    expect(result.trace.map((t) => t.stage)).toContain('retry');
    expect(sent.some((request) => /Do not answer the question/.test(request.messages[0]!.content))).toBe(true);
    expect(result.cost.llmCalls).toBe(sent.length);
  });

  it('gives two answers computed at once in one request each only its own calls', async () => {
    model.behaviour = { reply: replies };
    const request = app.requestContext();
    const apiBefore = providerRequests.length;
    const llmBefore = model.requests.length;
    const [outside, inside] = await Promise.all([
      app.ask.ask(request, 'Does zinc supplementation shorten the common cold?', { collections: ['ask-cost'] }),
      app.ask.ask(request, 'Does sleep deprivation impair memory consolidation?', {
        collections: ['ask-cost'],
        externalSearch: false,
        useLlm: false,
      }),
    ]);
    const apiCalls = providerRequests.length - apiBefore;
    expect(apiCalls).toBeGreaterThan(0);
    expect(outside.externalSearches.length).toBeGreaterThan(0);
    expect(outside.cost.apiCalls.reduce((sum, entry) => sum + entry.calls, 0)).toBe(apiCalls);
    expect(inside.cost.apiCalls).toEqual([]);
    expect(inside.cost.llmCalls).toBe(0);
    expect(outside.cost.llmCalls).toBe(model.requests.length - llmBefore);
    // The request as a whole saw both.
    expect(request.ledger.requests().reduce((sum, entry) => sum + entry.calls, 0)).toBe(apiCalls);
    expect(request.meter.calls).toBe(outside.cost.llmCalls);
  });
});

describe('retrieval with an LLM', () => {
  let app: AppContext;
  beforeAll(async () => {
    app = await appWithLlm('llm-retrieval');
  });
  afterAll(async () => {
    await removeCollections(app, ['llm-retrieval']);
    await app.close();
  });

  it('takes expansion candidates from the LLM, kept only if the corpus validates them', async () => {
    model.behaviour = { reply: () => '{"terms": ["antiplatelet", "heart attack", "unicornium", "aspirin"]}' };
    const response = await app.search.search(
      app.requestContext(),
      'aspirin',
      5,
      { collections: ['llm-retrieval'] },
      { expansion: true, expansionTau: 0.5 },
    );
    expect(response.trace.expansionSource).toBe('llm');
    expect(response.trace.expansionCandidates).toEqual(
      expect.arrayContaining(['antiplatelet', 'heart', 'attack', 'unicornium']),
    );
    expect(response.trace.expansionTerms).toContain('antiplatelet');
    expect(response.trace.expansionTerms).not.toContain('unicornium');
    const last = model.requests[model.requests.length - 1]!;
    expect(last.messages[0]!.content).toMatch(/Do not answer the question/);
  });

  it('falls back to pseudo-relevance feedback when the LLM fails', async () => {
    model.behaviour = { status: 500, error: 'down' };
    const response = await app.search.search(
      app.requestContext(),
      'aspirin',
      5,
      { collections: ['llm-retrieval'] },
      { expansion: true, expansionTau: 0.5 },
    );
    expect(response.trace.expansionSource).toBe('feedback');
  });

  it('enriches papers with LLM vocabulary that passes the document-frequency check', async () => {
    const { enrichPapers } = await import('../../src/retrieval/enrichment');
    model.behaviour = {
      reply: (messages) =>
        /Sleep deprivation/.test(messages[1]!.content)
          ? '{"terms": ["memory", "insomnia", "zzzqword"]}'
          : '{"terms": []}',
    };
    await enrichPapers(app.executor, ['llm-retrieval'], { tau: 0.5, maxTerms: 10, minSupport: 2 }, app.llm);
    const paper = await app.catalog.paperById('W904');
    // "memory" is in the corpus (W905) but not in W904's own text; "zzzqword" is in no document; "insomnia" neither.
    expect(String(paper!.enrichment ?? '')).toBe('');
    model.behaviour = {
      reply: (messages) =>
        /Rodent object recognition/.test(messages[1]!.content) ? '{"terms": ["sleep", "zzzqword"]}' : '{"terms": []}',
    };
    await enrichPapers(app.executor, ['llm-retrieval'], { tau: 0.5, maxTerms: 10, minSupport: 2 }, app.llm);
    expect((await app.catalog.paperById('W905'))!.enrichment).toBe('sleep');
  });
});
