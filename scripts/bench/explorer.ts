/**
 * The analyst's seven notebook tasks, each as the GraphQL call(s) a notebook makes, timed over HTTP against the API
 * serving the bench graph (SYNERGY + SciFact, as `scripts/bench/ingest --keep` loads it, or NEO4J_URI): top papers of
 * a topic found by name, per-year counts of three topics, an author found by name with metrics, a co-citation map of a
 * topic as one network, emerging topics of a collection, the collaboration network, and a whole collection paged in a
 * chosen order. Prints each call with its p50/p95 over the runs (after a warm-up) and the calls a task takes.
 *
 *   scripts/bench/explorer [--runs N]
 */
import { serveGraphQL } from '../../src/api/server';
import { percentile } from '../../src/retrieval/evaluation';
import { openBenchApp } from './env';

type Json = Record<string, unknown>;

async function post(url: string, query: string, variables: Json = {}): Promise<Json> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Json; errors?: Array<{ message: string }> };
  if (body.errors?.length) throw new Error(`${body.errors[0]!.message} in ${query.slice(0, 80)}`);
  return body.data!;
}

async function timed(url: string, query: string, variables: Json, runs: number) {
  for (let i = 0; i < 2; i += 1) await post(url, query, variables);
  const ms: number[] = [];
  let data: Json = {};
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    data = await post(url, query, variables);
    ms.push(performance.now() - start);
  }
  const sorted = [...ms].sort((a, b) => a - b);
  return { data, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

const oneLine = (query: string) => query.replace(/\s+/g, ' ').trim();

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 10;
  const app = await openBenchApp();
  const { url, stop } = await serveGraphQL(app, 0, '127.0.0.1');
  try {
    const { counts, collections } = await app.catalog.stats();
    const largest = [...collections]
      .filter((c) => c.collection !== 'scifact')
      .sort((x, y) => y.papers - x.papers || (x.collection < y.collection ? -1 : 1))[0]!;
    process.stdout.write(
      `graph: ${(counts.paperNodes ?? 0) - (counts.stubPapers ?? 0)} papers, ${counts.stubPapers} stubs; ` +
        `${runs} runs per call after 2 warm-up runs; largest review ${largest.collection} (${largest.papers} papers)\n\n`,
    );
    const rows: Array<{ task: string; call: string; p50: number; p95: number; note: string }> = [];
    const run = async (task: string, query: string, variables: Json, note: (data: Json) => string) => {
      const result = await timed(url, query, variables, runs);
      rows.push({ task, call: oneLine(query), p50: result.p50, p95: result.p95, note: note(result.data) });
      return result.data;
    };

    // 1. Top papers of a topic found by name: a lookup, then one call.
    const found = (await run(
      '1 top papers of a topic by name',
      'query($q: String!) { topics(search: $q, first: 1) { topic { id name } papers } }',
      { q: 'breast cancer' },
      (d) => JSON.stringify((d.topics as Json[])[0]),
    )) as { topics: Array<{ topic: { id: string } }> };
    const topic = found.topics[0]!.topic.id;
    await run(
      '1 top papers of a topic by name',
      `query($t: ID!) { topPapers(filter: {topics: [$t]}, first: 10) { totalCount
         edges { node { score paper { id title year } } } } }`,
      { t: topic },
      (d) => `${(d.topPapers as { totalCount: number }).totalCount} papers`,
    );

    // 2. Per-year counts of three topics: one call.
    const three = ['C71924100', 'C126322002', topic];
    await run(
      '2 per-year counts of three topics',
      `query($t: [ID!]) { trends(topics: $t, from: 1990, to: 2022) { series { key total cagr points { year count } } } }`,
      { t: three },
      (d) => `${((d.trends as Json).series as Json[]).length} series`,
    );

    // 3. An author found by name, with metrics: one call.
    const top = await app.analytics.topAuthors({}, 'PAPERS', { skip: 0, limit: 1 });
    const name = top.items[0]!.author.name ?? '';
    await run(
      '3 an author by name with metrics',
      `query($q: String!) { authors(search: $q, first: 3) { papers author { id name
         metrics { works hIndexInternal hIndexGlobal citationsInternal } } } }`,
      { q: name },
      (d) => `"${name}": ${(d.authors as Json[]).length} matches`,
    );

    // 4. A co-citation map of a topic as one network: one call (after the lookup of 1).
    await run(
      '4 co-citation map of a topic',
      `query($t: ID!) { network(kind: COCITATION, limit: 100, minWeight: 2, filter: {topics: [$t]}) {
         nodes { id label year stub weight degree cluster } edges { source target weight } isolatedDropped } }`,
      { t: topic },
      (d) => {
        const n = d.network as { nodes: Array<{ stub: boolean; label: string; id: string }>; edges: unknown[] };
        const bare = n.nodes.filter((node) => node.label === node.id).length;
        return `${n.nodes.length} nodes (${n.nodes.filter((node) => node.stub).length} stubs, ${bare} without a title), ${n.edges.length} edges`;
      },
    );

    // 5. Emerging topics of a collection: one call, over the collection's own years (read with groupBy, untimed).
    const years = (await post(
      url,
      'query($c: String!) { groupBy(field: YEAR, order: KEY, first: 200, filter: {collections: [$c]}) { groups { key count } } }',
      { c: largest.collection },
    )) as { groupBy: { groups: Array<{ key: string; count: number }> } };
    // The years holding the middle 90% of its papers.
    const all = years.groupBy.groups.reduce((sum, group) => sum + group.count, 0);
    let seen = 0;
    const span = { from: 0, to: 0 };
    for (const group of years.groupBy.groups) {
      seen += group.count;
      if (span.from === 0 && seen >= 0.05 * all) span.from = Number(group.key);
      if (span.to === 0 && seen >= 0.95 * all) span.to = Number(group.key);
    }
    await run(
      '5 emerging topics of a collection',
      `query($c: String!, $from: Int!, $to: Int!) { emergingTopics(filter: {collections: [$c]}, from: $from, to: $to) {
         topic { id name } early late growth } }`,
      { c: largest.collection, ...span },
      (d) => `${(d.emergingTopics as Json[]).length} topics over ${span.from}–${span.to}`,
    );

    // 6. The collaboration network: one call.
    await run(
      '6 collaboration network',
      `query($c: String!) { network(kind: COAUTHORSHIP, limit: 100, minWeight: 2, filter: {collections: [$c]}) {
         nodes { id label weight degree cluster } edges { source target weight } } }`,
      { c: largest.collection },
      (d) =>
        `${((d.network as Json).nodes as Json[]).length} nodes, ${((d.network as Json).edges as Json[]).length} edges`,
    );

    // 7. A whole collection paged in a chosen order: one call per page of 200.
    const pageQuery = `query($c: String!, $after: String) { papers(filter: {collections: [$c]},
        sort: {by: CITATIONS}, first: 200, after: $after) { totalCount edges { node { id title year citedByCount } }
        pageInfo { hasNextPage endCursor } } }`;
    const pageTimes: number[] = [];
    let pages = 0;
    let total = 0;
    // Two passes over the whole collection; the second is timed.
    for (let pass = 0; pass < 2; pass += 1) {
      let after: string | null = null;
      for (;;) {
        const start = performance.now();
        const data = (await post(url, pageQuery, { c: largest.collection, after })) as {
          papers: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string } };
        };
        if (pass === 1) {
          pageTimes.push(performance.now() - start);
          pages += 1;
        }
        total = data.papers.totalCount;
        if (!data.papers.pageInfo.hasNextPage) break;
        after = data.papers.pageInfo.endCursor;
      }
    }
    const sortedPages = [...pageTimes].sort((a, b) => a - b);
    rows.push({
      task: '7 a collection paged by citations',
      call: oneLine(pageQuery),
      p50: percentile(sortedPages, 50),
      p95: percentile(sortedPages, 95),
      note: `${total} papers in ${pages} pages (times per page, second pass)`,
    });

    process.stdout.write('| task | p50 ms | p95 ms | result |\n|---|---|---|---|\n');
    for (const row of rows)
      process.stdout.write(`| ${row.task} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.note} |\n`);
    process.stdout.write('\nCalls:\n');
    for (const row of rows) process.stdout.write(`- ${row.task}: \`${row.call}\`\n`);
  } finally {
    await stop();
    await app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
