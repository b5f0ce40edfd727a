import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks } from '../helpers/openalex-corpus';

/**
 * Ask v2 on a purpose-made corpus: two subjects the graph never connects (emicizumab; borderline personality
 * disorder — one emicizumab paper has each word of the other subject, in sentences of their own), one person under two author records sharing an ORCID, and a namesake without it.
 */
const PAPERS = [
  {
    id: 'W951',
    title: 'Emicizumab prophylaxis in haemophilia A with inhibitors',
    abstract:
      'Emicizumab prophylaxis once weekly reduced the rate of treated bleeding events in patients with haemophilia A and factor VIII inhibitors. Injection-site reactions were the most common adverse events.',
    year: 2017,
    author: { id: 'A951', name: 'Midori Shima', orcid: 'https://orcid.org/0000-0002-0000-0001' },
  },
  {
    id: 'W952',
    title: 'Emicizumab pharmacokinetics in children with haemophilia A',
    abstract:
      'In children with haemophilia A, emicizumab reached steady-state concentrations after four loading doses, and bleeding was rare during prophylaxis.',
    year: 2019,
    author: { id: 'A952', name: 'M. Shima', orcid: 'https://orcid.org/0000-0002-0000-0001' },
  },
  {
    id: 'W953',
    title: 'Bleeding outcomes with emicizumab and bypassing agents',
    abstract:
      'Breakthrough bleeding in patients on emicizumab was treated with bypassing agents; thrombotic events occurred with high cumulative doses of activated prothrombin complex concentrate. One patient had borderline factor VIII activity. Personality changes and mood disorder were not assessed.',
    year: 2020,
    author: { id: 'A951', name: 'Midori Shima', orcid: 'https://orcid.org/0000-0002-0000-0001' },
  },
  {
    id: 'W954',
    title: 'Dialectical behavior therapy for borderline personality disorder',
    abstract:
      'Women with borderline personality disorder who received dialectical behavior therapy for one year had fewer suicide attempts and less self-harm than those treated by community experts.',
    year: 2006,
    author: { id: 'A953', name: 'Midori Shima', orcid: null },
  },
  {
    id: 'W955',
    title: 'Mentalization-based treatment of borderline personality disorder',
    abstract:
      'Mentalization-based treatment reduced self-harm and hospital admissions in borderline personality disorder over eighteen months compared with structured clinical management.',
    year: 2009,
    author: { id: 'A954', name: 'Anthony Bateman', orcid: null },
  },
];

const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
const OWN = ['ask-v2'];
const options = { collections: OWN, externalSearch: false };

beforeAll(async () => {
  await ingestWorks(
    app,
    'ask-v2',
    PAPERS.map((paper) => ({ ...paper, authors: [paper.author] })),
  );
});
afterAll(async () => {
  await removeCollections(app, [...OWN, 'ask-v2-names']);
  await app.close();
});

describe('one person under several records of one full name', () => {
  // Three records of "Hedda K. Quenneville" sharing no co-author: two in the same journal, one elsewhere; and a
  // "Hedda Quenneville" without the middle initial in that journal.
  const journal = { id: 'S961', name: 'Journal of Cartilage Surgery' };
  const works = [
    { id: 'W961', author: { id: 'A961', name: 'Hedda K. Quenneville' }, venue: journal, year: 2012 },
    { id: 'W962', author: { id: 'A961', name: 'Hedda K. Quenneville' }, venue: journal, year: 2014 },
    { id: 'W963', author: { id: 'A962', name: 'Hedda K. Quenneville' }, venue: journal, year: 2016 },
    {
      id: 'W964',
      author: { id: 'A963', name: 'Hedda K. Quenneville' },
      venue: { id: 'S962', name: 'Hepatology' },
      year: 2017,
    },
    { id: 'W965', author: { id: 'A964', name: 'Hedda Quenneville' }, venue: journal, year: 2018 },
    { id: 'W966', author: { id: 'A965', name: 'Víctor Jiménez-Quenneville' }, venue: journal, year: 2019 },
  ];
  beforeAll(async () => {
    await ingestWorks(
      app,
      'ask-v2-names',
      works.map((work) => ({ ...work, title: `Cartilage repair study ${work.id}`, authors: [work.author] })),
      'defer',
    );
  });

  it('counts a record of the same full name, middle initial included, in a venue of the person, and says why', async () => {
    const person = (await app.analytics.people.resolvePerson('Hedda Quenneville'))!;
    expect(person.ids.sort()).toEqual(['A961', 'A962']);
    expect(person.papers).toBe(3);
    expect(person.linked).toEqual([
      { ids: ['A962'], name: 'Hedda K. Quenneville', papers: 1, by: 'full name and venue' },
    ]);
    // Another venue, or the name without its middle initial, is no evidence: listed, not counted.
    expect(person.namesakes.map((n) => n.id).sort()).toEqual(['A963', 'A964']);
  });

  it('finds a double-barrelled surname asked without its accents', async () => {
    const person = (await app.analytics.people.resolvePerson('Victor Jimenez-Quenneville'))!;
    expect(person).toMatchObject({ name: 'Víctor Jiménez-Quenneville', ids: ['A965'], papers: 1 });
  });
});

describe('relational sufficiency', () => {
  it('abstains on a question joining subjects no paper or citation connects, naming them', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Does emicizumab reduce self-harm in borderline personality disorder?',
      options,
    );
    expect(result.route).toBe('content');
    expect(result.abstained).toBe(true);
    expect(result.abstentionReason).toMatch(/"emicizumab" with "borderline personality disorder"/);
    // The best evidence for each subject on its own is shown.
    expect(result.abstentionReason).toMatch(/"emicizumab": "[^"]*[Ee]micizumab/);
    const connection = result.sufficiency.dimensions.find((d) => d.name === 'concept_connection')!;
    expect(connection.weight).toBe(0);
    expect(connection.score).toBeLessThan(100);
    expect(result.sentences).toEqual([]);
    // The band never stands unexplained beside the abstention: over MODERATE or STRONG evidence it says why.
    if (result.sufficiency.band === 'WEAK') expect(result.sufficiency.overruled).toBeNull();
    else
      expect(result.sufficiency.overruled).toMatch(
        new RegExp(`^abstained although the evidence scored ${result.sufficiency.band}: .*emicizumab`),
      );
    // W953 has every word of both subjects, scattered over three sentences: the index joins them, no sentence does.
    const indexed = await app.catalog.evidence.papersMentioning(
      [[['emicizumab']], [['borderline', 'personality', 'disorder']]],
      OWN,
      10,
    );
    expect(indexed).toEqual(['W953']);
  });

  it('answers a question whose subjects a paper connects, quoting only papers that connect them', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Does emicizumab prophylaxis reduce bleeding in haemophilia A?',
      options,
    );
    expect(result.abstained).toBe(false);
    const connection = result.sufficiency.dimensions.find((d) => d.name === 'concept_connection')!;
    expect(connection.score).toBe(100);
    const cited = new Set(result.sentences.flatMap((s) => s.citations.map((c) => c.paperId)));
    expect(cited.size).toBeGreaterThan(0);
    for (const id of cited) expect(['W951', 'W952']).toContain(id);
  });
});

describe('analytics plans with people', () => {
  it('counts one person across the author records that share an ORCID, and flags a namesake', async () => {
    const result = await app.ask.ask(app.requestContext(), 'What is the h-index of Midori Shima?', options);
    expect(result.plan).toMatchObject({ operation: 'author_metrics', person: 'Midori Shima' });
    expect(result.abstained).toBe(false);
    expect(result.answer).toMatch(/^Midori Shima has 3 papers in the graph \(2017–2020\)/);
    expect(result.answer).toMatch(/2 author records with ORCID/);
    expect(result.answer).toMatch(
      /1 other author record in the graph fits the name as asked with no ORCID, co-author or \(under the same full name\) venue or specific concept in common with Midori Shima \(Midori Shima, A953, 1 paper\)/,
    );
    // The person is linked with the text it came from and its records; the namesake is the other reading.
    expect(result.entities).toEqual([
      expect.objectContaining({ kind: 'person', text: 'Midori Shima', label: 'Midori Shima', id: 'A951' }),
    ]);
    expect(result.entities[0]!.how).toMatch(/2 author records counted as one \(A951, A952\)/);
    expect(result.clarification).toMatch(
      /^"Midori Shima" was taken to be Midori Shima \(A951 and 1 linked record, 3 papers\); the name also fits Midori Shima \(A953, 1 paper\)/,
    );
  });

  it('lists a person once among the authors of a topic', async () => {
    const result = await app.ask.ask(app.requestContext(), 'Who are the most prolific authors on emicizumab?', options);
    expect(result.plan).toMatchObject({ operation: 'top_authors', topic: 'emicizumab' });
    expect(result.answer).toMatch(/^3 papers in the graph match the topic "emicizumab"/);
    expect(result.answer).toMatch(/Midori Shima \(3 papers, 2 author records taken as one person\)/);
    expect(result.answer.match(/Shima \(/g)).toHaveLength(1);
  });

  it('abstains when the person is not in the graph', async () => {
    const result = await app.ask.ask(app.requestContext(), 'What is the h-index of Rosalind Franklin?', options);
    expect(result.abstained).toBe(true);
    expect(result.answer).toMatch(/no identified author in the graph is named "Rosalind Franklin"/);
  });
});

describe('one person in every analysis: records sharing an ORCID', () => {
  const filter = { collections: OWN };

  it('counts them as one author in top authors, Lotka and the collaboration network', async () => {
    const top = await app.analytics.topAuthors(filter, 'INTERNAL_CITATIONS', { skip: 0, limit: 10 });
    expect(top.total).toBe(3); // Shima (two records, one ORCID), the namesake without it, Bateman
    const shima = top.items.find((row) => row.author.id === 'A951')!;
    expect(shima.papers).toBe(3);
    expect(top.items.some((row) => row.author.id === 'A952')).toBe(false);
    const lotka = await app.science.lotka(filter);
    expect(lotka.distribution).toEqual([
      { papers: 1, authors: 2 },
      { papers: 3, authors: 1 },
    ]);
    const network = await app.analytics.collaborationNetwork(filter, 10, 1);
    expect(network.nodes.map((node) => [node.id, node.papers]).sort()).toEqual([
      ['A951', 3],
      ['A953', 1],
      ['A954', 1],
    ]);
  });

  it('merges records for a computation only as asked, and lists no namesake without evidence', async () => {
    const person = await app.science.person(['A952'], 10);
    expect(person.authorIds).toEqual(['A951', 'A952']);
    expect(person.metrics.works).toBe(3);
    const namesake = await app.science.person(['A953'], 10);
    expect(namesake.authorIds).toEqual(['A953']);
    expect(namesake.metrics.works).toBe(1);
    // "Midori Shima" without an ORCID shares no co-author or institution with the ORCID holder: not a candidate.
    expect(await app.science.possibleDuplicates(filter, 10)).toEqual([]);
  });
});

describe('topic sets that mean the topic', () => {
  it('takes in a paper on the subject that lacks some of its words, says why each paper is in, and no other subject', async () => {
    const set = await app.analytics.topics.topicSet('emicizumab prophylaxis in haemophilia', { collections: OWN });
    const byId = new Map(set.papers.map((paper) => [paper.id, paper]));
    // W951 and W952 hold every word; W953 (no "prophylaxis", no "haemophilia") is on emicizumab all the same.
    expect(byId.get('W951')).toMatchObject({ byWords: true });
    expect(byId.get('W952')).toMatchObject({ byWords: true });
    expect(byId.get('W953')).toMatchObject({ byWords: false, byConcept: false });
    expect(byId.get('W953')!.similarity).toBeGreaterThanOrEqual(0.5);
    expect(byId.has('W954')).toBe(false);
    expect(byId.has('W955')).toBe(false);
    expect(set.rule).toMatch(/2 by words or concept, 1 by meaning$/);
  });

  it('finds nothing for a subject no paper holds most of the words of, however near its least far papers are', async () => {
    const set = await app.analytics.topics.topicSet('volcanic soil chemistry');
    expect(set.papers).toEqual([]);
  });
});

describe('comparisons', () => {
  it('compares two people by papers, each counted across the records that share an ORCID', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Who has more papers, Midori Shima or Anthony Bateman?',
      options,
    );
    expect(result.plan).toMatchObject({
      operation: 'compare_people',
      person: 'Midori Shima',
      second: 'Anthony Bateman',
    });
    expect(result.figure).toMatchObject({
      kind: 'choice',
      items: [
        { label: 'Midori Shima', value: 3 },
        { label: 'Anthony Bateman', value: 1 },
      ],
    });
    expect(result.answer).toMatch(/^Midori Shima has more papers in the graph than Anthony Bateman: 3 against 1\./);
    // Each side's detail is a sentence of its own, closed once.
    expect(result.answer).toMatch(/from citations inside it\)\. /);
    expect(result.answer).not.toMatch(/\.\./);
  });

  it('compares two topics by their topic sets, and refuses when neither has a paper', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Are there more papers on emicizumab or on mentalization-based treatment?',
      options,
    );
    expect(result.plan).toMatchObject({ operation: 'compare_topics', topic: 'emicizumab' });
    expect(result.figure?.kind).toBe('choice');
    expect(result.figure?.items.map((i) => i.label)).toEqual(['emicizumab', result.plan!.second]);
    // The verdict opens with a capital, whatever the topic's phrase.
    expect(result.answer).toMatch(/^Emicizumab has more papers/);
    expect(result.figure!.items[0]!.value).toBeGreaterThan(result.figure!.items[1]!.value);
    const none = await app.ask.ask(
      app.requestContext(),
      'Are there more papers on volcanic soil chemistry or on lunar regolith?',
      options,
    );
    expect(none.abstained).toBe(true);
    expect(none.answer).toMatch(/no paper in the graph matches the topics/);
  });

  it('compares two windows of years on one topic', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'Were more emicizumab papers published in 2015-2018 than in 2019-2020?',
      options,
    );
    expect(result.plan).toMatchObject({ operation: 'compare_periods', topic: 'emicizumab' });
    // W951 (2017) against W952 (2019) and W953 (2020).
    expect(result.figure).toMatchObject({
      kind: 'choice',
      items: [
        { id: '[2019, 2020]', value: 2 },
        { id: '[2015, 2018]', value: 1 },
      ],
      years: [2015, 2020],
    });
  });
});

describe('plans in two steps', () => {
  it("finds the topic's most prolific author first, then gives that person's measures", async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'What is the h-index of the most prolific author on emicizumab?',
      options,
    );
    expect(result.plan).toMatchObject({
      operation: 'author_metrics',
      topic: 'emicizumab',
      firstStep: 'most_prolific_author',
    });
    // Midori Shima's two records share an ORCID: three emicizumab papers, more than anyone else.
    expect(result.answer).toMatch(/the most prolific author among them is Midori Shima \(3 of those papers\)/);
    expect(result.answer).toMatch(/Midori Shima has 3 papers in the graph/);
    expect(result.figure).toMatchObject({ kind: 'metrics' });
    expect(result.figure!.items.find((i) => i.id === 'papers')!.value).toBe(3);
  });
});

describe('years and the current world, honestly', () => {
  it('ends an open window ("since") at the last year the counted papers cover, and says so', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'How many papers on emicizumab were published since 2018?',
      options,
    );
    expect(result.plan).toMatchObject({ operation: 'count_papers', yearFrom: 2018, yearTo: null });
    // W952 (2019) and W953 (2020); never a window running to the current year.
    expect(result.figure).toMatchObject({ kind: 'count', value: 2, years: [2018, 2020] });
    expect(result.answer).toMatch(/since 2018, up to 2020, the last year these papers in the graph cover/);
  });

  it('counts "recent years" back from the last year the topic covers, and says which years it took', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'How many emicizumab papers appeared in recent years?',
      options,
    );
    expect(result.plan).toMatchObject({ operation: 'count_papers', lastYears: 3, yearFrom: 2018, yearTo: 2020 });
    expect(result.figure).toMatchObject({ kind: 'count', value: 2, years: [2018, 2020] });
    expect(result.answer).toMatch(/from 2018 to 2020 \(the last 3 years these papers in the graph cover\)/);
  });

  it('gives a trend its figure: the peak year and papers per year over the resolved window', async () => {
    const result = await app.ask.ask(app.requestContext(), 'How has emicizumab research grown over time?', options);
    expect(result.route).toBe('trend');
    expect(result.figure?.kind).toBe('peak');
    expect(result.figure?.years).toEqual([2017, 2020]);
    expect(result.figure?.items.map((i) => [i.label, i.value])).toEqual([
      ['2017', 1],
      ['2018', 0],
      ['2019', 1],
      ['2020', 1],
    ]);
  });

  it('does not answer a current-world question from old abstracts when no news can be searched', async () => {
    const result = await app.ask.ask(
      app.requestContext(),
      'What did the FDA decide this week about emicizumab?',
      options,
    );
    expect(result.route).toBe('current_world');
    expect(result.abstained).toBe(true);
    expect(result.figure).toBeNull();
    expect(result.abstentionReason).toMatch(/external search is off/);
    expect(result.abstentionReason).toMatch(
      /The graph's papers run from \d{4} to \d{4}; they cannot say what happened since/,
    );
    expect(result.abstentionReason).toMatch(/Background only, not current: "[^"]*[Ee]micizumab[^"]*" \(20\d\d\)/);
    // What the graph's papers connect is not read for an answer the graph cannot give.
    expect(result.sufficiency.dimensions.find((d) => d.name === 'concept_connection')?.reason).toMatch(
      /^not checked: a current-world question/,
    );
  });
});
