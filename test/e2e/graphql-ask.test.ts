import { serveGraphQL } from '../../src/api/server';
import { postGraphql } from '../helpers/graphql-client';
import { createTestContext, removeCollections } from '../helpers/context';
import { loadRecorded, ReplayServer } from '../helpers/replay-server';
import { SEARCH_CORPUS, writeSearchCorpus } from '../helpers/search-corpus';

const replay = new ReplayServer();
let replayUrl = '';
let app: ReturnType<typeof createTestContext>['app'];
/** This suite's papers, and the external papers its current-world question writes. */
const OWN = ['ask-corpus', 'external'];
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

async function ask(question: string, options: Record<string, unknown> = {}): Promise<any> {
  const query = `query ($q: String!, $o: AskOptionsInput) { ask(question: $q, options: $o) {
    answer abstained abstentionReason route routeReasons rewrite generator sourceNote settingsHash
    plan { operation topic person paper relation yearFrom yearTo venue citationBasis source reason }
    sentences { text citations { marker evidenceId chunkId quote field start end supportScore method paper { id title year } } }
    bibliography { marker doiUrl paper { id title } }
    sufficiency { score band dimensions { name score weight reason } }
    evidence { id score source text start end paper { id } }
    subQueries { text queryClass domain evidenceCount }
    externalSearches { query source portfolio found kept keptIds error }
    gaps contradictions { a b note } droppedSentences { text reason }
    trace { stage ms note } cost { llmCalls promptTokens completionTokens estimatedUsd apiCalls { provider calls } } } }`;
  return postGraphql(url, query, { q: question, o: options });
}

beforeAll(async () => {
  replayUrl = await replay.start();
  // The "latest" question is answered from OpenAlex: a real recorded search page, served for any works search.
  const page = loadRecorded('openalex').find((i) =>
    i.url.includes('title_and_abstract.search%3Abiodiversity+AND+finance'),
  )!.body_json;
  replay.script('/works', [{ status: 200, body: page }]);
  ({ app } = createTestContext({
    OPENALEX_BASE_URL: replayUrl,
    S2_BASE_URL: replayUrl,
    CROSSREF_BASE_URL: replayUrl,
    CITEGRAPH_HTTP_RETRIES: '0',
    OPENAI_BASE_URL: '',
    OPENAI_API_KEY: '',
  }));
  await removeCollections(app, OWN);
  await app.ingest.ingestFiles([writeSearchCorpus()], { embed: 'now', collection: 'ask-corpus', progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, OWN);
  await app.close();
  await replay.stop();
});

describe('ask over GraphQL, offline', () => {
  it('answers a covered question with citations that verify against their passages', async () => {
    const { data, errors } = await ask('Does low-dose aspirin prevent myocardial infarction?', {
      collections: ['ask-corpus'],
      externalSearch: false,
    });
    expect(errors).toBeUndefined();
    const result = data.ask;
    expect(result.abstained).toBe(false);
    expect(result.route).toBe('content');
    expect(result.generator).toBe('extractive');
    expect(['STRONG', 'MODERATE']).toContain(result.sufficiency.band);
    expect(result.sufficiency.dimensions.map((d: any) => d.name)).toEqual([
      'retrieval_confidence',
      'answer_specificity',
      'source_diversity',
      'metadata_completeness',
      'recency',
      'concept_connection',
    ]);
    expect(result.sentences.length).toBeGreaterThan(0);
    for (const sentence of result.sentences) {
      expect(sentence.citations.length).toBeGreaterThan(0);
      for (const citation of sentence.citations) {
        expect(citation.field).toBe('abstract');
        const abstract = SEARCH_CORPUS.find((p) => p.id === citation.paper.id)!.abstract;
        expect(abstract.slice(citation.start, citation.end)).toBe(citation.quote);
        expect(citation.supportScore).toBeGreaterThanOrEqual(0.6);
        expect(sentence.text.toLowerCase()).toContain(citation.quote.toLowerCase().replace(/[.]$/, '').slice(0, 40));
      }
    }
    const markers = result.sentences.flatMap((s: any) => s.citations.map((c: any) => c.marker));
    expect(result.bibliography.map((b: any) => b.marker)).toEqual([...new Set<number>(markers)].sort((a, b) => a - b));
    expect(result.answer).toMatch(/\[1\]/);
    expect(result.trace.map((t: any) => t.stage)).toEqual(
      expect.arrayContaining(['route', 'rewrite', 'retrieve', 'context', 'precheck', 'generate', 'verify', 'total']),
    );
    expect(result.cost).toMatchObject({ llmCalls: 0, estimatedUsd: 0 });
  });

  it('abstains on a topic the corpus does not cover, saying what it searched and found', async () => {
    const { data } = await ask('What is the boiling point of liquid nitrogen on Mars?', {
      collections: ['ask-corpus'],
      externalSearch: false,
    });
    expect(data.ask.abstained).toBe(true);
    expect(data.ask.sufficiency.band).toBe('WEAK');
    expect(data.ask.sentences).toEqual([]);
    expect(data.ask.abstentionReason).toMatch(
      /Insufficient evidence .*Searched the graph for "boiling point liquid nitrogen mars"/,
    );
    expect(data.ask.answer).toMatch(/^Insufficient evidence/);
    expect(data.ask.trace.map((t: any) => t.stage)).toContain('retry');
  });

  it('answers bibliometric and trend questions by a plan over every paper on the topic, citing titles', async () => {
    const biblio = (
      await ask('Which authors wrote the most papers about prevention?', {
        collections: ['ask-corpus'],
        externalSearch: false,
      })
    ).data.ask;
    expect(biblio.route).toBe('bibliometric');
    expect(biblio.generator).toBe('bibliometric');
    expect(biblio.plan).toMatchObject({ operation: 'top_authors', topic: 'prevention', source: 'rules' });
    // Every word form counts: W901 ("prevention"), W903 ("prevented", by A901 too) and W907 ("prevention", A904);
    // two more papers are in by meaning, and the answer says how many came in which way.
    expect(biblio.answer).toMatch(/^5 papers in the graph match the topic "prevention"/);
    expect(biblio.answer).toMatch(/: 3 by words or concept, 2 by meaning\)/);
    expect(biblio.answer).toMatch(/Author A901 \(2 papers\), Author A904 \(2 papers\)/);
    expect(biblio.answer).not.toMatch(/possibly the same person/);
    const citations = biblio.sentences.flatMap((s: any) => s.citations);
    expect(citations.length).toBeGreaterThan(0);
    for (const citation of citations) {
      expect(citation).toMatchObject({ method: 'computed', field: 'title', start: 0 });
      expect(citation.quote).toBe(citation.paper.title);
      expect(citation.end).toBe(citation.paper.title.length);
    }
    const trend = (
      await ask('How has research on prevention changed over time since 1990?', {
        collections: ['ask-corpus'],
        externalSearch: false,
      })
    ).data.ask;
    expect(trend.route).toBe('trend');
    expect(trend.plan).toMatchObject({ operation: 'topic_trend', topic: 'prevention', yearFrom: 1990 });
    // Five papers in 36 years are too thin a base for a growth rate: none is stated, the counts are.
    expect(trend.answer).not.toMatch(/compound annual growth/);
    expect(trend.answer).toMatch(/Papers per year: 1995: 1, 2001: 1, 2005: 1, 2018: 1, 2020: 1\./);
  });

  it('counts a trends(query:) series by the same topic set as ask, and says which papers it holds', async () => {
    const response = await postGraphql(
      url,
      `query { trends(query: "prevention", from: 1990, to: 2020, filter: { collections: ["ask-corpus"] }) {
        series { key total rule points { year count } } } }`,
    );
    const [series] = response.data.trends.series;
    expect(series).toMatchObject({ key: 'prevention', total: 5 });
    expect(series.rule).toMatch(/3 by words or concept, 2 by meaning$/);
    expect(series.points.filter((p: any) => p.count > 0).map((p: any) => p.year)).toEqual([
      1995, 2001, 2005, 2018, 2020,
    ]);
  });

  it('lists the papers that cite a named paper, and those it cites, as counts with the most cited first', async () => {
    const cite = (question: string) =>
      postGraphql(
        url,
        `query ($q: String!, $o: AskOptionsInput) { ask(question: $q, options: $o) {
          answer abstained plan { operation paper } figure { kind value items { id value } } } }`,
        { q: question, o: { collections: ['ask-corpus'], externalSearch: false } },
      );
    const later = (
      await cite('Which papers in the graph cite "Low-dose aspirin and the prevention of myocardial infarction"?')
    ).data.ask;
    expect(later.plan).toMatchObject({ operation: 'derivative_works' });
    // W902, W903, W906 and W907 list W901 among their references.
    expect(later.figure).toMatchObject({ kind: 'count', value: 4 });
    expect(later.figure.items.map((i: any) => i.id).sort()).toEqual(['W902', 'W903', 'W906', 'W907']);
    expect(later.answer).toMatch(/^4 papers in the graph cite "Low-dose aspirin/);
    const earlier = (await cite('What earlier work does "Cardiology review of platelet inhibitors" rely on?')).data.ask;
    expect(earlier.plan).toMatchObject({ operation: 'prior_works' });
    expect(earlier.figure.items.map((i: any) => i.id).sort()).toEqual(['W901', 'W906']);
    expect(earlier.figure.value).toBe(2);
  });

  it('follows a citation path between two titled papers, either way along each link, with the papers it resolved', async () => {
    const { data, errors } = await postGraphql(
      url,
      `query ($q: String!, $o: AskOptionsInput) { ask(question: $q, options: $o) {
        answer abstained clarification plan { operation paper second } figure { kind value items { id } }
        entities { kind text id label how } } }`,
      {
        q: 'Is there a citation path from "Statins lower cholesterol and cardiovascular events" to "Heart attack risk after stopping antiplatelet drugs"?',
        o: { collections: ['ask-corpus'], externalSearch: false },
      },
    );
    expect(errors).toBeUndefined();
    const result = data.ask;
    expect(result.plan).toMatchObject({ operation: 'citation_path' });
    // W902 cites W901, which W906 cites: two links, the second followed backwards.
    expect(result.figure).toMatchObject({ kind: 'value', value: 2 });
    expect(result.figure.items.map((i: any) => i.id)).toEqual(['W902', 'W901', 'W906']);
    expect(result.answer).toMatch(
      /"Statins lower cholesterol and cardiovascular events" \(\d{4}\) cites "Low-dose aspirin/,
    );
    expect(result.answer).toMatch(
      /"Low-dose aspirin and the prevention of myocardial infarction" \(\d{4}\) is cited by "Heart attack risk/,
    );
    expect(result.entities.map((e: any) => [e.kind, e.id])).toEqual([
      ['paper', 'W902'],
      ['paper', 'W906'],
    ]);
    expect(result.entities[0].how).toMatch(/by its title$/);
    expect(result.clarification).toBeNull();
  });

  it('abstains, saying why, when the plan has nothing to count', async () => {
    const result = (
      await ask('Which journals publish the most papers on volcanic soil chemistry?', {
        collections: ['ask-corpus'],
        externalSearch: false,
      })
    ).data.ask;
    expect(result.route).toBe('bibliometric');
    expect(result.plan).toMatchObject({ operation: 'top_venues', topic: 'volcanic soil chemistry' });
    expect(result.abstained).toBe(true);
    expect(result.answer).toMatch(/no paper in the graph matches the topic "volcanic soil chemistry"/);
    expect(result.sentences).toEqual([]);
  });

  it('answers a current-world question from external sources, vetted and written to the graph', async () => {
    const { data, errors } = await ask('What is the latest research on biodiversity finance?', {
      collections: ['ask-corpus', 'external'],
    });
    expect(errors).toBeUndefined();
    const result = data.ask;
    expect(result.route).toBe('current_world');
    // The question (as the rewrite words it) first, then its primary and field-restricted portfolios, each provider in
    // its own form.
    expect(result.externalSearches[0]).toMatchObject({
      portfolio: 'general',
      source: 'openalex',
      query: 'latest research biodiversity finance',
      found: expect.any(Number),
      error: null,
    });
    expect(result.externalSearches.map((s: any) => s.portfolio)).toEqual(
      expect.arrayContaining(['general', 'primary', 'field']),
    );
    expect(result.externalSearches.find((s: any) => s.portfolio === 'field' && s.source === 'openalex').query).toMatch(
      /^title_abstract: .*biodiversity.*finance/,
    );
    expect(result.externalSearches[0].kept).toBeGreaterThan(0);
    expect(result.externalSearches[0].keptIds).toHaveLength(result.externalSearches[0].kept);
    // Every kept paper is in the graph now, and some of its passages are evidence.
    const kept = new Set(result.externalSearches.flatMap((s: any) => s.keptIds));
    expect(result.evidence.some((e: any) => e.source === 'external' && kept.has(e.paper.id))).toBe(true);
    // Semantic Scholar has nothing recorded here (501, reported); Crossref's /works gets the OpenAlex page, which
    // has no Crossref items: found 0. Neither failure fails the question.
    expect(result.externalSearches.find((s: any) => s.source === 's2').error).toMatch(/EXTERNAL_HTTP/);
    expect(result.externalSearches.find((s: any) => s.source === 'crossref').found).toBe(0);
    expect(result.evidence.some((e: any) => e.source === 'external')).toBe(true);
    if (!result.abstained) expect(result.sourceNote).toMatch(/external sources \(openalex\)/);
    expect(result.cost.apiCalls.find((a: any) => a.provider === 'openalex').calls).toBeGreaterThan(0);
  });

  it('refuses an empty question', async () => {
    const { errors } = await ask('  ?? ');
    expect(errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
