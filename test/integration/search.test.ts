import { createTestContext, removeCollections } from '../helpers/context';
import { SEARCH_CORPUS, writeSearchCorpus } from '../helpers/search-corpus';

const { app } = createTestContext();
const COLLECTION = 'search-corpus';
const only = { collections: [COLLECTION] };
const plain = { expansion: false, citation: false, pagerank: false, mmr: false };

beforeAll(async () => {
  await removeCollections(app, [COLLECTION]);
  await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: COLLECTION, progress: false });
});
afterAll(async () => {
  await removeCollections(app, [COLLECTION]);
  await app.close();
});

const ids = (response: { results: Array<{ paper: { id: string } }> }) => response.results.map((r) => r.paper.id);

describe('hybrid search over the real indexes', () => {
  it('BM25 finds exact acronyms and symbols', async () => {
    const response = await app.search.search(app.requestContext(), 'IL-6 STAT3', 3, only, { ...plain, dense: false });
    expect(ids(response)[0]).toBe('W903');
    expect(response.results[0]!.trace.sparse?.rank).toBe(1);
    expect(response.results[0]!.trace.dense).toBeNull();
    expect(response.trace.luceneQuery).toBe('il 6 stat3');
  });

  it('dense retrieval finds a paraphrase that shares no words with the text', async () => {
    const response = await app.search.search(
      app.requestContext(),
      'does staying up all night hurt remembering things',
      2,
      only,
      {
        ...plain,
        sparse: false,
      },
    );
    expect(ids(response)[0]).toBe('W904');
  });

  it('fuses both and explains every rank', async () => {
    const response = await app.search.search(app.requestContext(), 'aspirin heart attack prevention', 8, only, plain);
    expect(ids(response).slice(0, 3)).toEqual(expect.arrayContaining(['W901', 'W906']));
    for (const result of response.results) {
      const t = result.trace;
      expect(t.sparse !== null || t.dense !== null).toBe(true);
      const { sparseWeight, denseWeight, rrfK } = response.trace.options;
      const expected =
        (t.sparse ? sparseWeight / (rrfK + t.sparse.rank) : 0) + (t.dense ? denseWeight / (rrfK + t.dense.rank) : 0);
      expect(t.fusedScore).toBeCloseTo(expected, 10);
    }
    // Every stage that ran is timed, and the query was really embedded (a model run takes time).
    expect(Object.keys(response.trace.timings)).toEqual(
      expect.arrayContaining(['embedMs', 'sparseMs', 'denseMs', 'fusionMs', 'hydrateMs']),
    );
    expect(response.trace.timings.embedMs).toBeGreaterThan(0);
  });

  it('returns passages whose offsets slice the abstract', async () => {
    const response = await app.search.search(app.requestContext(), 'bleeding with aspirin', 1, only, {
      ...plain,
      passages: 2,
    });
    const [result] = response.results;
    const abstract = SEARCH_CORPUS.find((p) => p.id === result!.paper.id)!.abstract;
    expect(result!.passages.length).toBeGreaterThan(0);
    for (const passage of result!.passages) expect(abstract.slice(passage.start, passage.end)).toBe(passage.text);
  });

  it('applies filters: years, authors, venues, topics, collections', async () => {
    const years = await app.search.search(
      app.requestContext(),
      'heart',
      8,
      { ...only, yearFrom: 2010, yearTo: 2019 },
      plain,
    );
    expect(ids(years).every((id) => ['W904', 'W905', 'W906'].includes(id))).toBe(true);
    expect(ids(years)).toContain('W906');
    const authors = await app.search.search(
      app.requestContext(),
      'cells aspirin',
      8,
      { ...only, authors: ['A901'] },
      plain,
    );
    expect(new Set(ids(authors))).toEqual(new Set(['W901', 'W903']));
    const venues = await app.search.search(app.requestContext(), 'review', 8, { ...only, venues: ['S903'] }, plain);
    expect(new Set(ids(venues))).toEqual(new Set(['W905', 'W906']));
    const topics = await app.search.search(app.requestContext(), 'protein', 8, { ...only, topics: ['C904'] }, plain);
    expect(ids(topics)).toEqual(['W908']);
    const none = await app.search.search(
      app.requestContext(),
      'aspirin',
      8,
      { collections: ['no-such-collection'] },
      plain,
    );
    expect(none.results).toEqual([]);
  });

  it('survives hostile input and refuses empty queries', async () => {
    for (const hostile of ['title:x AND (', 'aspirin*', '"aspirin', 'aspirin\\', 'aspirin OR '.repeat(900)]) {
      await expect(app.search.search(app.requestContext(), hostile, 3, only, plain)).resolves.toBeDefined();
    }
    await expect(
      app.search.search(app.requestContext(), 'aspirin '.repeat(3000), 3, only, plain),
    ).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    await expect(app.search.search(app.requestContext(), '   ', 3, only, plain)).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    await expect(app.search.search(app.requestContext(), 'the of and', 3, only, plain)).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
    await expect(
      app.search.search(app.requestContext(), 'aspirin', 3, only, { sparse: false, dense: false }),
    ).rejects.toMatchObject({
      code: 'BAD_USER_INPUT',
    });
  });

  it('expands the query with terms the corpus validates, and shows them in the trace', async () => {
    const response = await app.search.search(app.requestContext(), 'aspirin', 5, only, {
      ...plain,
      expansion: true,
      expansionTau: 0.5,
      feedbackDocs: 3,
    });
    const frequencies = await app.search.documentFrequencies([COLLECTION]);
    for (const term of response.trace.expansionTerms) {
      expect(frequencies.df(term)).toBeGreaterThan(0);
      expect(frequencies.df(term)).toBeLessThan(0.5 * frequencies.documents);
    }
    if (response.trace.expansionTerms.length > 0) expect(response.trace.luceneQuery).toContain(')^0.3');
  });

  it('boosts candidates tied to the strongest hits in the citation graph', async () => {
    const response = await app.search.search(app.requestContext(), 'aspirin myocardial infarction', 8, only, {
      ...plain,
      citation: true,
      citationSeeds: 1,
    });
    const top = response.results[0]!;
    expect(top.paper.id).toBe('W901');
    // W907 cites W901 (the seed) directly, and W906 is cited together with it.
    const w907 = response.results.find((r) => r.paper.id === 'W907');
    expect(w907?.trace.citation?.direct).toBe(1);
    expect(w907?.trace.citation?.boost).toBeGreaterThan(0);
  });

  it('diversifies with MMR and reranks with PageRank, recording the moves', async () => {
    const response = await app.search.search(app.requestContext(), 'heart attack aspirin platelet', 8, only, {
      ...plain,
      mmr: true,
      mmrLambda: 0.3,
      pagerank: true,
    });
    expect(response.results).toHaveLength(8);
    expect(response.results.some((r) => r.trace.pagerank !== null)).toBe(true);
    expect(response.trace.timings.mmrMs).toBeDefined();
  });

  it('indexes vocabulary from citing titles (corpus-side enrichment), so BM25 finds what the text lacks', async () => {
    const { enrichPapers } = await import('../../src/retrieval/enrichment');
    const before = await app.search.search(app.requestContext(), 'antiplatelet', 8, only, { ...plain, dense: false });
    expect(ids(before)).not.toContain('W901');
    const summary = await enrichPapers(app.executor, [COLLECTION], { tau: 0.5, maxTerms: 10, minSupport: 1 });
    expect(summary.enriched).toBeGreaterThan(0);
    const paper = await app.catalog.paperById('W901');
    expect(String(paper!.enrichment)).toContain('antiplatelet');
    const after = await app.search.search(app.requestContext(), 'antiplatelet', 8, only, { ...plain, dense: false });
    expect(ids(after)).toEqual(expect.arrayContaining(['W906', 'W901']));
  });
});
