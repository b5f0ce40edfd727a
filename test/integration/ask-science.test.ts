import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks, type CorpusWork } from '../helpers/openalex-corpus';

/**
 * Ask's science-of-science plans on a purpose-made corpus: eight trabeculectomy papers that cite each other, in four
 * journals, by authors at institutions in four countries, and one cataract paper nothing cites. Every expected figure
 * is recounted here from the records, not read from the code.
 */
interface Fixture {
  id: string;
  title: string;
  year: number;
  refs: string[];
  venue: { id: string; name: string };
  authors: Array<{ id: string; name: string; institution: { id: string; country: string } }>;
}

const US = { id: 'I1', country: 'US' };
const DE = { id: 'I2', country: 'DE' };
const GB = { id: 'I3', country: 'GB' };
const JP = { id: 'I4', country: 'JP' };
/** The towns the fixture's universities are named after ("University of Avalon"). */
const INSTITUTION_TOWNS: Record<string, string> = { I1: 'Avalon', I2: 'Brixen', I3: 'Carrow', I4: 'Daito' };
const OPHTHALMOLOGY = { id: 'S1', name: 'Ophthalmology' };
const EYE = { id: 'S2', name: 'Eye' };
const GLAUCOMA_TODAY = { id: 'S3', name: 'Glaucoma Today' };
const ACTA = { id: 'S4', name: 'Acta Ophthalmologica' };
const person = (n: number, institution: { id: string; country: string }) => ({
  id: `A97${n}`,
  name: ['Ann Ames', 'Bert Brandt', 'Cora Clegg', 'Dan Dorn', 'Eva Eich', 'Fumi Fujita', 'Goro Goto', 'Hal Hart'][n]!,
  institution,
});

const PAPERS: Fixture[] = [
  {
    id: 'W971',
    title: 'Trabeculectomy with mitomycin C lowers intraocular pressure in open-angle glaucoma',
    year: 2001,
    refs: [],
    venue: OPHTHALMOLOGY,
    authors: [person(0, US), person(1, DE)],
  },
  {
    id: 'W972',
    title: 'Bleb morphology after trabeculectomy and its relation to pressure control',
    year: 2003,
    refs: ['W971'],
    venue: OPHTHALMOLOGY,
    authors: [person(0, US)],
  },
  {
    id: 'W973',
    title: 'Late bleb leaks after trabeculectomy in a tertiary referral cohort',
    year: 2005,
    refs: ['W972'],
    venue: OPHTHALMOLOGY,
    authors: [person(2, GB)],
  },
  {
    id: 'W974',
    title: 'Trabeculectomy versus tube shunt surgery: pressure outcomes at five years',
    year: 2006,
    refs: ['W971', 'W972'],
    venue: EYE,
    authors: [person(0, US)],
  },
  {
    id: 'W975',
    title: 'Cost of trabeculectomy compared with medical therapy for glaucoma',
    year: 2007,
    refs: ['W971', 'W972'],
    venue: EYE,
    authors: [person(3, US)],
  },
  {
    id: 'W976',
    title: 'Antimetabolites in trabeculectomy: a survey of surgeons',
    year: 2008,
    refs: ['W971'],
    venue: GLAUCOMA_TODAY,
    authors: [person(4, DE)],
  },
  {
    id: 'W977',
    title: 'Trabeculectomy outcomes in Japanese patients with normal-tension glaucoma',
    year: 2009,
    refs: ['W971', 'W972'],
    venue: GLAUCOMA_TODAY,
    authors: [person(5, JP)],
  },
  {
    id: 'W978',
    title: 'Visual field progression after trabeculectomy',
    year: 2010,
    refs: ['W972'],
    venue: ACTA,
    authors: [person(6, JP)],
  },
  {
    id: 'W979',
    title: 'Phacoemulsification of dense cataract with a femtosecond laser',
    year: 2004,
    refs: [],
    venue: ACTA,
    authors: [person(7, GB)],
  },
];
const TOPIC = PAPERS.filter((p) => /trabeculectomy/i.test(p.title));

const WORKS: CorpusWork[] = PAPERS.map((paper) => ({
  ...paper,
  abstract: `${paper.title}. We report the outcomes of the patients treated and followed in this study.`,
  authors: paper.authors.map((author) => ({
    ...author,
    institution: { ...author.institution, name: `University of ${INSTITUTION_TOWNS[author.institution.id]}` },
  })),
}));

/** The CD index of a paper recounted from the fixture (Funk and Owen-Smith 2017), later papers only. */
function cdIndex(id: string): { cd: number; citing: number } {
  const focal = PAPERS.find((p) => p.id === id)!;
  const later = PAPERS.filter((p) => p.id !== id && p.year >= focal.year);
  const citesFocal = (p: Fixture) => p.refs.includes(id);
  const citesRefs = (p: Fixture) => p.refs.some((r) => focal.refs.includes(r));
  const ni = later.filter((p) => citesFocal(p) && !citesRefs(p)).length;
  const nj = later.filter((p) => citesFocal(p) && citesRefs(p)).length;
  const nk = later.filter((p) => !citesFocal(p) && citesRefs(p)).length;
  return { cd: (ni - nj) / (ni + nj + nk), citing: ni + nj };
}

const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
const OWN = ['ask-science'];
const options = { collections: OWN, externalSearch: false };
const ask = (question: string) => app.ask.ask(app.requestContext(), question, options);

beforeAll(async () => {
  await ingestWorks(app, 'ask-science', WORKS);
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('plans filtered by country and institution', () => {
  const withAuthorIn = (test: (a: Fixture['authors'][number]) => boolean) =>
    TOPIC.filter((paper) => paper.authors.some(test)).length;

  it('counts the papers with an author in a named country, and says so', async () => {
    const result = await ask('How many trabeculectomy papers come from Germany?');
    expect(result.plan).toMatchObject({ operation: 'count_papers', topic: 'trabeculectomy', country: 'DE' });
    expect(result.figure).toMatchObject({ kind: 'count', value: withAuthorIn((a) => a.institution.country === 'DE') });
    expect(result.answer).toMatch(/by authors in Germany/);
    expect(result.entities).toContainEqual(expect.objectContaining({ kind: 'country', id: 'DE', label: 'Germany' }));
  });

  it('counts the papers with an author at a named institution, resolved in the graph', async () => {
    const result = await ask('How many trabeculectomy papers were written at the University of Carrow?');
    expect(result.plan).toMatchObject({
      operation: 'count_papers',
      topic: 'trabeculectomy',
      institution: 'University of Carrow',
    });
    expect(result.figure).toMatchObject({ kind: 'count', value: withAuthorIn((a) => a.institution.id === 'I3') });
    expect(result.entities).toContainEqual(expect.objectContaining({ kind: 'institution', id: 'I3' }));
    const unknown = await ask('How many trabeculectomy papers were written at the University of Nowhere Special?');
    expect(unknown.abstained).toBe(true);
    expect(unknown.answer).toMatch(/no institution in the graph is named like "University of Nowhere Special"/);
  });
});

describe('science-of-science plans over a topic', () => {
  it("ranks the countries of the topic's authors by papers, each paper once per country", async () => {
    const expected = new Map<string, number>();
    for (const paper of TOPIC)
      for (const country of new Set(paper.authors.map((a) => a.institution.country)))
        expected.set(country, (expected.get(country) ?? 0) + 1);
    const result = await ask('Which countries do most trabeculectomy papers come from?');
    expect(result.plan).toMatchObject({ operation: 'top_countries', topic: 'trabeculectomy' });
    expect(result.figure?.kind).toBe('top');
    const top = [...expected.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    expect(result.figure!.items.map((i) => [i.id, i.value])).toEqual(top);
    expect(result.answer).toMatch(/United States \(US\) \(4 papers\)/);
  });

  it("fits Lotka's law to the topic's authors and gives the share with one paper", async () => {
    const perAuthor = new Map<string, number>();
    for (const paper of TOPIC) for (const a of paper.authors) perAuthor.set(a.id, (perAuthor.get(a.id) ?? 0) + 1);
    const single = [...perAuthor.values()].filter((n) => n === 1).length;
    const result = await ask('Does authorship in trabeculectomy research follow Lotka’s law?');
    expect(result.plan).toMatchObject({ operation: 'lotka', topic: 'trabeculectomy' });
    expect(result.entities).toEqual([
      expect.objectContaining({ kind: 'topic', text: 'trabeculectomy', id: null, label: `${TOPIC.length} papers` }),
    ]);
    expect(result.abstained).toBe(false);
    expect(result.figure?.kind).toBe('share');
    expect(result.figure!.value).toBeCloseTo(single / perAuthor.size, 3);
    expect(result.figure!.items.find((i) => i.id === 'authors')?.value).toBe(perAuthor.size);
    // Two classes (6 authors with one paper, 1 with three): n = log(6) / log(3).
    expect(result.figure!.items.find((i) => i.id === 'exponent')?.value).toBeCloseTo(Math.log(6) / Math.log(3), 6);
    expect(result.answer).toMatch(/n = 1\.63/);
  });

  it("finds Bradford's core: the fewest journals carrying a third of the topic's papers", async () => {
    const perVenue = new Map<string, number>();
    for (const paper of TOPIC) perVenue.set(paper.venue.name, (perVenue.get(paper.venue.name) ?? 0) + 1);
    const ranked = [...perVenue.entries()].sort((a, b) => b[1] - a[1]);
    const core: string[] = [];
    let running = 0;
    for (const [name, papers] of ranked) {
      if (running >= TOPIC.length / 3) break;
      core.push(name);
      running += papers;
    }
    const result = await ask('Which journals form the Bradford core of trabeculectomy research?');
    expect(result.plan).toMatchObject({ operation: 'bradford', topic: 'trabeculectomy' });
    expect(result.figure).toMatchObject({ kind: 'value', value: core.length });
    expect(result.figure!.items.map((i) => i.label)).toEqual(core);
  });

  it('ranks the papers cited by enough papers by their CD index, most disruptive first', async () => {
    const cited = TOPIC.map((p) => ({ id: p.id, refs: p.refs, ...cdIndex(p.id) })).filter((p) => p.citing >= 5);
    // W971 cites nothing: nothing can consolidate it, so its +1 is left out of the ranking, and the answer says so.
    expect(cited.map((p) => [p.id, p.refs.length])).toEqual([
      ['W971', 0],
      ['W972', 1],
    ]);
    const ranked = cited.filter((p) => p.refs.length > 0).sort((a, b) => b.cd - a.cd);
    const result = await ask('Which trabeculectomy papers were the most disruptive?');
    expect(result.plan).toMatchObject({ operation: 'disruptive_papers', topic: 'trabeculectomy' });
    expect(result.figure!.items.map((i) => i.id)).toEqual(ranked.map((p) => p.id));
    ranked.forEach((paper, i) => expect(result.figure!.items[i]!.value).toBeCloseTo(paper.cd, 3));
    expect(result.answer).toMatch(/CD -0\.17: 2 papers cite it alone, 3 with its references, 1 only its references/);
    expect(result.answer).toContain(
      '(left out: 1 paper that cites no work the graph knows, whose CD index is +1 by construction since nothing can consolidate it)',
    );
  });

  it('refuses to compare growth when a topic has too few papers to measure it', async () => {
    const result = await ask('Did trabeculectomy research grow faster than cataract research?');
    expect(result.plan).toMatchObject({ operation: 'compare_topics_trend', topic: 'trabeculectomy' });
    expect(result.abstained).toBe(true);
    expect(result.answer).toMatch(/too few papers to compare growth/);
  });
});

describe('citation structure of a topic', () => {
  const byId = new Map(PAPERS.map((p) => [p.id, p]));

  it('follows the main path from a source to a sink along citations, oldest first', async () => {
    const result = await ask('What is the main path of citations in trabeculectomy research?');
    expect(result.plan).toMatchObject({ operation: 'main_path', topic: 'trabeculectomy' });
    const path = result.figure!.items.map((i) => i.id);
    expect(path.length).toBeGreaterThanOrEqual(3);
    // A source (cites none of the topic's papers), each next paper citing the one before, a sink (cited by none).
    expect(byId.get(path[0]!)!.refs).toEqual([]);
    path.slice(1).forEach((id, i) => expect(byId.get(id)!.refs).toContain(path[i]));
    expect(TOPIC.some((p) => p.refs.includes(path[path.length - 1]!))).toBe(false);
    expect(result.answer).toMatch(/main path by search path count .* runs through \d+ papers/);
  });

  it('ranks as sleeping beauties only papers cited at least five times in the graph', async () => {
    const citedEnough = TOPIC.filter((p) => TOPIC.filter((q) => q.refs.includes(p.id)).length >= 5).map((p) => p.id);
    const result = await ask('Which trabeculectomy papers are sleeping beauties?');
    expect(result.plan).toMatchObject({ operation: 'sleeping_beauties', topic: 'trabeculectomy' });
    const items = result.figure!.items;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(citedEnough).toContain(item.id);
    expect(items.map((i) => i.value)).toEqual([...items.map((i) => i.value)].sort((a, b) => b - a));
  });

  it('groups the papers that share references into research fronts', async () => {
    const coupled = TOPIC.filter((p) => TOPIC.some((q) => q !== p && q.refs.some((r) => p.refs.includes(r))));
    const result = await ask('What are the research fronts in trabeculectomy research?');
    expect(result.plan).toMatchObject({ operation: 'research_fronts', topic: 'trabeculectomy' });
    expect(result.figure!.items.reduce((sum, i) => sum + i.value, 0)).toBe(coupled.length);
    expect(result.answer).toMatch(/grouped by shared references \(bibliographic coupling of \d+ papers/);
  });

  it('says honestly when no subtopic bursts and when no paper has a field to be normalised by', async () => {
    // The corpus carries no concepts: no subtopic to burst, no field to normalise citations by.
    const bursts = await ask('Which subtopics of trabeculectomy research burst?');
    expect(bursts.plan?.operation).toBe('topic_bursts');
    expect(bursts.abstained).toBe(false);
    expect(bursts.figure?.items).toEqual([]);
    expect(bursts.answer).toMatch(/none of their 30 most frequent specific subtopics .* bursts/);
    const impact = await ask('Which trabeculectomy papers have the highest field-normalised impact?');
    expect(impact.plan?.operation).toBe('normalised_impact');
    expect(impact.abstained).toBe(true);
    expect(impact.answer).toMatch(/papers of its year and field to compare with/);
  });
});

describe('citation paths between papers the question describes', () => {
  it('finds the papers by year and description and follows the shortest chain of citations', async () => {
    const result = await ask(
      'Is there a citation path from the 2005 study of late bleb leaks to the 2001 mitomycin trabeculectomy trial?',
    );
    expect(result.plan).toMatchObject({ operation: 'citation_path' });
    expect(result.abstained).toBe(false);
    // W973 cites W972, which cites W971; W973 does not cite W971.
    expect(result.figure).toMatchObject({ kind: 'value', value: 2 });
    expect(result.figure!.items.map((i) => i.id)).toEqual(['W973', 'W972', 'W971']);
    expect(result.answer).toMatch(/linked by a chain of 2 citations/);
    // Each described paper is linked with the words it came from.
    expect(result.entities.map((e) => [e.kind, e.text, e.id])).toEqual([
      ['paper', '2005 study of late bleb leaks', 'W973'],
      ['paper', '2001 mitomycin trabeculectomy trial', 'W971'],
    ]);
    expect(result.clarification).toBeNull();
  });

  it('says which paper it took when a description fits two, and names the other', async () => {
    // "bleb" after trabeculectomy: W972 (2003) and W973 (2005) both fit; no year is given.
    const result = await ask(
      'Is there a citation path from the trabeculectomy bleb study to the 2001 mitomycin trabeculectomy trial?',
    );
    expect(result.plan?.operation).toBe('citation_path');
    const first = result.entities[0]!;
    expect(['W972', 'W973']).toContain(first.id);
    const other = first.id === 'W972' ? 'W973' : 'W972';
    expect(result.clarification).toMatch(
      new RegExp(`was taken to be .*\\(${first.id}\\); it also fits .*\\(${other}, `),
    );
    expect(result.answer).toContain(`Note: "trabeculectomy bleb study" was taken to be`);
  });

  it('takes the earliest of the papers that fit when the description says "the first"', async () => {
    const result = await ask(
      'Is there a citation path from the first trabeculectomy bleb study to the 2001 mitomycin trabeculectomy trial?',
    );
    expect(result.plan?.operation).toBe('citation_path');
    // W972 (2003) and W973 (2005) both fit; the first is the 2003 one.
    expect(result.entities[0]).toMatchObject({ kind: 'paper', id: 'W972' });
    expect(result.clarification).toMatch(/it also fits .*\(W973, 2005\)/);
  });

  it('says so when no chain links them, and refuses a description no paper fits', async () => {
    const none = await ask(
      'Is there a citation path from the 2004 femtosecond cataract paper to the 2001 mitomycin trabeculectomy trial?',
    );
    expect(none.plan?.operation).toBe('citation_path');
    expect(none.figure).toMatchObject({ kind: 'value', value: null });
    expect(none.answer).toMatch(/No chain of at most \d+ citations in the graph links/);
    const unknown = await ask(
      'Is there a citation path from the 1990 retinal prosthesis trial to the 2001 mitomycin trabeculectomy trial?',
    );
    expect(unknown.abstained).toBe(true);
    expect(unknown.answer).toMatch(/no paper in the graph matches "1990 retinal prosthesis trial"/);
  });
});
