import { createTestContext, removeCollections } from '../helpers/context';
import { ingestWorks, type CorpusWork } from '../helpers/openalex-corpus';

/**
 * Papers cited together with a paper, as ask answers them: a cited work the graph knows only by its id (a stub no one
 * labelled) is no answer a reader can use, so the list is of papers with a title and the answer names the untitled
 * ones that ranked higher. The counts are recounted here from the records.
 */
const FOCAL = 'W9811';
const STUB = 'W9899';
const WORKS: CorpusWork[] = [
  { id: FOCAL, title: 'Suture anchors in arthroscopic rotator cuff repair', year: 2001 },
  { id: 'W9816', title: 'Tendon-to-bone healing after rotator cuff repair in sheep', year: 2000 },
  { id: 'W9817', title: 'Retear rates after single-row rotator cuff repair', year: 2002 },
  ...['W9812', 'W9813', 'W9814', 'W9815'].map((id, i) => ({
    id,
    title: `Rotator cuff repair outcomes in cohort ${i + 1}`,
    year: 2005 + i,
    // Every citing paper cites the stub with the focal paper; two cite W9816, one W9817.
    refs: [FOCAL, STUB, ...(i < 2 ? ['W9816'] : []), ...(i === 3 ? ['W9817'] : [])],
  })),
];

/** Times each paper is cited together with the focal paper, recounted from the records. */
function cocitedWithFocal(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const work of WORKS)
    if (work.refs?.includes(FOCAL))
      for (const ref of work.refs) if (ref !== FOCAL) counts.set(ref, (counts.get(ref) ?? 0) + 1);
  return counts;
}

const { app } = createTestContext({ CITEGRAPH_EXTERNAL_SEARCH: 'false', OPENAI_BASE_URL: '', OPENAI_API_KEY: '' });
const OWN = ['ask-related'];

beforeAll(async () => {
  await ingestWorks(app, 'ask-related', WORKS);
});
afterAll(async () => {
  await removeCollections(app, OWN);
  await app.close();
});

describe('papers cited together with a named paper', () => {
  it('lists the titled papers by co-citations and names the untitled cited work that ranked higher', async () => {
    const counts = cocitedWithFocal();
    expect(counts.get(STUB)).toBe(4);
    const result = await app.ask.ask(
      app.requestContext(),
      "Which papers tend to be cited alongside 'Suture anchors in arthroscopic rotator cuff repair'?",
      { collections: OWN, externalSearch: false },
    );
    expect(result.abstained).toBe(false);
    expect(result.figure?.kind).toBe('top');
    expect(result.figure!.items.map((item) => item.id)).toEqual(['W9816', 'W9817']);
    expect(result.answer).toContain(
      `"Tendon-to-bone healing after rotator cuff repair in sheep" (co-cited ${counts.get('W9816')} times)`,
    );
    expect(result.answer).toContain(`1 cited paper outside the graph known only by its id (${STUB}, co-cited 4 times)`);
  });
});
