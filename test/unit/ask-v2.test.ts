import { mergeByOrcid, mostWordsQuery, smoothedGrowth, yearSeries } from '../../src/analytics/analytics-math';
import { meanVector } from '../../src/embedding/embedder';
import { kindsAskedFor, sentenceKind, sentenceRole, withoutLabel } from '../../src/generation/extractive';
import {
  connectsConcepts,
  directMatch,
  mentions,
  namesConcept,
  questionConcepts,
  sameWord,
  stem,
} from '../../src/pipeline/concepts';
import { judgeConnection, keyConcepts } from '../../src/pipeline/concept-connection';
import { withoutDefinedAcronyms } from '../../src/pipeline/concept-words';
import { describePlan, planSchema } from '../../src/pipeline/plan-schema';
import { firstStepIn, planQuestion } from '../../src/pipeline/planner';
import { periodsIn, topicPhrase, twoTopics } from '../../src/pipeline/plan-subjects';
import { twoPapersIn } from '../../src/pipeline/plan-references';
import { comparison } from '../../src/pipeline/stages/computed/outcome';
import { RouteClassifier } from '../../src/pipeline/route-classifier';
import { maskSourceNames, routeQuestion } from '../../src/pipeline/router';
import {
  CLASSIFIER_TRUST,
  combineRoute,
  definitelyBibliometric,
  isAssertion,
  routeOptions,
} from '../../src/pipeline/stages/route';

describe('analytics planner', () => {
  it.each([
    ['How many papers on statin therapy were published since 2010?', 'bibliometric', 'count_papers', 'statin therapy'],
    [
      'Which journals publish the most papers on proton pump inhibitors?',
      'bibliometric',
      'top_venues',
      'proton pump inhibitors',
    ],
    [
      'Which institutions appear most often among papers on fluoride toxicity?',
      'bibliometric',
      'top_institutions',
      'fluoride toxicity',
    ],
    ['Who are the most prolific authors on low-dose aspirin?', 'bibliometric', 'top_authors', 'low dose aspirin'],
    ['What are the canonical works on depression screening?', 'bibliometric', 'top_papers', 'depression screening'],
    [
      'Show yearly counts of papers about brain-computer interfaces',
      'trend',
      'topic_trend',
      'brain computer interfaces',
    ],
    [
      'What topics are emerging within software fault prediction?',
      'trend',
      'emerging_topics',
      'software fault prediction',
    ],
    [
      'Describe the collaboration network in virtual reality rehabilitation research',
      'bibliometric',
      'collaboration_network',
      'virtual reality rehabilitation',
    ],
  ] as const)('plans "%s"', (question, route, operation, topic) => {
    const plan = planQuestion(question, route);
    expect(plan.operation).toBe(operation);
    expect(plan.topic).toBe(topic);
    expect(plan.person).toBeNull();
    expect(describePlan(plan)).toContain(operation);
  });

  it('keeps question and counting words out of the topic', () => {
    expect(topicPhrase('Which institutions appear often among papers on hair cortisol?')).toBe('hair cortisol');
    expect(topicPhrase('Show yearly publication counts for emicizumab.')).toBe('emicizumab');
    expect(topicPhrase('Did publications about baclofen rise or fall between 1990 and 2010?')).toBe('baclofen');
  });

  it('resolves people, papers and years into the plan', () => {
    const metrics = planQuestion('What is the h-index of Rens van de Schoot?', 'bibliometric');
    expect(metrics).toMatchObject({ operation: 'author_metrics', person: 'Rens van de Schoot', topic: null });
    const coauthors = planQuestion('With whom has Giuseppe Filardo written most papers?', 'bibliometric');
    expect(coauthors).toMatchObject({ operation: 'coauthors', person: 'Giuseppe Filardo' });
    const cocited = planQuestion(
      'Which papers are most often co-cited with "Low-dose aspirin and the prevention of myocardial infarction"?',
      'bibliometric',
    );
    expect(cocited).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      paper: 'Low-dose aspirin and the prevention of myocardial infarction',
    });
    const coupled = planQuestion('Which papers share the most references with 10.1001/jama.288.7.872?', 'bibliometric');
    expect(coupled).toMatchObject({
      operation: 'related_papers',
      relation: 'coupled',
      paper: '10.1001/jama.288.7.872',
    });
    const count = planQuestion('How many papers about aspirin were published between 2000 and 2010?', 'bibliometric');
    expect(count).toMatchObject({ operation: 'count_papers', yearFrom: 2000, yearTo: 2010, topic: 'aspirin' });
    // A person's own count is their profile, not a topic count.
    expect(planQuestion('How many papers has Silvio Danese published?', 'bibliometric').operation).toBe(
      'author_metrics',
    );
  });

  it('never plans an operation whose subject the question lacks', () => {
    // "co-authors" without a person cannot be a co-author list; it falls through to the topic's authors.
    const plan = planQuestion('Who are the co-authors most active on emicizumab?', 'bibliometric');
    expect(plan.operation).not.toBe('coauthors');
    expect(plan.person).toBeNull();
  });

  it('checks an LLM plan against the same schema', () => {
    const {
      source: _source,
      reason: _reason,
      ...fields
    } = planQuestion('Which journals publish on aspirin?', 'bibliometric');
    expect(planSchema.safeParse(fields).success).toBe(true);
    expect(planSchema.safeParse({ ...fields, operation: 'drop_database' }).success).toBe(false);
    expect(planSchema.safeParse({ ...fields, yearFrom: 3_000_000_000 }).success).toBe(false);
    expect(planSchema.safeParse({ ...fields, extra: 1 }).success).toBe(false);
  });
});

describe('comparison verdicts', () => {
  const side = (label: string, value: number) => ({
    id: label,
    label,
    value,
    detail: `${label}: ${value}`,
    papers: [],
  });
  const verdict = (measure: string, a: number, b: number): string => {
    const outcome = comparison(measure, [side('Ann Lee', a), side('Bo Kim', b)], null);
    return 'sentences' in outcome ? outcome.sentences[0]!.text : outcome.refusal;
  };
  it('says more of a count and a higher h-index, larger first, and a tie as one', () => {
    expect(verdict('papers in the graph', 3, 5)).toBe('Bo Kim has more papers in the graph than Ann Lee: 5 against 3.');
    expect(verdict('h-index (global citations)', 21, 12)).toBe(
      'Ann Lee has a higher h-index (global citations) than Bo Kim: 21 against 12.',
    );
    expect(verdict('h-index (global citations)', 4, 4)).toBe(
      'Ann Lee and Bo Kim are level on h-index (global citations) (4 each).',
    );
  });
});

describe('growth figures agree with the counts they summarise', () => {
  const series = (counts: number[], from = 2000, complete = 2100) =>
    yearSeries(
      counts.map((count, i) => ({ year: from + i, count })),
      from,
      from + counts.length - 1,
      complete,
    );

  it('compounds the means of the first and last three years over the years between their centres', () => {
    // 2000–2002 average 10, 2008–2010 average 20, centres 2001 and 2009.
    const growth = smoothedGrowth(series([9, 10, 11, 0, 50, 0, 0, 0, 19, 20, 21]))!;
    expect(growth.early).toEqual({ from: 2000, to: 2002, mean: 10 });
    expect(growth.late).toEqual({ from: 2008, to: 2010, mean: 20 });
    expect(growth.rate).toBeCloseTo(2 ** (1 / 8) - 1, 10);
  });

  it('is not decided by one odd year at an end', () => {
    // The shape that gave 0 from the end years alone: a series peaking at 39 papers that ends where it began.
    const peaked = series([3, 8, 15, 27, 39, 30, 12, 3]);
    const endYearsOnly = (3 / 3) ** (1 / 7) - 1;
    expect(endYearsOnly).toBe(0);
    expect(smoothedGrowth(peaked)!.rate).toBeGreaterThan(0);
    // A last year far below its neighbours moves the figure far less than two single years would.
    const dip = smoothedGrowth(series([10, 10, 10, 20, 20, 2]))!.rate;
    expect(dip).toBeGreaterThan(0);
  });

  it('starts at the first year with papers and leaves incomplete years out', () => {
    const late = smoothedGrowth(series([0, 0, 4, 4, 8, 8]))!;
    expect(late.early.from).toBe(2002);
    const withPartial = series([4, 4, 8, 8, 1], 2020, 2023);
    expect(withPartial.map((point) => point.partial)).toEqual([false, false, false, false, true]);
    expect(smoothedGrowth(withPartial)!.late).toEqual({ from: 2022, to: 2023, mean: 8 });
    expect(smoothedGrowth(series([0, 0, 5]))).toBeNull();
    expect(smoothedGrowth(series([0, 0, 0]))).toBeNull();
    expect(smoothedGrowth(series([5, 0, 0, 0]))!.rate).toBe(-1);
    // Too thin a base: one paper in the early years.
    expect(smoothedGrowth(series([1, 0, 0, 0, 0, 0, 0, 1]))).toBeNull();
  });
});

describe('same person, one line', () => {
  it('merges author records that share an ORCID and flags same-name records without one', () => {
    const people = mergeByOrcid([
      { id: 'A1', name: 'Midori Shima', orcid: '0000-0001', count: 19 },
      { id: 'A2', name: 'Midori Shima', orcid: null, count: 17 },
      { id: 'A3', name: 'M. Shima', orcid: '0000-0001', count: 2 },
      { id: 'A4', name: 'Keiji Nogami', orcid: null, count: 18 },
    ]);
    expect(people.map((p) => [p.id, p.count, p.ids])).toEqual([
      ['A1', 21, ['A1', 'A3']],
      ['A4', 18, ['A4']],
      ['A2', 17, ['A2']],
    ]);
    expect(people[0]!.possiblySame).toEqual(['A2']);
    expect(people[2]!.possiblySame).toEqual(['A1']);
    expect(people[1]!.possiblySame).toEqual([]);
  });
});

describe('relational sufficiency', () => {
  it('cuts noun phrases into specific concepts', () => {
    const phrases = questionConcepts('What dose of emicizumab is used to treat borderline personality disorder?').map(
      (c) => c.phrase,
    );
    expect(phrases).toEqual(['emicizumab', 'borderline personality disorder']);
    expect(stem('cytosolic')).toBe(stem('cytosol'));
    expect(stem('statins')).toBe(stem('statin'));
  });

  it('keeps the rarest known concepts as the key ones', () => {
    const concepts = questionConcepts(
      'Does hormone replacement therapy prevent inhibitor development in haemophilia A?',
    );
    const counts: Record<string, number> = { 'hormone replacement therapy': 120, inhibitor: 300, haemophilia: 250 };
    const key = keyConcepts(concepts, (c) => counts[c.phrase] ?? 0);
    expect(key.map((c) => c.phrase)).toEqual(['hormone replacement therapy', 'inhibitor', 'haemophilia']);
    expect(keyConcepts(concepts, () => 1)).toEqual([]);
  });

  it('names the pairs nothing connects, and passes pairs joined by a paper or a citation', () => {
    const [a, b, c] = [
      { phrase: 'emicizumab', words: ['emicizumab'], stems: ['emiciz'] },
      { phrase: 'borderline personality disorder', words: ['borderline', 'personality', 'disorder'], stems: [] },
      { phrase: 'haemophilia', words: ['haemophilia'], stems: ['haemop'] },
    ];
    const trap = judgeConnection([a, b], [a, b], new Map([['0|1', { together: [], cited: false }]]), []);
    expect(trap.unconnected).toEqual([['emicizumab', 'borderline personality disorder']]);
    expect(trap.score).toBe(0);
    expect(trap.reason).toContain('"emicizumab" with "borderline personality disorder"');
    const joined = judgeConnection(
      [a, c, b],
      [a, c, b],
      new Map([
        ['0|1', { together: ['W1'], cited: false }],
        ['0|2', { together: [], cited: true }],
        ['1|2', { together: [], cited: false }],
      ]),
      [],
    );
    expect(joined.unconnected).toEqual([['haemophilia', 'borderline personality disorder']]);
    expect(joined.score).toBe(67);
    const one = judgeConnection([a], [a], new Map(), []);
    expect(one.unconnected).toEqual([]);
    expect(one.score).toBe(100);
  });

  it('keeps the papers through which a pair is connected, only when every pair is', () => {
    const [a, b, c] = [
      { phrase: 'mentalization', words: ['mentalization'], stems: ['mental'] },
      { phrase: 'hospital admissions', words: ['hospital', 'admissions'], stems: ['hospit', 'admiss'] },
      { phrase: 'haemophilia', words: ['haemophilia'], stems: ['haemop'] },
    ];
    const through = judgeConnection(
      [a, b],
      [a, b],
      new Map([['0|1', { together: [], cited: true, bridging: ['W9'] }]]),
      [],
    );
    expect(through.bridgingPapers).toEqual(['W9']);
    expect(through.connectingPapers).toEqual([]);
    expect(through.reason).toContain('through citations');
    const partly = judgeConnection(
      [a, b, c],
      [a, b, c],
      new Map([
        ['0|1', { together: [], cited: true, bridging: ['W9'] }],
        ['0|2', { together: [], cited: false, bridging: [] }],
        ['1|2', { together: ['W1'], cited: false }],
      ]),
      [],
    );
    expect(partly.unconnected).toEqual([['mentalization', 'haemophilia']]);
    expect(partly.bridgingPapers).toEqual([]);
  });

  it('takes a paper as naming a concept in its own words when it holds the rarer half of its words', () => {
    const rarity: Record<string, number> = { bbb: 6, breakdown: 2, estrogen: 5, therapy: 1, gpr124: 8 };
    const weight = (word: string) => rarity[word] ?? 3;
    const bbb = { phrase: 'bbb breakdown', words: ['bbb', 'breakdown'], stems: ['bbb', 'breakdown'] };
    const estrogen = { phrase: 'estrogen therapy', words: ['estrogen', 'therapy'], stems: ['estrogen', 'therapi'] };
    const gpr = { phrase: 'gpr124', words: ['gpr124'], stems: ['gpr124'] };
    const integrity = { id: 'W1', text: 'Gpr124 is essential for BBB integrity in ischemic stroke.' };
    const psychotherapy = { id: 'W2', text: 'Dialectical behaviour therapy reduces self-harm.' };
    expect(directMatch([integrity], [bbb, gpr], weight)).toBe('W1');
    // "therapy" is the common half of "estrogen therapy": a paper on another therapy does not name it.
    expect(directMatch([psychotherapy], [estrogen], weight)).toBeNull();
    // Every concept must be named: the first paper that names them all.
    expect(directMatch([psychotherapy, integrity], [gpr, bbb], weight)).toBe('W1');
    expect(directMatch([integrity], [gpr, estrogen], weight)).toBeNull();
    // Allowed one unnamed concept, a paper naming a rarer one passes; the rarest one unnamed, or none named, never.
    const bbbOnly = { id: 'W3', text: 'BBB breakdown follows ischemic stroke.' };
    expect(directMatch([integrity], [gpr, estrogen], weight, 1)).toBe('W1');
    expect(directMatch([bbbOnly], [bbb, estrogen], weight, 1)).toBe('W3');
    expect(directMatch([bbbOnly], [bbb, gpr], weight, 1)).toBeNull();
    expect(directMatch([psychotherapy], [gpr, estrogen], weight, 1)).toBeNull();
    expect(directMatch([psychotherapy], [estrogen], weight, 1)).toBeNull();
  });
});

describe('extractive sentence roles', () => {
  it('prefers what a study found to what it set out to do', () => {
    expect(sentenceRole('RESULTS Of the 32,441 appendix samples 16 were positive for abnormal PrP.')).toBe(1);
    expect(sentenceRole('Conclusions and Relevance Among women aged 30 to 44 years, biomarkers did not predict.')).toBe(
      1,
    );
    expect(sentenceRole('Here we show that Cdk5 directly phosphorylates ATM.')).toBe(1);
    expect(sentenceRole('Hazard ratio 1.67 (95% CI 1.56-1.79) for age.')).toBe(1);
    expect(sentenceRole('OBJECTIVE To determine whether high doses of folic acid reduce mortality.')).toBe(-1);
    expect(sentenceRole('MAIN OUTCOME MEASURE Level of ATP 1 hour after fructose infusion.')).toBe(-1);
    expect(sentenceRole('The aim of this study was to confirm the presence of stem cells.')).toBe(-1);
    expect(sentenceRole('We investigated a strategy of universal voluntary HIV testing.')).toBe(-1);
    // A review's search is how it was done, not what it found.
    expect(sentenceRole('We systematically searched Medline and Embase through October 2019 for cohort studies.')).toBe(
      -1,
    );
    expect(sentenceRole('Electronic databases were searched up to 2015.')).toBe(-1);
    expect(sentenceRole('Visual impairment in this age group can usually be reduced with treatment.')).toBe(0);
  });

  it('quotes a sentence without the label of its structured abstract, and only that label', () => {
    expect(withoutLabel('CONCLUSION Treatment with high doses of folic acid did not improve survival.')).toBe(
      'Treatment with high doses of folic acid did not improve survival.',
    );
    expect(withoutLabel('DESIGN, SETTING, AND PATIENTS Retrospective analysis of two cohorts.')).toBe(
      'Retrospective analysis of two cohorts.',
    );
    expect(withoutLabel('RESULTS: Of the 32,441 samples 16 were positive.')).toBe(
      'Of the 32,441 samples 16 were positive.',
    );
    expect(withoutLabel('DNA methylation silences HAND2.')).toBe('DNA methylation silences HAND2.');
    expect(withoutLabel('CONTEXTUAL factors matter.')).toBe('CONTEXTUAL factors matter.');
    // JAMA's labels in title case, followed by a capitalised word; "Results showed" is a sentence.
    expect(withoutLabel('Main Outcomes and Measures Sepsis incidence and trends were calculated.')).toBe(
      'Sepsis incidence and trends were calculated.',
    );
    expect(withoutLabel('Conclusions and Relevance In this cohort, sepsis incidence did not fall.')).toBe(
      'In this cohort, sepsis incidence did not fall.',
    );
    expect(withoutLabel('Results showed no change.')).toBe('Results showed no change.');
    expect(sentenceRole('Main Outcomes and Measures Sepsis incidence and trends were calculated.')).toBe(-1);
  });
});

describe('router: rules and the embedding classifier', () => {
  it('learns a separable labelling and reports its confidence', () => {
    const vector = (...values: number[]) => Float32Array.from(values);
    const data = [
      [vector(1, 0, 0, 0), 'content'],
      [vector(0.9, 0.1, 0, 0), 'content'],
      [vector(0, 1, 0, 0), 'bibliometric'],
      [vector(0.1, 0.9, 0, 0), 'bibliometric'],
      [vector(0, 0, 1, 0), 'trend'],
      [vector(0, 0.1, 0.9, 0), 'trend'],
      [vector(0, 0, 0, 1), 'current_world'],
      [vector(0, 0, 0.1, 0.9), 'current_world'],
    ] as const;
    const model = RouteClassifier.train(
      data.map(([v]) => v),
      data.map(([, route]) => route),
    );
    for (const [v, route] of data) expect(model.predict(v).route).toBe(route);
    const guess = model.predict(vector(0, 0, 0, 1));
    expect(guess.confidence).toBeGreaterThan(0.5);
    expect(Object.values(guess.probabilities).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
  });

  it('lets a confident classifier overrule a cue, and the cue decide when it is unsure', () => {
    const rules = routeQuestion('What is the current density limit of lithium anodes?');
    expect(rules.route).toBe('current_world');
    const probabilities = { content: 0.8, bibliometric: 0.1, trend: 0.05, current_world: 0.05 };
    const confident = combineRoute(rules, { route: 'content', confidence: 0.8, probabilities });
    expect(confident.route).toBe('content');
    expect(confident.reasons[0]).toMatch(/^classifier: content \(p 0\.80\)/);
    const unsure = combineRoute(rules, { route: 'content', confidence: CLASSIFIER_TRUST - 0.1, probabilities });
    expect(unsure.route).toBe('current_world');
    // No cue at all: the classifier's best guess, however unsure.
    const none = combineRoute(routeQuestion('Does emicizumab prevent joint bleeds?'), {
      route: 'trend',
      confidence: 0.3,
      probabilities,
    });
    expect(none.route).toBe('trend');
    // …but an unsure guess of the current world, with no cue of the present, stays on content.
    const market = routeQuestion('What makes trastuzumab biosimilars hard to bring to market?');
    expect(market.route).toBe('content');
    const news = { content: 0.3, bibliometric: 0.1, trend: 0.1, current_world: 0.5 };
    expect(combineRoute(market, { route: 'current_world', confidence: 0.4, probabilities: news }).route).toBe(
      'content',
    );
    expect(combineRoute(market, { route: 'current_world', confidence: 0.7, probabilities: news }).route).toBe(
      'current_world',
    );
    expect(routeQuestion('What is the market share of biosimilar infliximab?').route).toBe('current_world');
    // A confident guess of the current world needs a word of the present somewhere: the cost of a disease is a
    // question for the economic studies the graph holds, the price of a drug right now is not.
    const cost = 'What does glaucoma cost Australia, and would earlier detection save money?';
    const sure = { route: 'current_world' as const, confidence: 0.71, probabilities: news };
    expect(combineRoute(routeQuestion(cost), sure, routeOptions(cost, routeQuestion(cost))).route).toBe('content');
    // "Who" and "nice" are words of any question; the WHO and NICE are agencies of the present.
    const who = 'Who showed that glaucoma costs Australia a nice sum?';
    expect(combineRoute(routeQuestion(who), sure, routeOptions(who, routeQuestion(who))).route).not.toBe(
      'current_world',
    );
    const nice = 'What has NICE said about glaucoma screening?';
    expect(combineRoute(routeQuestion(nice), sure, routeOptions(nice, routeQuestion(nice))).route).toBe(
      'current_world',
    );
    const price = 'What does a course of trastuzumab cost in Germany these days?';
    expect(combineRoute(routeQuestion(price), sure, routeOptions(price, routeQuestion(price))).route).toBe(
      'current_world',
    );
  });

  it('keeps an assertion to check on the content route unless the classifier is sure or a rule cue says otherwise', () => {
    const claim = 'Antiretroviral therapy increases rates of tuberculosis across a broad range of CD4 strata.';
    expect(isAssertion(claim)).toBe(true);
    const probabilities = { content: 0.3, bibliometric: 0.1, trend: 0.45, current_world: 0.15 };
    const unsure = { route: 'trend' as const, confidence: 0.45, probabilities };
    expect(combineRoute(routeQuestion(claim), unsure, routeOptions(claim, routeQuestion(claim))).route).toBe('content');
    expect(
      combineRoute(routeQuestion(claim), { ...unsure, confidence: 0.7 }, routeOptions(claim, routeQuestion(claim)))
        .route,
    ).toBe('trend');
    // A cue-like noun in a claim ("countries") plans no ranking; the same noun in a request does.
    const countries =
      '76-85% of people with severe mental disorder receive no treatment in low and middle income countries.';
    expect(definitelyBibliometric(countries, routeQuestion(countries))).toMatch(/^top_countries/);
    expect(routeOptions(countries, routeQuestion(countries)).definite).toBeNull();
    // Questions and requests are not assertions, with or without a full stop.
    for (const text of [
      'Does emicizumab prevent joint bleeds?',
      'List the top institutions on hair cortisol.',
      'Show the trend of schema therapy papers.',
      'Top venues for emicizumab research',
    ]) {
      expect(isAssertion(text)).toBe(false);
    }
  });
});

describe('phrasings of the dev2 batch (written before tuning, then tuned on)', () => {
  it('takes a possessive off a name, and reads co-authorship ties and momentum as their operations', () => {
    expect(planQuestion("Who are Clemens Kirschbaum's most frequent collaborators?", 'bibliometric')).toMatchObject({
      operation: 'coauthors',
      person: 'Clemens Kirschbaum',
    });
    expect(
      planQuestion(
        'How are borderline personality disorder researchers connected through co-authorship?',
        'bibliometric',
      ),
    ).toMatchObject({ operation: 'collaboration_network', topic: 'borderline personality disorder' });
    expect(planQuestion('Which subtopics of cartilage repair are gaining momentum recently?', 'trend')).toMatchObject({
      operation: 'emerging_topics',
      topic: 'cartilage repair',
    });
  });

  it('reads the size of a literature as a count, and routes it as bibliometric whatever the classifier says', () => {
    expect(planQuestion('Roughly how big is the literature on intrathecal baclofen here?', 'trend')).toMatchObject({
      operation: 'count_papers',
      topic: 'intrathecal baclofen',
    });
    expect(routeQuestion('Roughly how big is the literature on intrathecal baclofen here?').route).toBe('bibliometric');
    const rules = routeQuestion('Roughly how big is the literature on intrathecal baclofen here?');
    const guess = {
      route: 'trend' as const,
      confidence: 0.9,
      probabilities: { content: 0.02, bibliometric: 0.05, trend: 0.9, current_world: 0.03 },
    };
    const size = 'Roughly how big is the literature on intrathecal baclofen here?';
    expect(combineRoute(rules, guess, { definite: definitelyBibliometric(size, rules) }).route).toBe('bibliometric');
    // "How many patients …" is about content: no literature-size override.
    const patients = 'How many patients with haemophilia develop inhibitors?';
    expect(definitelyBibliometric(patients, routeQuestion(patients))).toBeNull();
  });

  it('keeps subjects the tagger drops: a compound modifier, a noun read as a verb after a modal', () => {
    const phrases = (q: string) => questionConcepts(q).map((c) => c.phrase);
    expect(phrases('Does mentalization-based treatment reduce joint bleeding in haemophilia?')).toEqual([
      'mentalization',
      'joint',
      'haemophilia',
    ]);
    expect(phrases('Can schema therapy regenerate articular cartilage?')).toEqual([
      'schema therapy',
      'articular cartilage',
    ]);
    // Verbs stay out ("reduce", "lower"), also when the tagger reads one as a noun after a word it does not know.
    expect(phrases('Do statins lower cholesterol in women?')).toEqual(['statins', 'cholesterol']);
    // The subject of a yes-or-no question before a verb of effect, whatever the tagger makes of a drug name in -ate.
    expect(phrases('Does risedronate reduce fractures in men?')).toEqual(['risedronate', 'fractures']);
    expect(phrases('Can ibandronate delay vertebral fractures?')).toEqual(['ibandronate', 'vertebral fractures']);
    // "The chance of", like "the risk of", frames a subject and is none.
    expect(phrases('Do statins raise the chance of diabetes?')).toEqual(['statins', 'diabetes']);
    // An acronym the question defines is one concept with its long form, named by either.
    const ampk = questionConcepts('AMP-activated protein kinase (AMPK) activation reduces fibrosis in the lungs.');
    expect(ampk[0]).toMatchObject({ phrase: 'amp activated protein kinase', alias: ['ampk'] });
    expect(questionConcepts('A T helper 2 cell (Th2) environment impedes lupus.')[0]).toMatchObject({
      phrase: 'helper cell',
      alias: ['th2'],
    });
    expect(mentions(new Set(['ampk', 'fibrosi'].map(stem)), ampk[0]!)).toBe(true);
    expect(namesConcept('AMPK activity is lower in fibrotic regions.', ampk[0]!)).toBe(true);
    // A parenthesis that abbreviates nothing stays where it is.
    expect(withoutDefinedAcronyms('Is the drug (tizanidine) effective in spasticity (OR 2.1)?')).toBe(
      'Is the drug (tizanidine) effective in spasticity (OR 2.1)?',
    );
    // Degrees ("the fewest") say what is asked of a subject, not which.
    expect(phrases('Which knee cartilage repair procedure leads to the fewest reoperations?')).not.toContain(
      'fewest reoperations',
    );
    expect(phrases('Does switching to a biosimilar improve bone density in rats?')).toEqual([
      'biosimilar',
      'bone density',
      'rats',
    ]);
  });
});

describe('phrasings of the dev3 batch (written before tuning, then tuned on)', () => {
  const phrases = (q: string) => questionConcepts(q).map((c) => c.phrase);

  it('keeps an adjective that names a kind of subject, and a therapy named by its specific words', () => {
    expect(phrases('Is emicizumab effective for neuropathic pain?')).toEqual(['emicizumab', 'neuropathic pain']);
    expect(phrases('Does autologous chondrocyte implantation reduce suicidal ideation?')).toEqual([
      'autologous chondrocyte implantation',
      'suicidal ideation',
    ]);
    // "dialectical" sits outside the tagger's noun phrase; "obese" before a generic word and "effective" after its
    // noun name no subject; "therapy" alone is generic, after specific words it is part of the name.
    expect(phrases('Does dialectical behavior therapy lower hair cortisol in obese children?')).toEqual([
      'dialectical behavior therapy',
      'hair cortisol',
    ]);
    // Participles say what happens to a subject: "developing diabetes" is about diabetes.
    expect(phrases('A mutation in HNF4A leads to an increased risk of developing diabetes.')).toEqual([
      'mutation',
      'hnf4a',
      'diabetes',
    ]);
    // The kind is optional for knowing the subject at all: its core is what the graph must hold.
    const [support] = questionConcepts('Is allogeneic mechanical circulatory support safe?');
    expect(support).toMatchObject({
      phrase: 'allogeneic mechanical circulatory support',
      core: ['mechanical', 'circulatory', 'support'],
    });
  });

  it('tells inflections of a word from other words that share its stem', () => {
    expect(sameWord('implantation', 'implanted')).toBe(true);
    expect(sameWord('neuropathic', 'neuropathy')).toBe(true);
    expect(sameWord('behaviour', 'behavior')).toBe(true);
    expect(sameWord('infectiveness', 'infectiousness')).toBe(true);
    // The index stems both to "mental"; a paper on mental health is not one on mentalization.
    expect(sameWord('mentalization', 'mental')).toBe(false);
    expect(sameWord('pain', 'paint')).toBe(false);
  });

  it('connects concepts only where one sentence names each of them', () => {
    const [schema, cartilage] = questionConcepts('Can schema therapy regenerate articular cartilage?');
    // A cartilage paper grading defects by a "Schema" and, elsewhere, treating them by cell therapy.
    const scattered =
      'Autologous chondrocyte implantation for articular cartilage defects. Die Schwere wurde durch das ICRS-Schema ' +
      'bestimmt. Cell therapy restored the joint surface.';
    expect(connectsConcepts(scattered, [schema!, cartilage!])).toBe(false);
    expect(namesConcept(scattered, cartilage!)).toBe(true);
    const connected =
      'Schema therapy for patients with articular cartilage damage. Pain catastrophising fell after treatment.';
    expect(connectsConcepts(connected, [schema!, cartilage!])).toBe(true);
    // Any order within the sentence, inflected: "insulin signaling" in "(insulin) and nutritional signals".
    const [insulin] = questionConcepts('Is insulin signaling involved?');
    expect(
      namesConcept('Progenitors are direct targets of systemic (insulin) and nutritional signals.', insulin!),
    ).toBe(true);
  });
});

describe('topic-set seeds', () => {
  it('asks Lucene for papers holding most of the words: all of one or two, any two thirds of more', () => {
    expect(mostWordsQuery(['hair'])).toBe('+hair');
    expect(mostWordsQuery(['hair', 'cortisol'])).toBe('+hair +cortisol');
    expect(mostWordsQuery(['a', 'b', 'c'])).toBe('(+a +b) (+a +c) (+b +c)');
    expect(mostWordsQuery(['a', 'b', 'c', 'd']).split(') (')).toHaveLength(4); // any 3 of 4
  });

  it('keeps at most 64 alternatives by dropping the last words', () => {
    const words = 'one two three four five six seven eight nine ten eleven twelve'.split(' ');
    const groups = mostWordsQuery(words).split(') (');
    expect(groups.length).toBeLessThanOrEqual(64);
    expect(groups.length).toBeGreaterThan(1);
    expect(mostWordsQuery(words)).not.toMatch(/twelve/);
  });

  it('takes the normalised mean of unit vectors, and none of nothing', () => {
    const mean = meanVector([Float32Array.from([1, 0]), Float32Array.from([0, 1])])!;
    expect(mean[0]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(mean[1]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(meanVector([])).toBeNull();
    expect(meanVector([Float32Array.from([1, 0]), Float32Array.from([-1, 0])])).toBeNull();
  });
});

describe('plans that compare and follow citations', () => {
  it('reads two windows of years, as ranges or decades, and no fewer or more', () => {
    expect(periodsIn('papers on sleep in 2001-2005 against 2006 to 2010')).toEqual([
      { from: 2001, to: 2005 },
      { from: 2006, to: 2010 },
    ]);
    expect(periodsIn('the 1980s or the 2000s')).toEqual([
      { from: 1980, to: 1989 },
      { from: 2000, to: 2009 },
    ]);
    expect(periodsIn('papers since 2010')).toBeNull();
    expect(periodsIn('1990-1994, 1995-1999 and 2000-2004')).toBeNull();
  });

  it('splits two compared topics at "or", "versus" and "than"', () => {
    expect(twoTopics('Is there more research on insulin pumps or on islet transplantation?')).toEqual([
      'insulin pumps',
      'islet transplantation',
    ]);
    expect(twoTopics('Which is the bigger field here: malaria vaccines versus bed nets?')).toEqual([
      'malaria vaccines',
      'bed nets',
    ]);
    expect(twoTopics('How many papers on asthma?')).toBeNull();
  });

  it('plans comparisons of topics, people and periods, and citing and cited works of a named study', () => {
    expect(
      planQuestion('Are there more papers about insulin pumps or about islet transplantation?', 'bibliometric'),
    ).toMatchObject({ operation: 'compare_topics', topic: 'insulin pumps', second: 'islet transplantation' });
    expect(planQuestion('Compare the h-index of Jane Goodall and Dian Fossey.', 'bibliometric')).toMatchObject({
      operation: 'compare_people',
      person: 'Jane Goodall',
      second: 'Dian Fossey',
    });
    expect(
      planQuestion('Were more papers on malaria vaccines published in 2001-2005 than in 2006-2010?', 'trend'),
    ).toMatchObject({
      operation: 'compare_periods',
      topic: 'malaria vaccines',
      periods: [
        { from: 2001, to: 2005 },
        { from: 2006, to: 2010 },
      ],
      yearFrom: null,
      yearTo: null,
    });
    expect(planQuestion('Which papers in the graph cite the SPRINT trial?', 'bibliometric')).toMatchObject({
      operation: 'derivative_works',
      paper: 'SPRINT',
    });
    expect(planQuestion('What earlier studies does the SPRINT trial rely on?', 'bibliometric')).toMatchObject({
      operation: 'prior_works',
      paper: 'SPRINT',
    });
    // Co-citation stays a relation, not a citing list.
    expect(planQuestion('Which papers are co-cited with the SPRINT trial?', 'bibliometric')).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
    });
  });
});

describe('plans in two steps', () => {
  it('reaches a person or a paper through a ranking on the topic', () => {
    expect(firstStepIn('What is the h-index of the most prolific author on sleep apnea?')).toBe('most_prolific_author');
    expect(firstStepIn('Who co-authored most with the most cited researcher in glaucoma?')).toBe('most_cited_author');
    expect(firstStepIn('Which papers are co-cited with the most cited glaucoma paper?')).toBe('most_cited_paper');
    expect(firstStepIn('How many papers on glaucoma are there?')).toBeNull();
    // The ranking after the person or paper it finds: "the author with the most … papers".
    expect(firstStepIn('Take the author with the most glaucoma papers - what is their h-index?')).toBe(
      'most_prolific_author',
    );
    expect(firstStepIn('Who co-authors with the researcher who has the most citations in glaucoma?')).toBe(
      'most_cited_author',
    );
    expect(firstStepIn('Which papers cite the paper with the most citations on glaucoma?')).toBe('most_cited_paper');
    expect(firstStepIn('Which is the paper with the most glaucoma studies citing it?')).toBeNull();
    // "Who has the most …, and what is their …?": the person the ranking finds, then asked about.
    expect(firstStepIn('Who has the most papers on glaucoma, and what is their h-index?')).toBe('most_prolific_author');
    expect(firstStepIn('Who is cited most in glaucoma, and who are their co-authors?')).toBe('most_cited_author');
    expect(planQuestion('Who has the most papers on glaucoma?', 'bibliometric')).toMatchObject({
      operation: 'top_authors',
      firstStep: null,
    });
    expect(
      planQuestion('Who has the most papers on glaucoma, and what is their h-index?', 'bibliometric'),
    ).toMatchObject({ operation: 'author_metrics', topic: 'glaucoma', firstStep: 'most_prolific_author' });
  });

  it('plans the operation on the person or paper the first step finds', () => {
    expect(
      planQuestion('What is the h-index of the most prolific author on sleep apnea?', 'bibliometric'),
    ).toMatchObject({
      operation: 'author_metrics',
      person: null,
      topic: 'sleep apnea',
      firstStep: 'most_prolific_author',
    });
    expect(
      planQuestion('Who are the co-authors of the most productive glaucoma researcher?', 'bibliometric'),
    ).toMatchObject({ operation: 'coauthors', topic: 'glaucoma', firstStep: 'most_prolific_author' });
    expect(
      planQuestion('Which papers are cited together with the most cited glaucoma paper?', 'bibliometric'),
    ).toMatchObject({
      operation: 'related_papers',
      relation: 'cocited',
      topic: 'glaucoma',
      firstStep: 'most_cited_paper',
    });
    // A ranking asked for is a ranking, not a first step.
    expect(planQuestion('Who is the most cited author on glaucoma?', 'bibliometric')).toMatchObject({
      operation: 'top_authors',
      firstStep: null,
    });
  });
});

describe('plans for the science-of-science measures', () => {
  const plan = (question: string) => planQuestion(question, 'bibliometric');

  it('reads Lotka, Bradford, disruption and countries as operations on the topic', () => {
    expect(plan('Is author productivity in glaucoma research consistent with Lotka’s law?')).toMatchObject({
      operation: 'lotka',
      topic: 'glaucoma',
    });
    expect(plan('What proportion of the authors publishing on sleep apnea wrote just one paper?')).toMatchObject({
      operation: 'lotka',
      topic: 'sleep apnea',
    });
    expect(plan('Which are the core journals of the sleep apnea literature by Bradford’s law?')).toMatchObject({
      operation: 'bradford',
      topic: 'sleep apnea',
    });
    expect(plan('How scattered over journals is research on glaucoma?')).toMatchObject({ operation: 'bradford' });
    expect(plan('Which glaucoma studies are the most disruptive?')).toMatchObject({
      operation: 'disruptive_papers',
      topic: 'glaucoma',
    });
    expect(plan('Which nations produce the most sleep apnea papers?')).toMatchObject({
      operation: 'top_countries',
      topic: 'sleep apnea',
    });
  });

  it('reads sleeping beauties, main paths, research fronts, bursts and normalised impact', () => {
    expect(plan('Which glaucoma papers are sleeping beauties?')).toMatchObject({
      operation: 'sleeping_beauties',
      topic: 'glaucoma',
    });
    expect(plan('What is the main path through the sleep apnea literature?')).toMatchObject({
      operation: 'main_path',
      topic: 'sleep apnea',
    });
    expect(plan('Into which schools of thought does glaucoma research split?')).toMatchObject({
      operation: 'research_fronts',
      topic: 'glaucoma',
    });
    expect(plan('Which subtopics of sleep apnea research burst?')).toMatchObject({
      operation: 'topic_bursts',
      topic: 'sleep apnea',
    });
    expect(plan('Which glaucoma papers have the highest field-weighted citation impact?')).toMatchObject({
      operation: 'normalised_impact',
      topic: 'glaucoma',
    });
    // Measure names that share words with subjects leave those subjects whole.
    expect(plan('Which papers on object recognition memory were overlooked for years?')).toMatchObject({
      operation: 'sleeping_beauties',
      topic: 'object recognition memory',
    });
    expect(plan('How many papers on spine surgery are there?').topic).toBe('spine surgery');
    expect(plan('How many papers on body mass index and glaucoma are there?').topic).toBe('body mass index glaucoma');
    expect(plan('Who are the most cited authors on polymerase chain reaction in sepsis?').topic).toBe(
      'polymerase chain reaction sepsis',
    );
    expect(plan('Which papers on real-world evidence for glaucoma drops are most cited?').topic).toBe(
      'real world evidence glaucoma drops',
    );
    expect(plan('Who are the most cited authors on sudden cardiac death?').topic).toBe('sudden cardiac death');
  });

  it('leaves words that only look like the measures to the topic', () => {
    // Memory consolidation and disruptive behaviour are subjects, not the CD index.
    expect(plan('Who are the most cited authors on memory consolidation?')).toMatchObject({
      operation: 'top_authors',
      topic: 'memory consolidation',
    });
    expect(plan('Which papers on disruptive behaviour disorder are cited most?').operation).toBe('top_papers');
    // Institutions are not countries.
    expect(plan('Which universities publish most on glaucoma?').operation).toBe('top_institutions');
  });

  it('compares the growth of two topics over the window asked', () => {
    expect(plan('Has glaucoma research grown faster than sleep apnea research since 2005?')).toMatchObject({
      operation: 'compare_topics_trend',
      topic: 'glaucoma',
      second: 'sleep apnea',
      yearFrom: 2005,
      yearTo: null,
    });
    expect(plan('Between 2000 and 2010, which grew more quickly: glaucoma or sleep apnea?')).toMatchObject({
      operation: 'compare_topics_trend',
      topic: 'glaucoma',
      second: 'sleep apnea',
      yearFrom: 2000,
      yearTo: 2010,
    });
    // One topic is a trend, not a comparison.
    expect(planQuestion('How fast has glaucoma research grown since 2005?', 'trend').operation).toBe('topic_trend');
  });

  it('finds the two papers of a citation path, by name, DOI or description, and plans no path without two', () => {
    expect(
      twoPapersIn('Is there a chain of citations from the EAGLE trial to the 2004 review of laser iridotomy?'),
    ).toEqual(['EAGLE', '2004 review of laser iridotomy']);
    expect(twoPapersIn('Are 10.1000/abc.1 and 10.1000/xyz.2 linked by citations?')).toEqual([
      '10.1000/abc.1',
      '10.1000/xyz.2',
    ]);
    expect(
      plan('How is the 2012 sleep apnea cohort study connected to the CPAP trial of 2016 through citations?'),
    ).toMatchObject({
      operation: 'citation_path',
      paper: '2012 sleep apnea cohort study',
      second: 'CPAP trial of 2016',
      yearFrom: null,
      yearTo: null,
    });
    expect(plan('Is there a citation path in glaucoma research?').operation).not.toBe('citation_path');
  });
});

describe('routes that name sources or the present', () => {
  const probabilities = { content: 0.05, bibliometric: 0.05, trend: 0.85, current_world: 0.05 };

  it('masks search engines and journal names before reading cues', () => {
    expect(maskSourceNames('What do Web of Science-indexed trials say about glaucoma drops?')).toBe(
      'What do the source trials say about glaucoma drops?',
    );
    expect(maskSourceNames('What did the Journal of Sleep Research report on apnea?')).toBe(
      'What did the the source report on apnea?',
    );
    expect(routeQuestion('What do Google Scholar papers say about glaucoma drops and eye pressure?').route).toBe(
      'content',
    );
    // A question about journals still is one.
    expect(routeQuestion('Which journals publish most on glaucoma?').route).toBe('bibliometric');
  });

  it('keeps a question about this week or a recent award on the current-world route, whatever the classifier says', () => {
    for (const question of [
      'Which glaucoma papers are trending this week?',
      'Who received the latest prize for sleep apnea research?',
    ]) {
      const rules = routeQuestion(question);
      const combined = combineRoute(
        rules,
        { route: 'trend', confidence: 0.85, probabilities },
        routeOptions(question, rules),
      );
      expect(combined.route).toBe('current_world');
      expect(combined.reasons[0]).toMatch(/asks about the present/);
    }
    // "Recent" alone is a cue the classifier may overrule ("recent papers on glaucoma" asks about the literature).
    const question = 'Which recent papers on glaucoma are cited most?';
    const rules = routeQuestion(question);
    expect(
      combineRoute(rules, { route: 'bibliometric', confidence: 0.85, probabilities }, routeOptions(question, rules))
        .route,
    ).toBe('bibliometric');
  });
});

describe('phrasings of the v6 batch (written before tuning, then tuned on)', () => {
  const plan = (question: string, route: 'bibliometric' | 'trend' = 'bibliometric') => planQuestion(question, route);

  it('ranks people by citations when asked who is cited most, by global counts unless the graph is named', () => {
    expect(plan('Which biosimilar switching researchers are cited the most?')).toMatchObject({
      operation: 'top_authors',
      topic: 'biosimilar switching',
      rankBy: 'citations',
      citationBasis: 'global',
    });
    expect(plan('Which hair cortisol authors are cited most by other papers in the graph?')).toMatchObject({
      rankBy: 'citations',
      citationBasis: 'internal',
    });
    expect(plan('Who has written the most about hair cortisol?')).toMatchObject({
      operation: 'top_authors',
      rankBy: 'papers',
    });
  });

  it('reads the most cited paper of a topic as a ranking, "where do they publish" as venues, "h index" as a measure', () => {
    expect(plan('Which emicizumab paper has been cited the most by other papers in the collection?')).toMatchObject({
      operation: 'top_papers',
      topic: 'emicizumab',
      citationBasis: 'internal',
    });
    expect(plan('Where do hair cortisol researchers usually publish?')).toMatchObject({
      operation: 'top_venues',
      topic: 'hair cortisol',
    });
    expect(plan("What's the h index of Keiji Nogami?")).toMatchObject({
      operation: 'author_metrics',
      person: 'Keiji Nogami',
    });
    expect(routeQuestion("What's the h index of Keiji Nogami?").route).toBe('bibliometric');
  });

  it('finds papers described by their kind and subject in co-citation, reference and citation-step questions', () => {
    expect(
      plan(
        'What is co-cited with the naturalistic follow-up of a behavioral treatment for chronically parasuicidal borderline patients?',
      ),
    ).toMatchObject({ operation: 'related_papers', relation: 'cocited', paper: expect.stringMatching(/follow-up/) });
    // A follow-up of other work is still derivative work.
    expect(plan('Which follow-up studies build on the HAVEN 1 trial?').operation).toBe('derivative_works');
    expect(
      plan(
        'How many works in the graph does the 2018 consensus-based recommendation on biosimilars for rheumatological diseases cite?',
      ),
    ).toMatchObject({ operation: 'prior_works', paper: expect.stringMatching(/recommendation on biosimilars/) });
    const path = plan(
      "How many citation steps separate Linehan's 1991 trial in chronically parasuicidal borderline patients from the 2009 mentalization-based treatment trial?",
    );
    expect(path.operation).toBe('citation_path');
    expect(path.paper).toMatch(/Linehan's 1991 trial/);
    expect(path.second).toMatch(/2009 mentalization-based treatment trial/);
  });

  it('compares two decades named before the comparison word, and keeps a noun the tagger reads as a verb', () => {
    const question = 'Did the 1990s or the 2000s see more muscle relaxant papers?';
    expect(routeQuestion(question).route).toBe('trend');
    expect(plan(question, 'trend')).toMatchObject({
      operation: 'compare_periods',
      topic: 'muscle relaxant',
      periods: [
        { from: 1990, to: 1999 },
        { from: 2000, to: 2009 },
      ],
    });
    expect(plan('Which nations produce most sleep apnea papers?').topic).toBe('sleep apnea');
  });

  it('counts "recent years" back from the data, and "the last decade" from the calendar', () => {
    expect(plan('Is emicizumab a hot topic or has it cooled off in recent years?', 'trend')).toMatchObject({
      operation: 'topic_trend',
      topic: 'emicizumab',
      yearFrom: null,
      yearTo: null,
      lastYears: 3,
    });
    expect(plan('In the last decade, how many papers were written on hair cortisol?')).toMatchObject({
      operation: 'count_papers',
      yearFrom: new Date().getFullYear() - 10,
      yearTo: null,
      lastYears: null,
    });
    // Emerging subtopics compare the latest years with those before: "lately" sets no window of its own.
    expect(plan('What are the hot topics in glaucoma surgery lately?', 'trend')).toMatchObject({
      operation: 'emerging_topics',
      lastYears: null,
    });
  });
});

describe('phrasings of the v11 batch (written before tuning, then tuned on)', () => {
  it('reads "tally" as a count of the literature, whatever the classifier makes of it', () => {
    const question = 'Tally the papers you hold on borderline personality disorder psychotherapy.';
    expect(planQuestion(question, 'bibliometric')).toMatchObject({
      operation: 'count_papers',
      topic: 'borderline personality disorder psychotherapy',
    });
    expect(definitelyBibliometric(question, routeQuestion(question))).toMatch(/^count_papers/);
  });

  it('compares the sizes of two literatures when the collection is named as what holds them', () => {
    const question = 'Does the graph hold more on emicizumab or on biosimilar switching?';
    expect(planQuestion(question, 'bibliometric')).toMatchObject({
      operation: 'compare_topics',
      topic: 'emicizumab',
      second: 'biosimilar switching',
    });
    expect(definitelyBibliometric(question, routeQuestion(question))).toMatch(/^compare_topics/);
    // A comparison of findings names no collection and stays with the classifier.
    const finding = 'Does emicizumab reduce bleeding more than factor VIII or bypassing agents?';
    expect(definitelyBibliometric(finding, routeQuestion(finding))).toBeNull();
  });

  it('keeps "with a single paper" out of the subject of a Lotka question', () => {
    expect(planQuestion('Share of biosimilar switching authors with a single paper?', 'bibliometric')).toMatchObject({
      operation: 'lotka',
      topic: 'biosimilar switching',
    });
  });
});

describe('phrasings of the v12 batch (all dev, written before tuning)', () => {
  it('leaves the word that opens a comparison out of the first name', () => {
    expect(
      planQuestion('Between Giuseppe Filardo and Elizaveta Kon, who has more papers here?', 'bibliometric'),
    ).toMatchObject({ operation: 'compare_people', person: 'Giuseppe Filardo', second: 'Elizaveta Kon' });
  });

  it('keeps "sit in the core" out of the subject of a Bradford question', () => {
    expect(
      planQuestion('Bradford zones for hair cortisol: how many journals sit in the core?', 'bibliometric'),
    ).toMatchObject({ operation: 'bradford', topic: 'hair cortisol' });
  });
});

describe('sentences that are not prose', () => {
  it('knows captions, equations, reference entries and page furniture, and leaves statistics as prose', () => {
    expect(sentenceKind('Figure 2: Recall of the three retrievers at depth 100.')).toBe('caption');
    expect(sentenceKind('Table 1. Baseline characteristics of the participants.')).toBe('caption');
    expect(sentenceKind('′ minimize d(x, x ) ˆ ˆ ′ such that f(x ) = t')).toBe('equation');
    expect(sentenceKind('Smith J, Lee K. Statin therapy and stroke risk. Lancet. 2010;5:1-9.')).toBe('reference');
    // Any sentence of a reference list is an entry of it.
    expect(sentenceKind('Statin therapy and stroke risk in elderly patients.', 'references')).toBe('reference');
    expect(sentenceKind('Downloaded from https://academic.oup.com on 3 May 2021.')).toBe('furniture');
    expect(sentenceKind('© 2020 The Authors. Published by Elsevier.')).toBe('furniture');
    for (const prose of [
      'Statins lowered the risk of stroke by 20% (n = 120, p = 0.01, r = 0.4).',
      'Mean age was 54 ± 7 years (range 30-80; p ≤ 0.05).',
      'TNF-α and IFN-γ levels rose in group A and group B.',
      'Kirschbaum et al. (2009) found that hair cortisol reflects chronic stress.',
    ])
      expect(sentenceKind(prose)).toBeNull();
  });

  it('quotes them only when the question is about them', () => {
    expect([...kindsAskedFor('What does Figure 2 show about recall?')]).toEqual(['caption']);
    expect([...kindsAskedFor('Which equation defines the loss?')]).toEqual(['equation']);
    expect([...kindsAskedFor('Does emicizumab reduce bleeding?')]).toEqual([]);
  });
});
