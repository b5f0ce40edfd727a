import { explorerPage, explorerTabs, readmeExamples } from '../../src/api/explorer';

describe('explorer examples from the README', () => {
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
    expect(readmeExamples(markdown)).toEqual([
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
