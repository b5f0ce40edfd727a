import { QUERY_SPECS, queries, type CompiledQuery } from '../../src/graph/query-registry';
import { applySchema } from '../../src/graph/schema';
import { createTestContext } from '../helpers/context';

const { app } = createTestContext();

afterAll(() => app.close());

/** Parameters of the right shape for EXPLAIN (values do not matter, types do for planning). */
function sampleParams(name: string): Record<string, unknown> {
  const spec = QUERY_SPECS[name as keyof typeof QUERY_SPECS];
  const values: Record<string, unknown> = {
    id: 'W1',
    ids: ['W1'],
    doi: '10.1/x',
    limit: 5,
    k: 5,
    vector: new Array(384).fill(0.1),
    collection: 'c',
    collections: null,
    papers: [],
    rows: [],
    chunks: [],
    after: null,
    yearFrom: null,
    yearTo: null,
    topicId: null,
    venueId: null,
  };
  return Object.fromEntries(spec.params.map((param) => [param, values[param] ?? null]));
}

describe('graph schema', () => {
  it('applies idempotently and creates the constraints and indexes', async () => {
    await applySchema(app.executor);
    await applySchema(app.executor);
    const constraints = await app.executor.autoCommit<{ name: string }>({
      name: 'show',
      text: 'SHOW CONSTRAINTS YIELD name RETURN name',
    });
    expect(constraints.map((row) => row.name).sort()).toEqual([
      'author_id',
      'chunk_id',
      'document_set_id',
      'institution_id',
      'paper_id',
      'paper_totals_key',
      'paper_year_key',
      'set_chunk_id',
      'set_document_id',
      'set_owner_id',
      'topic_id',
      'topic_year_key',
      'venue_id',
    ]);
    const indexes = await app.executor.autoCommit<{ name: string; type: string; state: string }>({
      name: 'show',
      text: 'SHOW INDEXES YIELD name, type, state WHERE type IN ["FULLTEXT", "VECTOR"] RETURN name, type, state ORDER BY name',
    });
    // Private document sets (SetChunk, SetDocument) are in no full-text or vector index: no shared search sees them.
    expect(indexes).toEqual([
      { name: 'author_name', type: 'FULLTEXT', state: 'ONLINE' },
      { name: 'chunk_companion_embedding', type: 'VECTOR', state: 'ONLINE' },
      { name: 'chunk_embedding', type: 'VECTOR', state: 'ONLINE' },
      { name: 'chunk_text', type: 'FULLTEXT', state: 'ONLINE' },
      { name: 'institution_name', type: 'FULLTEXT', state: 'ONLINE' },
      { name: 'paper_text', type: 'FULLTEXT', state: 'ONLINE' },
      { name: 'topic_name', type: 'FULLTEXT', state: 'ONLINE' },
      { name: 'venue_name', type: 'FULLTEXT', state: 'ONLINE' },
    ]);
  });

  it('refuses a second paper with the same id (uniqueness constraint)', async () => {
    await app.executor.autoCommit({ name: 'seed', text: "MERGE (:Paper {id: 'constraint-test'})" });
    await expect(
      app.executor.autoCommit({ name: 'dup', text: "CREATE (:Paper {id: 'constraint-test'})" }),
    ).rejects.toMatchObject({
      code: 'CONSTRAINT_VIOLATION',
    });
    await app.executor.autoCommit({ name: 'clean', text: "MATCH (p:Paper {id: 'constraint-test'}) DELETE p" });
  });

  it.each(Object.keys(QUERY_SPECS))('EXPLAINs registered query %s', async (name) => {
    const build = queries()[name as keyof typeof QUERY_SPECS] as unknown as (
      params: Record<string, unknown>,
    ) => CompiledQuery;
    await expect(app.executor.explain(build(sampleParams(name)))).resolves.toBeUndefined();
  });
});
