/**
 * Bibliometrics benchmark: p50/p95 of each analytics query over the full SYNERGY graph (7,233 papers, ~159,000 stub
 * references), as loaded by `scripts/bench/ingest --keep` (or NEO4J_URI). Each query runs over several subjects
 * (the most productive authors, the most cited papers, the biggest topics), after a warm-up.
 *
 *   scripts/bench/analytics [--runs N]
 */
import type { AppContext } from '../../src/app-context';
import { percentile } from '../../src/retrieval/evaluation';
import { openBenchApp, runWhenMain } from './env';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runs = args.includes('--runs') ? Number(args[args.indexOf('--runs') + 1]) : 30;
  const app = await openBenchApp();
  const a = app.analytics;
  try {
    const synergy = { collections: null };
    const authors = (await a.topAuthors(synergy, 'INTERNAL_CITATIONS', { skip: 0, limit: runs })).items.map(
      (row) => row.author.id,
    );
    const papers = (await a.topPapers(synergy, 'INTERNAL_CITATIONS', { skip: 0, limit: runs })).items.map(
      (row) => row.paper.id,
    );
    const mostCited = papers[0]!;
    const topics = ['C71924100', 'C126322002', 'C2779134260', 'C118552586', 'C15744967', 'C141071460'];
    const { collections } = await app.catalog.stats();
    // The largest SYNERGY review in the graph: collection-level measures are budgeted on it.
    const largest = [...collections]
      .filter((c) => c.collection !== 'scifact')
      .sort((x, y) => y.papers - x.papers || (x.collection < y.collection ? -1 : 1))[0]!.collection;
    const cases = analyticsCases(app, { authors, papers, mostCited, topics, largest });
    const { counts } = await app.catalog.stats();
    process.stdout.write(
      `graph: ${(counts.paperNodes ?? 0) - (counts.stubPapers ?? 0)} papers, ${counts.stubPapers} stubs, ${counts.cites} CITES; ${runs} runs per query after 3 warm-up runs\n\n`,
    );
    process.stdout.write('| query | p50 ms | p95 ms | max ms |\n|---|---|---|---|\n');
    for (const row of await timeCases(cases, runs))
      process.stdout.write(
        row.failed
          ? `| ${row.name} | failed: ${row.failed} | | |\n`
          : `| ${row.name} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.max.toFixed(1)} |\n`,
      );
  } finally {
    await app.close();
  }
}

/** What the analytics cases run on: subjects picked from the graph at hand. */
export interface AnalyticsSubjects {
  readonly authors: readonly string[];
  readonly papers: readonly string[];
  readonly mostCited: string;
  readonly topics: readonly string[];
  /** The collection the collection-level measures run on. */
  readonly largest: string;
}

/** Every benchmarked analytics query, named, each a function of the run number (to rotate over subjects). */
export function analyticsCases(
  app: AppContext,
  { authors, papers, mostCited, topics, largest }: AnalyticsSubjects,
): Array<[string, (i: number) => Promise<unknown>]> {
  const a = app.analytics;
  const s = app.science;
  const page = { skip: 0, limit: 20 };
  return [
    ['author profile (metrics)', (i) => a.authorMetrics(authors[i % authors.length]!)],
    ['author works (page of 20)', (i) => a.authorWorks(authors[i % authors.length]!, null, page)],
    ['author co-authors (page of 20)', (i) => a.authorCoauthors(authors[i % authors.length]!, null, page)],
    ['author main topics', (i) => a.authorTopics(authors[i % authors.length]!, 5, 1)],
    ['paper cited-by (page of 20)', (i) => a.paperCitedBy(papers[i % papers.length]!, page)],
    ['paper co-cited (page of 20)', (i) => a.paperCocited(papers[i % papers.length]!, page)],
    ['co-cited of the most cited paper', () => a.paperCocited(mostCited, page)],
    ['paper coupled (page of 20)', (i) => a.paperCoupled(papers[i % papers.length]!, page)],
    ['coupled of the most cited paper', () => a.paperCoupled(mostCited, page)],
    ['paper related (10)', (i) => a.paperRelated(papers[i % papers.length]!, 10)],
    ['topic papers (page of 20)', (i) => a.topicPapers(topics[i % topics.length]!, null, page)],
    ['topic trend 1990–2022', (i) => a.trends.topicTrends([topics[i % topics.length]!], 1990, 2022)],
    ['trends, 6 topics 1990–2022', () => a.trends.topicTrends([...topics], 1990, 2022)],
    ['emerging topics 2000–2022', () => a.trends.emergingTopics(2000, 2022, { minSupport: 5, first: 10, minLevel: 1 })],
    ['top papers, internal citations', () => a.topPapers(null, 'INTERNAL_CITATIONS', page)],
    ['top papers, global citations', () => a.topPapers(null, 'GLOBAL_CITATIONS', page)],
    [
      'top papers in a topic and years',
      (i) =>
        a.topPapers({ topics: [topics[i % topics.length]!], yearFrom: 2000, yearTo: 2015 }, 'INTERNAL_CITATIONS', page),
    ],
    ['top authors, internal citations', () => a.topAuthors(null, 'INTERNAL_CITATIONS', page)],
    ['top authors, global citations', () => a.topAuthors(null, 'GLOBAL_CITATIONS', page)],
    ['venue statistics', () => a.venueStats(null, page)],
    ['collaboration network (50 authors)', () => a.collaborationNetwork(null, 50, 1)],
    ['CD index of a paper', (i) => s.impact.disruption(papers[i % papers.length]!)],
    ['CD index of the most cited paper', () => s.impact.disruption(mostCited)],
    ['CD index within 5 years', (i) => s.impact.disruption(papers[i % papers.length]!, 5)],
    ['normalised impact of a paper', (i) => s.impact.normalisedImpact([papers[i % papers.length]!])],
    ['normalised impact of an author (mean)', (i) => s.impact.authorNormalisedImpact(authors[i % authors.length]!)],
    ['prior works of 5 papers', (i) => s.priorWorks(papers.slice(i % 10, (i % 10) + 5), 20)],
    ['derivative works of 5 papers', (i) => s.derivativeWorks(papers.slice(i % 10, (i % 10) + 5), 20)],
    [
      'citation path, directed (≤ 6)',
      (i) => s.citationPath(papers[(i + 1) % papers.length]!, mostCited, true, 6).catch(() => null),
    ],
    [
      'citation path, either way (≤ 6)',
      (i) => s.citationPath(papers[(i + 1) % papers.length]!, mostCited, false, 6).catch(() => null),
    ],
    [`Lotka, largest review (${largest})`, () => s.lotka({ collections: [largest] })],
    [`Bradford, largest review (${largest})`, () => s.bradford({ collections: [largest] })],
    [
      `topic bursts, largest review 1990–2022`,
      () => s.bursts.topicBursts({ collections: [largest] }, 1990, 2022, { topics: 30, minLevel: 1, s: 2, gamma: 1 }),
    ],
    ['sleeping beauty of a paper', (i) => s.impact.sleepingBeauty(papers[i % papers.length]!, 'INTERNAL_CITATIONS')],
    [
      `sleeping beauties, largest review (${largest})`,
      () => s.impact.sleepingBeauties({ collections: [largest] }, 'INTERNAL_CITATIONS', 20, 5),
    ],
    [`main path, largest review (${largest})`, () => s.networks.mainPath({ collections: [largest] }, 2000)],
    [
      `key-route main path (10), largest review (${largest})`,
      () => s.networks.mainPath({ collections: [largest] }, 2000, 'KEY_ROUTE', 10),
    ],
    [
      `coupling clusters, largest review (${largest})`,
      () =>
        s.networks.clusters({ collections: [largest] }, 'COUPLING', { maxNodes: 2000, minWeight: 2, resolution: 1 }),
    ],
    [
      `co-citation clusters, largest review (${largest})`,
      () =>
        s.networks.clusters({ collections: [largest] }, 'COCITATION', { maxNodes: 300, minWeight: 2, resolution: 1 }),
    ],
    [
      `reference bursts, largest review 1990–2022`,
      () => s.bursts.referenceBursts({ collections: [largest] }, 1990, 2022, { references: 50, s: 2, gamma: 1 }),
    ],
    [
      `coupling network export, largest review (${largest})`,
      () => s.networks.network({ collections: [largest] }, 'COUPLING', { maxNodes: 2000, minWeight: 2 }),
    ],
    ...(['COAUTHORSHIP', 'COCITATION', 'COUPLING', 'TOPIC_COOCCURRENCE'] as const).map(
      (kind): [string, (i: number) => Promise<unknown>] => [
        `${kind.toLowerCase()} map laid out (100 nodes), largest review (${largest})`,
        () =>
          s.networks.graphNetwork({ collections: [largest] }, kind, {
            maxNodes: 100,
            minWeight: 1,
            stubs: true,
            isolated: false,
            minLevel: 1,
            layout: true,
          }),
      ],
    ),
    [
      `co-citation map laid out (500 nodes), largest review (${largest})`,
      () =>
        s.networks.graphNetwork({ collections: [largest] }, 'COCITATION', {
          maxNodes: 500,
          minWeight: 1,
          stubs: true,
          isolated: false,
          minLevel: 1,
          layout: true,
        }),
    ],
    [
      'person of two author records',
      (i) => s.person([authors[i % authors.length]!, authors[(i + 1) % authors.length]!], 20),
    ],
    [
      `possible duplicate authors, largest review (${largest})`,
      () => s.possibleDuplicates({ collections: [largest] }, 20),
    ],
    ['possible duplicate authors, whole graph', () => s.possibleDuplicates(null, 20)],
    ['Lotka, whole graph', () => s.lotka(null)],
    ['Bradford, whole graph', () => s.bradford(null)],
    [
      'topic bursts, whole graph 1990–2022',
      () => s.bursts.topicBursts(null, 1990, 2022, { topics: 30, minLevel: 1, s: 2, gamma: 1 }),
    ],
  ];
}

/** p50, p95 and max of each case over `runs` runs after `warmups` warm-up runs. */
export async function timeCases(
  cases: Array<[string, (i: number) => Promise<unknown>]>,
  runs: number,
  warmups = 3,
): Promise<Array<{ name: string; p50: number; p95: number; max: number; failed?: string }>> {
  const rows: Array<{ name: string; p50: number; p95: number; max: number; failed?: string }> = [];
  for (const [name, run] of cases) {
    const times: number[] = [];
    try {
      for (let i = 0; i < warmups; i += 1) await run(i);
      for (let i = 0; i < runs; i += 1) {
        const started = process.hrtime.bigint();
        await run(i);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    } catch (error) {
      // A query that fails (memory, timeout) is reported as such; the other queries are still measured.
      rows.push({ name, p50: NaN, p95: NaN, max: NaN, failed: (error as Error).message.slice(0, 160) });
      continue;
    }
    times.sort((x, y) => x - y);
    rows.push({ name, p50: percentile(times, 50), p95: percentile(times, 95), max: times[times.length - 1]! });
  }
  return rows;
}

runWhenMain(module, 'bench-analytics', main);
