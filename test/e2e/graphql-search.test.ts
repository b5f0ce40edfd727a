import { serveGraphQL } from '../../src/api/server';
import { postGraphql } from '../helpers/graphql-client';
import { createTestContext, removeCollections, startTestServer } from '../helpers/context';
import { writeSearchCorpus } from '../helpers/search-corpus';

const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

const gql = (query: string, variables: Record<string, unknown> = {}): Promise<any> =>
  postGraphql(url, query, variables);

const SEARCH = `query ($q: String!, $first: Int, $filter: WorkFilter, $options: SearchOptionsInput) {
  search(query: $q, first: $first, filter: $filter, options: $options) {
    results { rank score paper { id title year } passages { chunkId text start end score }
              trace { sparse { rank score } dense { rank score } fusedScore fusedRank finalScore moves { stage from to } citation { direct boost } } }
    trace { query luceneQuery expansionTerms options { denseWeight sparseWeight rrfK expansion mmr } timings { stage ms } sparseHits denseHits fusedHits }
  } }`;

beforeAll(async () => {
  await removeCollections(app, ['search-corpus']);
  await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: 'search-corpus', progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

describe('the cost of a page of results', () => {
  it('fetches the authors, venues and topics of a whole page in one query each (batched)', async () => {
    const search = (fields: string) =>
      gql(
        `query ($q: String!) { search(query: $q, first: 6, filter: { collections: ["search-corpus"] }) { results { paper { id ${fields} } } } }`,
        {
          q: 'aspirin heart attack memory sleep statins interleukin',
        },
      );
    await search(''); // warm: corpus statistics cached, as in a running service
    let before = app.executor.statementsRun;
    await search('');
    const plain = app.executor.statementsRun - before;
    before = app.executor.statementsRun;
    const { data, errors } = await search(
      'authors { author { name institutions { name } } } venue { name } topics(first: 2) { topic { name } }',
    );
    const full = app.executor.statementsRun - before;
    expect(errors).toBeUndefined();
    expect(data.search.results).toHaveLength(6);
    // The fields add one batched query each (authors, venue, topics, and the authors' institutions), not one per
    // paper or per author.
    expect(full - plain).toBe(4);
  });
});

afterAll(async () => {
  await stop();
  await removeCollections(app, ['search-corpus']);
  await app.close();
});

describe('GraphQL search', () => {
  it('returns ranked papers with passages and the trace', async () => {
    const { data, errors } = await gql(SEARCH, {
      q: 'aspirin and myocardial infarction',
      first: 3,
      filter: { collections: ['search-corpus'] },
    });
    expect(errors).toBeUndefined();
    const { results, trace } = data.search;
    expect(results[0].paper.id).toBe('W901');
    expect(results.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 3]);
    expect(results[0].passages[0].text.length).toBeGreaterThan(10);
    expect(results[0].trace.sparse.rank).toBe(1);
    expect(trace.options).toMatchObject({ denseWeight: 0.5, sparseWeight: 0.5, rrfK: 10 });
    expect(trace.luceneQuery).toBe('aspirin myocardial infarction');
    expect(trace.timings.map((t: { stage: string }) => t.stage)).toEqual(
      expect.arrayContaining(['embed', 'sparse', 'dense', 'fusion']),
    );
  });

  it('takes per-request options and filters', async () => {
    const { data } = await gql(SEARCH, {
      q: 'heart',
      first: 5,
      filter: { collections: ['search-corpus'], years: { from: 2015, to: 2020 } },
      options: { dense: false, expansion: true, expansionTau: 0.5, citation: true },
    });
    expect(data.search.trace.options.expansion).toBe(true);
    for (const result of data.search.results) {
      expect(result.paper.year).toBeGreaterThanOrEqual(2015);
      expect(result.trace.dense).toBeNull();
    }
  });

  it('reports bad queries and options with BAD_USER_INPUT', async () => {
    expect((await gql(SEARCH, { q: '  ' })).errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect((await gql(SEARCH, { q: 'aspirin', options: { mmrLambda: 3 } })).errors[0]).toMatchObject({
      message: 'mmrLambda must be a number in [0, 1], got 3',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await gql(SEARCH, { q: 'aspirin', first: 0 })).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('GraphQL search with a companion model', () => {
  const COMPANION_SEARCH = `query ($q: String!, $options: SearchOptionsInput) {
    search(query: $q, first: 3, filter: { collections: ["search-corpus"] }, options: $options) {
      results { paper { id } trace { dense { rank } companion { rank score } fusedScore } }
      trace { options { companion denseWeight } companionModel companionFused companionSkipped companionHits }
    }
    stats { companionModel companionModelServed pendingCompanionChunks }
  }`;

  it('says the companion list waits for `citegraph embed`, then fuses it once every chunk has its vector', async () => {
    const server = await startTestServer({ CITEGRAPH_COMPANION_MODEL: 'e5-small' });
    try {
      const ask = async (options: Record<string, unknown> = {}) =>
        (
          await postGraphql(`${server.base}/graphql`, COMPANION_SEARCH, {
            q: 'aspirin and myocardial infarction',
            options,
          })
        ).data;
      const waiting = await ask();
      expect(waiting.stats.companionModelServed).toBe('e5-small');
      expect(waiting.stats.pendingCompanionChunks).toBeGreaterThan(0);
      expect(waiting.search.trace).toMatchObject({
        companionModel: 'e5-small',
        companionFused: false,
        companionHits: 0,
        companionSkipped: expect.stringMatching(/citegraph embed/),
      });
      expect(waiting.search.results[0].trace.companion).toBeNull();

      await server.app.companion!.space.switchTo();
      await server.app.ingest.embedCompanionMissing(256, false);
      server.app.search.invalidate();
      const fused = await ask();
      expect(fused.stats).toEqual({
        companionModel: 'e5-small',
        companionModelServed: 'e5-small',
        pendingCompanionChunks: 0,
      });
      expect(fused.search.trace).toMatchObject({
        companionFused: true,
        companionSkipped: null,
        options: { companion: true },
      });
      expect(fused.search.trace.companionHits).toBeGreaterThan(0);
      expect(fused.search.results[0].paper.id).toBe('W901');
      expect(fused.search.results[0].trace.companion.rank).toBe(1);

      const without = await ask({ companion: false });
      expect(without.search.trace).toMatchObject({
        companionFused: false,
        companionSkipped: 'the search asked for none (companion: false)',
        companionModel: 'e5-small',
      });
      expect(without.search.results.every((r: { trace: { companion: unknown } }) => r.trace.companion === null)).toBe(
        true,
      );
    } finally {
      await server.close();
    }
  });
});

describe("GraphQL search's SPLADE ranking", () => {
  const SPLADE_SEARCH = `query ($q: String!, $options: SearchOptionsInput) {
    search(query: $q, first: 3, filter: { collections: ["search-corpus"] }, options: $options) {
      results { paper { id } trace { sparse { rank } splade { rank score } fusedScore } }
      trace { options { splade spladeWeight spladeTerms } spladeTerms { term weight } spladeSkipped spladeHits }
    }
  }`;

  it('fuses it when asked, shows the weighted terms it sent, and leaves it out by default', async () => {
    const asked = await gql(SPLADE_SEARCH, {
      q: 'heart attack in smokers',
      options: { splade: true, spladeTerms: 12 },
    });
    expect(asked.errors).toBeUndefined();
    const trace = asked.data.search.trace;
    expect(trace.options).toEqual({ splade: true, spladeWeight: 0.5, spladeTerms: 12 });
    expect(trace.spladeSkipped).toBeNull();
    expect(trace.spladeHits).toBeGreaterThan(0);
    expect(trace.spladeTerms).toHaveLength(12);
    // The query's own words first (weighed by the model), then words it implies at a fraction of their weight.
    expect(trace.spladeTerms.map((t: { term: string }) => t.term)).toEqual(
      expect.arrayContaining(['heart', 'attack', 'smokers', 'cigarette']),
    );
    expect(asked.data.search.results[0].paper.id).toBe('W906');
    expect(asked.data.search.results[0].trace.splade.rank).toBe(1);

    const plain = await gql(SPLADE_SEARCH, { q: 'heart attack in smokers' });
    expect(plain.data.search.trace).toMatchObject({ spladeTerms: [], spladeSkipped: null, spladeHits: 0 });
    expect(plain.data.search.trace.options.splade).toBe(false);
    expect(plain.data.search.results.every((r: { trace: { splade: unknown } }) => r.trace.splade === null)).toBe(true);
    const refused = await gql(SPLADE_SEARCH, { q: 'heart', options: { spladeTerms: 0 } });
    expect(refused.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
