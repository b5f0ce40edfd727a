import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks } from '../helpers/openalex-corpus';

/**
 * Record linkage of a named person across author records without an OpenAlex id: OpenAlex leaves some authorships
 * unidentified, and their co-authors are unidentified too, so a shared co-author is recognised by full name as well.
 */
interface Authorship {
  id: string | null;
  name: string;
}
const PAPERS: Array<{
  id: string;
  title: string;
  year: number;
  authors: Authorship[];
  venue?: { id: string; name: string };
  concepts?: Array<{ id: string; name: string; level: number; score: number }>;
}> = [
  {
    id: 'W9701',
    title: 'Tendon healing after suture anchor repair',
    year: 2012,
    authors: [
      { id: 'A9701', name: 'Rosa Quintero' },
      { id: 'A9702', name: 'Tomas Lindqvist' },
    ],
  },
  {
    id: 'W9702',
    title: 'Suture anchor pull-out strength in osteoporotic bone',
    year: 2014,
    authors: [
      { id: null, name: 'Rosa Quintero' },
      { id: null, name: 'Tomas Lindqvist' },
    ],
  },
  {
    id: 'W9703',
    title: 'Coral reef fish recruitment after bleaching',
    year: 2015,
    authors: [
      { id: null, name: 'Rosa Quintero' },
      { id: null, name: 'Ingrid Vale' },
    ],
  },
  // Two records of one name sharing a co-author (one person) and a third of that name sharing none (a namesake).
  {
    id: 'W9704',
    title: 'Tendon graft fixation with interference screws',
    year: 2016,
    authors: [
      { id: 'A9711', name: 'Lena Marsh' },
      { id: 'A9712', name: 'Oskar Brandt' },
    ],
  },
  {
    id: 'W9705',
    title: 'Tendon graft tension during fixation',
    year: 2017,
    authors: [
      { id: 'A9713', name: 'Lena Marsh' },
      { id: 'A9712', name: 'Oskar Brandt' },
    ],
  },
  {
    id: 'W9706',
    title: 'Tendon graft remodelling in sheep',
    year: 2018,
    authors: [
      { id: 'A9714', name: 'Lena Marsh' },
      { id: 'A9715', name: 'Piet Hol' },
    ],
  },
  // One full name, middle initial and all, on three records with no co-author or venue in common: the record sharing
  // a specific concept with the identified one is the person, the one sharing only "Medicine" is a namesake.
  {
    id: 'W9707',
    title: 'Rotator cuff tear arthropathy treated by reverse shoulder arthroplasty',
    year: 2015,
    authors: [
      { id: 'A9721', name: 'Mira J. Okafor' },
      { id: 'A9722', name: 'Henrik Sol' },
    ],
    venue: { id: 'S97001', name: 'Journal of Shoulder Surgery' },
    concepts: [
      { id: 'C97001', name: 'Rotator cuff tear arthropathy', level: 3, score: 0.8 },
      { id: 'C71924100', name: 'Medicine', level: 0, score: 0.5 },
    ],
  },
  {
    id: 'W9708',
    title: 'Glenoid bone loss in cuff tear arthropathy',
    year: 2017,
    authors: [
      { id: null, name: 'Mira J. Okafor' },
      { id: null, name: 'Paula Reyes' },
    ],
    venue: { id: 'S97002', name: 'Orthopaedic Imaging' },
    concepts: [{ id: 'C97001', name: 'Rotator cuff tear arthropathy', level: 3, score: 0.7 }],
  },
  {
    id: 'W9709',
    title: 'Hospital pharmacy staffing in rural districts',
    year: 2019,
    authors: [
      { id: null, name: 'Mira J. Okafor' },
      { id: null, name: 'Ken Aoki' },
    ],
    venue: { id: 'S97003', name: 'Health Services Review' },
    concepts: [{ id: 'C71924100', name: 'Medicine', level: 0, score: 0.6 }],
  },
  // A double-barrelled surname is as rare as a middle initial: two records sharing a specific concept are one person.
  // A plain first name and surname is too common to link by concept alone.
  {
    id: 'W9710',
    title: 'Meniscal allograft sizing from magnetic resonance images',
    year: 2016,
    authors: [
      { id: 'A9731', name: 'Ines Varga-Holm' },
      { id: 'A9741', name: 'Tove Lund' },
    ],
    concepts: [{ id: 'C97002', name: 'Meniscal allograft transplantation', level: 3, score: 0.8 }],
  },
  {
    id: 'W9711',
    title: 'Meniscal allograft extrusion after transplantation',
    year: 2019,
    authors: [
      { id: null, name: 'Ines Varga-Holm' },
      { id: null, name: 'Arne Dahl' },
    ],
    concepts: [{ id: 'C97002', name: 'Meniscal allograft transplantation', level: 3, score: 0.7 }],
  },
  {
    id: 'W9712',
    title: 'Meniscal allograft survival in athletes',
    year: 2020,
    authors: [
      { id: null, name: 'Tove Lund' },
      { id: null, name: 'Sven Ek' },
    ],
    concepts: [{ id: 'C97002', name: 'Meniscal allograft transplantation', level: 3, score: 0.7 }],
  },
];

const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
// A record carrying titles and degrees around the name, the person's most productive, in a collection of its own.
const TITLED: typeof PAPERS = [
  {
    id: 'W9721',
    title: 'Ankle arthrodesis with compression screws',
    year: 2014,
    authors: [
      { id: 'A9751', name: 'Prof. Hanne Lysgaard PhD' },
      { id: 'A9752', name: 'Ole Brun' },
    ],
  },
  {
    id: 'W9722',
    title: 'Ankle arthrodesis nonunion rates',
    year: 2016,
    authors: [
      { id: 'A9751', name: 'Prof. Hanne Lysgaard PhD' },
      { id: 'A9753', name: 'Kari Vik' },
    ],
  },
  {
    id: 'W9723',
    title: 'Ankle arthrodesis and gait',
    year: 2018,
    authors: [
      { id: 'A9754', name: 'Hanne Lysgaard' },
      { id: 'A9752', name: 'Ole Brun' },
    ],
  },
];
const OWN = ['person-linkage', 'person-linkage-titled'];

beforeAll(async () => {
  await ingestWorks(app, 'person-linkage', PAPERS, 'defer');
  await ingestWorks(app, 'person-linkage-titled', TITLED, 'defer');
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('a person across records without an OpenAlex id', () => {
  it('counts in an unidentified record whose co-author has the same full name, and leaves out one without', async () => {
    const person = await app.analytics.people.resolvePerson('Rosa Quintero');
    expect(person).not.toBeNull();
    expect(person!.ids[0]).toBe('A9701');
    expect(person!.papers).toBe(2);
    expect(person!.linked).toHaveLength(1);
    expect(person!.linked[0]!.ids[0]).toMatch(/^anon:W9702:/);
    // The coral-reef record shares no co-author with her: a namesake, flagged and not counted.
    expect(person!.namesakes.map((n) => n.id)).toEqual([expect.stringMatching(/^anon:W9703:/)]);
  });
});

describe('a person across records of one full name', () => {
  it('counts in a record sharing a specific concept and leaves out one sharing only a broad one', async () => {
    const person = await app.analytics.people.resolvePerson('Mira Okafor');
    expect(person).not.toBeNull();
    expect(person!.ids[0]).toBe('A9721');
    expect(person!.papers).toBe(2);
    expect(person!.linked).toEqual([
      expect.objectContaining({ ids: [expect.stringMatching(/^anon:W9708:/)], by: 'full name and concept' }),
    ]);
    expect(person!.namesakes.map((n) => n.id)).toEqual([expect.stringMatching(/^anon:W9709:/)]);
  });
});

describe('a person across records of a double-barrelled name', () => {
  it('counts in a record of the same double-barrelled name sharing a specific concept, not one of a plain name', async () => {
    const person = await app.analytics.people.resolvePerson('Ines Varga-Holm');
    expect(person).not.toBeNull();
    expect(person!.ids[0]).toBe('A9731');
    expect(person!.papers).toBe(2);
    expect(person!.linked).toEqual([
      expect.objectContaining({ ids: [expect.stringMatching(/^anon:W9711:/)], by: 'full name and concept' }),
    ]);
    const plain = await app.analytics.people.resolvePerson('Tove Lund');
    expect(plain!.ids[0]).toBe('A9741');
    expect(plain!.papers).toBe(1);
    expect(plain!.namesakes.map((n) => n.id)).toEqual([expect.stringMatching(/^anon:W9712:/)]);
  });
});

describe('a person named on a record with titles and degrees', () => {
  it('counts the titled record in and names the person without the titles', async () => {
    const person = await app.analytics.people.resolvePerson('Hanne Lysgaard');
    expect(person).not.toBeNull();
    expect(person!.ids).toEqual(['A9751', 'A9754']);
    expect(person!.papers).toBe(3);
    expect(person!.name).toBe('Hanne Lysgaard');
  });
});

describe("Lotka's law over people", () => {
  it('counts records of one name sharing a co-author as one author in ask, by ORCID only in the explorer', async () => {
    const filter = { collections: ['person-linkage'] };
    // Identified records (the unidentified ones are one per work and left out): eleven, one of them (Oskar Brandt)
    // on two papers. Two of the three "Lena Marsh" records share him as co-author: one person with two papers.
    const explorer = await app.science.lotka(filter);
    expect(explorer.distribution).toEqual([
      { papers: 1, authors: 10 },
      { papers: 2, authors: 1 },
    ]);
    const people = await app.science.lotkaOfPeople(filter);
    expect(people.records).toBe(11);
    expect(people.authors).toBe(10);
    expect(people.distribution).toEqual([
      { papers: 1, authors: 8 },
      { papers: 2, authors: 2 },
    ]);
  });
});

describe('people in a ranking of authors', () => {
  it('counts records of one name sharing a co-author as one person and keeps a namesake without one apart', async () => {
    const rows = await app.analytics.authorsOfPapers(['W9704', 'W9705', 'W9706'], 20);
    expect(rows.filter((row) => row.name === 'Lena Marsh')).toHaveLength(3);
    const people = await app.analytics.people.peopleOf(rows);
    const marsh = people.filter((person) => person.name === 'Lena Marsh');
    expect(marsh.map((person) => [[...person.ids].sort(), person.count])).toEqual([
      [['A9711', 'A9713'], 2],
      [['A9714'], 1],
    ]);
    expect([...marsh[1]!.possiblySame].sort()).toEqual(['A9711', 'A9713']);
    expect(marsh[0]!.possiblySame).toEqual(['A9714']);
    expect(people.find((person) => person.name === 'Oskar Brandt')!.count).toBe(2);
  });
});
