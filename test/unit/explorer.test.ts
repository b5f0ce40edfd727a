import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../src/config/settings';
import { documentationPages, explorerPage, explorerTabs, graphqlExamples } from '../../src/api/explorer';

describe('explorer examples from the documentation', () => {
  it('reads the README, then the pages in the order it links them, then the pages it does not link', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'citegraph-docs-'));
    try {
      mkdirSync(path.join(root, 'docs'));
      writeFileSync(path.join(root, 'README.md'), 'See [b](docs/b.md) and [a](docs/a.md), not [gone](docs/gone.md).');
      for (const name of ['a.md', 'b.md', 'c.md', 'notes.txt']) writeFileSync(path.join(root, 'docs', name), '# x\n');
      expect(documentationPages(root)).toEqual(['README.md', 'docs/b.md', 'docs/a.md', 'docs/c.md']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('links only pages that exist, and every page is reached from the README', () => {
    const readme = readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const linked = [...readme.matchAll(/\]\((docs\/[\w.-]+\.md)\)/g)].map((m) => m[1]!);
    expect(linked.length).toBeGreaterThan(5);
    expect(documentationPages().slice(1)).toEqual(linked);
  });

  it('splits each graphql block into its top-level operations, braces in strings aside', () => {
    const markdown = [
      'Intro',
      '```graphql',
      '{ health { ok } }',
      '{ search(query: "a } b {") { results { paper { id } } } }',
      'mutation { deleteDocumentSet(id: "ds_1") }',
      '```',
      '```sh',
      'curl { not graphql }',
      '```',
      '```graphql',
      '{ ask(question: "Why?") {',
      '    answer } }',
      '```',
    ].join('\n');
    expect(graphqlExamples(markdown)).toEqual([
      '{ health { ok } }',
      '{ search(query: "a } b {") { results { paper { id } } } }',
      'mutation { deleteDocumentSet(id: "ds_1") }',
      '{ ask(question: "Why?") {\n    answer } }',
    ]);
  });

  it('embeds the examples as JSON data that cannot close the script element', () => {
    const page = explorerPage(['{ search(query: "</script><script>alert(1)</script>") { total } }']);
    expect(page).not.toContain('</script><script>alert');
    const data = /<script type="application\/json" id="citegraph-examples">(.*)<\/script>/.exec(page)![1]!;
    expect(JSON.parse(data)).toEqual([
      'query Search { search(query: "</script><script>alert(1)</script>") { total } }',
    ]);
  });

  it('titles each tab by its operation, mutations and placeholders last', () => {
    expect(
      explorerTabs([
        'mutation { deleteDocumentSet(id: "ds_…") }',
        '{ health { ok } }',
        'query Named { stats { papers } }',
      ]),
    ).toEqual([
      'query Health { health { ok } }',
      'query Named { stats { papers } }',
      'mutation DeleteDocumentSet { deleteDocumentSet(id: "ds_…") }',
    ]);
  });
});
