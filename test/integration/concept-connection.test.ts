import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks, type CorpusWork } from '../helpers/openalex-corpus';

/**
 * Relational sufficiency beyond a concept's own words: "hospital admissions" is what the graph's titles call it, but
 * the paper a transference-focused psychotherapy trial cites says "partial hospitalization" and "inpatient
 * admissions". The question's own evidence finds that paper, and the citation connects the two concepts; a subject
 * of another literature (emicizumab), which no citation joins to hospital admissions, is still refused.
 */
const WORKS: CorpusWork[] = [
  {
    id: 'W9901',
    title: 'Transference-focused psychotherapy for borderline personality disorder: a randomized trial',
    abstract:
      'Transference-focused psychotherapy for one year reduced suicidality and anger in women with borderline personality disorder compared with treatment by experienced community psychotherapists.',
    year: 2006,
    refs: ['W9902'],
  },
  {
    id: 'W9902',
    title: 'Partial hospitalization in the treatment of borderline personality disorder',
    abstract:
      'Patients with borderline personality disorder in partial hospitalization had fewer inpatient admissions and shorter stays on psychiatric wards than those in standard psychiatric care over eighteen months.',
    year: 1999,
  },
  {
    id: 'W9903',
    title: 'Hospital admissions for self-harm in adolescents',
    abstract: 'Hospital admissions for self-harm among adolescents rose over a decade in a national register.',
    year: 2012,
  },
  {
    id: 'W9904',
    title: 'Predictors of hospital admissions in schizophrenia',
    abstract: 'Non-adherence to antipsychotic medication predicted hospital admissions in schizophrenia.',
    year: 2010,
  },
  {
    id: 'W9906',
    title: 'Transference-focused psychotherapy: adherence and competence of therapists',
    abstract: 'Ratings of therapist adherence to transference-focused psychotherapy were reliable across raters.',
    year: 2008,
  },
  // Papers on the treatment that outrank the connecting one for the question's words, none about admissions.
  ...[1, 2, 3].map((n) => ({
    id: `W991${n}`,
    title: `Transference-focused psychotherapy in a day hospital for borderline personality disorder: cohort ${n}`,
    abstract: `Transference-focused psychotherapy in day hospital treatment of borderline personality disorder was delivered by trained therapists in cohort ${n}, and patients in the day hospital were followed for borderline personality disorder symptoms.`,
    year: 2010 + n,
    refs: [] as string[],
  })),
  {
    id: 'W9907',
    title: 'Emicizumab prophylaxis in haemophilia A without inhibitors',
    abstract: 'Weekly emicizumab prophylaxis reduced treated bleeds in haemophilia A without factor VIII inhibitors.',
    year: 2018,
  },
  {
    id: 'W9908',
    title: 'Emicizumab and thrombotic events with bypassing agents',
    abstract:
      'Thrombotic events with emicizumab occurred with high doses of activated prothrombin complex concentrate.',
    year: 2019,
  },
  // An identifier only an abstract holds, and a treatment of a disorder that no paper calls by its lay name.
  {
    id: 'W9920',
    title: 'Long noncoding RNA as a scaffold of histone modification complexes',
    abstract:
      'The long noncoding RNA HOTAIR binds polycomb repressive complex 2 and the LSD1 complex through two domains.',
    year: 2010,
  },
  {
    id: 'W9925',
    title: 'Noncoding RNA in the control of HOX genes',
    abstract: 'HOTAIR, transcribed from the HOXC locus, represses HOXD genes in trans in fibroblasts.',
    year: 2007,
  },
  {
    id: 'W9921',
    title: 'Amitriptyline for chronic pain in temporomandibular joint disorders',
    abstract:
      'Low-dose amitriptyline reduced chronic pain in patients with temporomandibular joint disorders over six weeks compared with placebo.',
    year: 2003,
  },
  {
    id: 'W9922',
    title: 'One-year follow-up of amitriptyline in temporomandibular disorder pain',
    abstract:
      'Patients with chronic temporomandibular disorder pain treated with low-dose amitriptyline kept their lower pain scores after one year.',
    year: 2005,
  },
  {
    id: 'W9923',
    title: 'Amitriptyline in chronic tension-type headache pain',
    abstract: 'Amitriptyline reduced headache days in chronic tension-type headache.',
    year: 1996,
  },
  {
    id: 'W9924',
    title: 'Mandible and jaw fractures in cyclists',
    abstract: 'Jaw fractures in cyclists were treated by open reduction and fixation.',
    year: 2015,
  },
];

// A context of two or three passages: the paper that makes the connection must be held however it ranks.
const { app } = createTestContext({
  CITEGRAPH_EXTERNAL_SEARCH: 'false',
  OPENAI_BASE_URL: '',
  OPENAI_API_KEY: '',
  CITEGRAPH_CONTEXT_TOKENS: '100',
});
const OWN = ['concept-connection'];
const ask = (question: string) =>
  app.ask.ask(app.requestContext(), question, { collections: OWN, externalSearch: false });

beforeAll(async () => {
  await ingestWorks(app, 'concept-connection', WORKS);
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('concepts connected through the evidence when their words do not meet', () => {
  it('connects a treatment to an outcome its cited paper words otherwise, and says how', async () => {
    const result = await ask(
      'Does transference-focused psychotherapy reduce hospital admissions in borderline personality disorder?',
    );
    const connection = result.sufficiency.dimensions.find((d) => d.name === 'concept_connection')!;
    expect(connection.score).toBe(100);
    expect(connection.reason).toMatch(
      /"transference" with "hospital admissions".* through citations between papers naming one/,
    );
    expect(result.abstentionReason ?? '').not.toMatch(/does not connect/);
    // The paper that makes the connection is quoted: the answer says what happened to admissions.
    expect(result.abstained).toBe(false);
    const cited = result.sentences.flatMap((s) => s.citations.map((c) => c.paperId));
    expect(cited).toContain('W9902');
    expect(result.answer).toMatch(/fewer inpatient admissions/);
  });

  it('refuses a question joining an identifier that only an abstract names to another literature', async () => {
    // "HOTAIR" is in no title, yet it is the question's subject: its papers must connect with emicizumab's.
    const result = await ask('Does HOTAIR expression predict bleeding with emicizumab?');
    expect(result.abstained).toBe(true);
    expect(result.abstentionReason).toMatch(
      /no paper and no citation in the graph connects "hotair" with "emicizumab"/,
    );
  });

  it('answers a subject said in lay words from a close passage of a paper naming the rest of the question', async () => {
    // No paper says "jaw joint pain"; the temporomandibular trial names amitriptyline, pain and the joint.
    const result = await ask('Is amitriptyline useful for jaw joint pain?');
    expect(result.abstained).toBe(false);
    expect(result.sufficiency.dimensions.find((d) => d.name === 'concept_connection')!.reason).toMatch(
      /no paper in the graph mentions "jaw joint pain"; but a passage close to the question .* taken to say it in other words/,
    );
    expect(result.sentences[0]!.citations.map((c) => c.paperId)).toContain('W9921');
  });

  it('still refuses a subject of another literature that no citation joins to the outcome', async () => {
    const result = await ask('Does emicizumab reduce hospital admissions?');
    expect(result.abstained).toBe(true);
    expect(result.abstentionReason).toMatch(
      /no paper and no citation in the graph connects "emicizumab" with "hospital admissions"/,
    );
  });
});
