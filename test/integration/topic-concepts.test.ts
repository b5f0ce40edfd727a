import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks } from '../helpers/openalex-corpus';

/**
 * A topic phrase linked to the graph's concepts: a concept whose name holds every word of the phrase (as stems) and at
 * most two more is part of the topic; a broader concept (fewer words) is not.
 */
const concept = (id: string, name: string, level: number) => ({ id, name, level });
const PAPERS = [
  {
    id: 'W9801',
    title: 'Muscle relaxants for acute low back pain',
    concepts: [concept('C98001', 'Muscle relaxant', 2)],
  },
  {
    // Holds neither "muscle" nor "relaxants": in the topic only by its concept.
    id: 'W9802',
    title: 'Tizanidine in chronic tension-type headache',
    concepts: [concept('C98001', 'Muscle relaxant', 2)],
  },
  {
    id: 'W9803',
    title: 'Fibre types of skeletal tissue in sprinters',
    concepts: [concept('C98002', 'Muscle', 1)],
  },
];

const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
const OWN = ['topic-concepts'];

beforeAll(async () => {
  await ingestWorks(
    app,
    'topic-concepts',
    PAPERS.map((paper) => ({ ...paper, abstract: `${paper.title}: outcomes in a small cohort.`, year: 2010 })),
  );
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('topics linked to concepts', () => {
  it('takes in the papers of a concept the phrase names in another word form, not of a broader one', async () => {
    const set = await app.analytics.topics.topicSet('muscle relaxants', { collections: OWN });
    expect(set.concepts).toEqual([{ id: 'C98001', name: 'Muscle relaxant' }]);
    const byId = new Map(set.papers.map((p) => [p.id, p]));
    expect(byId.get('W9802')).toMatchObject({ byConcept: true, byWords: false });
    expect(byId.get('W9801')).toMatchObject({ byWords: true });
    expect(byId.get('W9803')?.byConcept ?? false).toBe(false);
    expect(set.rule).toContain('the concept "Muscle relaxant" (C98001)');
  });

  it('names the concept as the topic entity of an answer', async () => {
    const result = await app.ask.ask(app.requestContext(), 'How many papers on muscle relaxants are in the graph?', {
      collections: OWN,
      externalSearch: false,
    });
    expect(result.plan?.operation).toBe('count_papers');
    expect(result.entities[0]).toMatchObject({ kind: 'topic', text: 'muscle relaxants', id: 'C98001' });
    expect(result.entities[0]!.label).toMatch(/^Muscle relaxant: \d+ papers/);
  });
});
