import { documentationPages, documentedExamples } from '../../src/api/explorer';
import { serveGraphQL } from '../../src/api/server';
import { SAMPLE_COLLECTION } from '../../src/cli/commands/serve';
import { createTestContext, ingestSample, removeCollections } from '../helpers/context';
import { postGraphql } from '../helpers/graphql-client';

/**
 * Every GraphQL example of the documentation (the README and each page of docs/) runs as shown against what `npm start` serves on a fresh clone (the bundled
 * sample in its collection) and answers something: no error, no warning (an unknown id or collection, a capped list),
 * and not nothing. Examples with a placeholder to fill in (a document set's "ds_…") need an upload first; they are
 * run by test/e2e/document-sets.test.ts.
 */
const examples = documentedExamples();
const runnable = examples.filter(({ operation }) => !operation.includes('ds_…'));
const { app } = createTestContext();
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

/** Nothing: null, an empty string or list, zero, false, or an object made only of those. */
function isNothing(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(isNothing);
  return false;
}

beforeAll(async () => {
  await ingestSample(app, SAMPLE_COLLECTION);
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
}, 600_000);

afterAll(async () => {
  await stop();
  await removeCollections(app, [SAMPLE_COLLECTION]);
  await app.close();
});

describe('the documentation examples on the bundled sample', () => {
  it('has examples on the README and on the pages, and leaves out only those with a placeholder', () => {
    expect(runnable.length).toBeGreaterThan(15);
    expect(runnable.filter(({ page }) => page === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(new Set(runnable.map(({ page }) => page)).size).toBeGreaterThanOrEqual(4);
    expect(examples.length - runnable.length).toBeLessThanOrEqual(3);
    // Every page the README links exists.
    expect(documentationPages().length).toBeGreaterThan(5);
  });

  it.each(runnable.map(({ page, operation }) => [`${page}: ${operation.split('\n')[0]!.slice(0, 80)}`, operation]))(
    '%s',
    async (_title, operation) => {
      const response = (await postGraphql(url, operation)) as {
        data?: Record<string, unknown>;
        errors?: unknown[];
        extensions?: { warnings?: string[] };
      };
      expect(response.errors).toBeUndefined();
      expect(response.extensions?.warnings).toBeUndefined();
      for (const [field, value] of Object.entries(response.data ?? {})) {
        if (isNothing(value)) throw new Error(`${field} answered nothing: ${JSON.stringify(value)}`);
      }
    },
  );
});

describe('the nothing check', () => {
  it('tells an empty answer from a real one', () => {
    expect(isNothing({ totalCount: 0, edges: [], pageInfo: { hasNextPage: false, endCursor: null } })).toBe(true);
    expect(isNothing(null)).toBe(true);
    expect(isNothing({ ok: true })).toBe(false);
    expect(isNothing([{ key: '2002', count: 115 }])).toBe(false);
  });
});
