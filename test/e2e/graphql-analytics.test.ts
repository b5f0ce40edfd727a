import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { serveGraphQL } from '../../src/api/server';
import { beautyCoefficient, fitLotka, kleinbergBursts, nameKey } from '../../src/analytics/science-of-science';
import { globalMainPath, keyRouteMainPath } from '../../src/analytics/main-path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { postGraphql } from '../helpers/graphql-client';
import { createTestContext, removeCollections } from '../helpers/context';
import { SHARED_DIR } from '../helpers/test-database';
import { PROJECT_ROOT } from '../../src/config/settings';

/** The raw SYNERGY works, read here independently of the product's mapping code. */
interface RawWork {
  id: string;
  title?: string | null;
  display_name?: string | null;
  doi?: string | null;
  publication_year: number;
  publication_date?: string | null;
  counts_by_year?: Array<{ year: number; cited_by_count: number }>;
  cited_by_count: number;
  referenced_works: string[];
  authorships: Array<{ author: { id: string | null }; institutions?: Array<{ id: string | null }> }>;
  concepts: Array<{ id: string; score: number | string; level: number }>;
  biblio?: { volume: string | null; issue: string | null; first_page: string | null; last_page: string | null };
  language?: string | null;
  primary_location?: { license?: string | null } | null;
  best_oa_location?: { license?: string | null } | null;
  mesh?: Array<{ descriptor_name: string; is_major_topic: boolean }>;
}

const short = (url: string) => url.replace('https://openalex.org/', '');
const WORKS = path.join(SHARED_DIR, 'data/synergy/works');
const files = readdirSync(WORKS)
  .filter((name) => name.endsWith('.jsonl.gz'))
  .sort()
  .map((name) => path.join(WORKS, name));
const works = new Map<string, RawWork>();
for (const file of files) {
  for (const line of gunzipSync(readFileSync(file)).toString('utf8').split('\n')) {
    if (line.trim()) {
      const work = JSON.parse(line) as RawWork;
      works.set(short(work.id), work);
    }
  }
}
const refsOf = (id: string) => new Set((works.get(id)!.referenced_works ?? []).map(short).filter((ref) => ref !== id));
const internalCitations = new Map<string, number>();
for (const id of works.keys())
  for (const ref of refsOf(id)) if (works.has(ref)) internalCitations.set(ref, (internalCitations.get(ref) ?? 0) + 1);

function hIndex(counts: number[]): number {
  const sorted = [...counts].sort((a, b) => b - a);
  return sorted.filter((count, index) => count >= index + 1).length;
}

const { app } = createTestContext();
/** The SYNERGY reviews, one collection each (named after their files). */
const OWN = files.map((file) => path.basename(file).replace(/\.jsonl\.gz$/, ''));
let url = '';
let stop: () => Promise<void> = () => Promise.resolve();

const gql = (query: string, variables: Record<string, unknown> = {}): Promise<any> =>
  postGraphql(url, query, variables);

beforeAll(async () => {
  await removeCollections(app, OWN);
  await app.ingest.ingestFiles(files, { embed: 'defer', progress: false });
  ({ url, stop } = await serveGraphQL(app, 0, '127.0.0.1'));
});

afterAll(async () => {
  await stop();
  await removeCollections(app, OWN);
  await app.close();
});

describe('bibliometrics over GraphQL, checked against the raw JSONL', () => {
  it('counts papers per year for a topic', async () => {
    const topic = 'C71924100'; // Medicine
    const expected = new Map<number, number>();
    for (const work of works.values()) {
      if (
        work.publication_year >= 2000 &&
        work.publication_year <= 2010 &&
        (work.concepts ?? []).some((c) => short(c.id) === topic)
      ) {
        expected.set(work.publication_year, (expected.get(work.publication_year) ?? 0) + 1);
      }
    }
    const { data, errors } = await gql(
      'query ($t: [ID!]) { trends(topics: $t, from: 2000, to: 2010) { series { key total cagr topic { name } points { year count growth } } emerging { topic { id } early late growth } } }',
      { t: [topic] },
    );
    expect(errors).toBeUndefined();
    const series = data.trends.series[0];
    expect(series.topic.name).toBe('Medicine');
    expect(series.points).toHaveLength(11);
    for (const point of series.points) expect(point.count).toBe(expected.get(point.year) ?? 0);
    expect(series.total).toBe([...expected.values()].reduce((a, b) => a + b, 0));
    for (const emerging of data.trends.emerging) expect(emerging.late).toBeGreaterThanOrEqual(5);
  });

  it("computes an author's h-indexes, citations and co-authors", async () => {
    const byAuthor = new Map<string, Set<string>>();
    for (const [id, work] of works) {
      for (const authorship of work.authorships ?? []) {
        if (!authorship.author.id) continue;
        const author = short(authorship.author.id);
        byAuthor.set(author, (byAuthor.get(author) ?? new Set()).add(id));
      }
    }
    const [author, papers] = [...byAuthor.entries()].sort(
      (a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1),
    )[0]!;
    const internal = [...papers].map((id) => internalCitations.get(id) ?? 0);
    const global = [...papers].map((id) => works.get(id)!.cited_by_count ?? 0);
    const coauthors = new Map<string, number>();
    for (const id of papers) {
      const others = new Set(
        works
          .get(id)!
          .authorships.map((a) => a.author.id)
          .filter((x): x is string => Boolean(x))
          .map(short),
      );
      for (const other of others) if (other !== author) coauthors.set(other, (coauthors.get(other) ?? 0) + 1);
      // An author without an id is a co-author of that one paper only (never merged by name).
      works.get(id)!.authorships.forEach((a, order) => {
        if (!a.author.id) coauthors.set(`anon:${id}:${order}`, 1);
      });
    }
    const { data, errors } = await gql(
      `query ($id: ID!) { author(id: $id) { metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
         coauthors(first: 200) { totalCount edges { jointPapers node { id } } } works(first: 5) { totalCount } mainTopics(first: 3) { topic { id } papers } } }`,
      { id: author },
    );
    expect(errors).toBeUndefined();
    expect(data.author.metrics).toMatchObject({
      works: papers.size,
      hIndexInternal: hIndex(internal),
      hIndexGlobal: hIndex(global),
      citationsInternal: internal.reduce((a, b) => a + b, 0),
      citationsGlobal: global.reduce((a, b) => a + b, 0),
    });
    expect(data.author.works.totalCount).toBe(papers.size);
    expect(data.author.coauthors.totalCount).toBe(coauthors.size);
    for (const edge of data.author.coauthors.edges) expect(edge.jointPapers).toBe(coauthors.get(edge.node.id));
    expect(data.author.mainTopics).toHaveLength(3);
  });

  it('counts co-citations and bibliographic coupling of the most cited paper', async () => {
    const [target] = [...internalCitations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
    const cocited = new Map<string, number>();
    const coupled = new Map<string, number>();
    const targetRefs = refsOf(target);
    for (const id of works.keys()) {
      const refs = refsOf(id);
      if (refs.has(target)) for (const ref of refs) if (ref !== target) cocited.set(ref, (cocited.get(ref) ?? 0) + 1);
      if (id !== target) {
        const shared = [...refs].filter((ref) => targetRefs.has(ref)).length;
        if (shared > 0) coupled.set(id, shared);
      }
    }
    const { data, errors } = await gql(
      `query ($id: ID!) { paper(id: $id) { internalCitationCount citedBy(first: 5) { totalCount }
         coCited(first: 50) { totalCount edges { count node { id stub } } }
         coupled(first: 50) { totalCount edges { count node { id } } }
         related(first: 5) { score coCitations sharedReferences direct paper { id stub } } } }`,
      { id: target },
    );
    expect(errors).toBeUndefined();
    const paper = data.paper;
    expect(paper.internalCitationCount).toBe(internalCitations.get(target));
    expect(paper.citedBy.totalCount).toBe(internalCitations.get(target));
    expect(paper.coCited.totalCount).toBe(cocited.size);
    for (const edge of paper.coCited.edges) expect(edge.count).toBe(cocited.get(edge.node.id));
    const topCounts = [...cocited.values()].sort((a, b) => b - a).slice(0, 50);
    expect(paper.coCited.edges.map((e: { count: number }) => e.count)).toEqual(topCounts);
    expect(paper.coupled.totalCount).toBe(coupled.size);
    for (const edge of paper.coupled.edges) expect(edge.count).toBe(coupled.get(edge.node.id));
    for (const related of paper.related) expect(related.paper.stub).toBe(false);
  });

  it('ranks top papers by internal and global citations, with pagination', async () => {
    const internal = [...internalCitations.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 10);
    const first = await gql(
      '{ topPapers(first: 5, by: INTERNAL_CITATIONS) { totalCount edges { cursor node { score paper { id } } } pageInfo { endCursor hasNextPage } } }',
    );
    expect(first.data.topPapers.totalCount).toBe(works.size);
    const second = await gql(
      'query ($after: String) { topPapers(first: 5, after: $after) { edges { node { score paper { id } } } } }',
      {
        after: first.data.topPapers.pageInfo.endCursor,
      },
    );
    const got = [...first.data.topPapers.edges, ...second.data.topPapers.edges].map((e: any) => [
      e.node.paper.id,
      e.node.score,
    ]);
    expect(got).toEqual(internal);
    const global = [...works.entries()]
      .map(([id, w]) => [id, w.cited_by_count ?? 0] as const)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 5);
    const byGlobal = await gql(
      '{ topPapers(first: 5, by: GLOBAL_CITATIONS) { edges { node { score paper { id } } } } }',
    );
    expect(byGlobal.data.topPapers.edges.map((e: any) => [e.node.paper.id, e.node.score])).toEqual(global);
  });

  it('answers top authors, venues, topic views and a bounded collaboration network', async () => {
    const { data, errors } = await gql(`{
      topAuthors(first: 5, filter: { years: { from: 2010, to: 2022 } }) { edges { node { papers citations author { id name } } } }
      venues(first: 5) { totalCount edges { node { papers internalCitations venue { name } } } }
      topic(id: "C71924100") { name paperCount papers(first: 3) { totalCount } topPapers(first: 3) { score } topAuthors(first: 3) { papers } trend(from: 2015, to: 2020) { total points { year count } } }
      collaborationNetwork(limit: 30) { nodes { id papers } edges { source target jointPapers } }
    }`);
    expect(errors).toBeUndefined();
    const scores = data.topAuthors.edges.map((e: any) => e.node.citations);
    expect([...scores].sort((a: number, b: number) => b - a)).toEqual(scores);
    expect(data.venues.edges[0].node.papers).toBeGreaterThan(data.venues.edges[4].node.papers - 1);
    expect(data.topic.paperCount).toBe(data.topic.papers.totalCount);
    expect(data.collaborationNetwork.nodes.length).toBeLessThanOrEqual(30);
    const nodeIds = new Set(data.collaborationNetwork.nodes.map((n: { id: string }) => n.id));
    for (const edge of data.collaborationNetwork.edges) {
      expect(nodeIds.has(edge.source) && nodeIds.has(edge.target)).toBe(true);
      expect(edge.jointPapers).toBeGreaterThanOrEqual(1);
    }
  });

  it('bounds every list and range', async () => {
    const wide = await gql('{ trends(topics: ["C71924100"], from: 1000, to: 2020) { series { total } } }');
    expect(wide.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const big = await gql('{ topPapers(first: 100000) { edges { cursor } } }');
    expect(big.data.topPapers.edges).toHaveLength(200);
    const network = await gql('{ collaborationNetwork(limit: 100000) { nodes { id } } }');
    expect(network.data.collaborationNetwork.nodes.length).toBeLessThanOrEqual(200);
    const neither = await gql('{ trends(from: 2000, to: 2010) { series { total } } }');
    expect(neither.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

/** Works of one review file, read again from the raw JSONL. */
function reviewWorks(name: string): RawWork[] {
  return gunzipSync(readFileSync(path.join(WORKS, `${name}.jsonl.gz`)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as RawWork);
}

/** Neighbours over raw references: directed (citing → cited) and either way, built once. */
const neighbourMaps = (() => {
  const directed = new Map<string, Set<string>>();
  const undirected = new Map<string, Set<string>>();
  const link = (map: Map<string, Set<string>>, a: string, b: string) => map.set(a, (map.get(a) ?? new Set()).add(b));
  for (const id of works.keys()) {
    for (const ref of refsOf(id)) {
      link(directed, id, ref);
      link(undirected, id, ref);
      link(undirected, ref, id);
    }
  }
  return { directed, undirected };
})();

/** Shortest distance from `from` to `to` over raw references (directed: citing → cited), up to `max` steps. */
function distance(from: string, to: string, directed: boolean, max: number): number | null {
  const neighbours = directed ? neighbourMaps.directed : neighbourMaps.undirected;
  let frontier = [from];
  const seen = new Set(frontier);
  for (let depth = 1; depth <= max; depth += 1) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const other of neighbours.get(node) ?? []) {
        if (other === to) return depth;
        if (!seen.has(other)) {
          seen.add(other);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  return null;
}

describe('science-of-science over GraphQL, recomputed from the raw JSONL', () => {
  const target = [...internalCitations.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];

  it('computes the CD index of the most cited paper, over all years and within five', async () => {
    const focalYear = works.get(target)!.publication_year;
    const references = refsOf(target);
    const expected = (window: number | null) => {
      const counts = { focalOnly: 0, both: 0, referencesOnly: 0 };
      for (const [id, work] of works) {
        if (id === target || work.publication_year < focalYear) continue;
        if (window !== null && work.publication_year > focalYear + window) continue;
        const refs = refsOf(id);
        const citesFocal = refs.has(target);
        const citesReferences = [...refs].some((ref) => references.has(ref));
        if (citesFocal && citesReferences) counts.both += 1;
        else if (citesFocal) counts.focalOnly += 1;
        else if (citesReferences) counts.referencesOnly += 1;
      }
      return counts;
    };
    const { data, errors } = await gql(
      `query ($id: ID!) { paper(id: $id) {
         all: disruption { cd focalOnly both referencesOnly references window }
         five: disruption(window: 5) { cd focalOnly both referencesOnly window } } }`,
      { id: target },
    );
    expect(errors).toBeUndefined();
    for (const [measured, window] of [
      [data.paper.all, null],
      [data.paper.five, 5],
    ] as const) {
      const counts = expected(window);
      expect(measured).toMatchObject({ ...counts, window });
      const n = counts.focalOnly + counts.both + counts.referencesOnly;
      expect(measured.cd).toBeCloseTo((counts.focalOnly - counts.both) / n, 12);
    }
    expect(data.paper.all.references).toBe(references.size);
  });

  it("sorts a review's papers by disruption, leaving out of the ranking those that cite nothing, and says so", async () => {
    /** The CD index of a paper from the raw records: later papers citing it, its references, or both. */
    const rawCd = (focal: string) => {
      const year = works.get(focal)!.publication_year;
      const references = refsOf(focal);
      const counts = { focalOnly: 0, both: 0, referencesOnly: 0 };
      for (const [id, work] of works) {
        if (id === focal || work.publication_year < year) continue;
        const refs = refsOf(id);
        const citesReferences = [...refs].some((ref) => references.has(ref));
        if (refs.has(focal)) counts[citesReferences ? 'both' : 'focalOnly'] += 1;
        else if (citesReferences) counts.referencesOnly += 1;
      }
      const n = counts.focalOnly + counts.both + counts.referencesOnly;
      // Ranked when some full paper cites it (in any year; the index counts those from its year on).
      const cited = [...works.keys()].some((id) => id !== focal && refsOf(id).has(focal));
      return { cd: n > 0 && cited ? (counts.focalOnly - counts.both) / n : null, references };
    };
    const review = [...new Set(reviewWorks('Donners_2021').map((w) => short(w.id)))];
    const scored = review.map((id) => ({ id, ...rawCd(id) })).filter((p) => p.cd !== null);
    const ranked = scored
      .filter((p) => p.references.size > 0)
      .sort((a, b) => b.cd! - a.cd! || a.id.localeCompare(b.id));
    const uncitable = scored.length - ranked.length;
    // The degenerate top this guards against: papers that cite nothing and score +1.
    expect(uncitable).toBeGreaterThan(0);
    const response = (await postGraphql(
      url,
      `{ papers(filter: { collections: ["Donners_2021"] }, sort: { by: DISRUPTION }, first: 30) {
           totalCount edges { node { id disruption { cd references } } } } }`,
    )) as { data: any; errors?: unknown; extensions?: { warnings?: string[] } };
    expect(response.errors).toBeUndefined();
    const page = response.data.papers.edges.map((e: any) => e.node);
    expect(response.data.papers.totalCount).toBe(review.length);
    expect(page.map((p: any) => p.id)).toEqual(ranked.slice(0, 30).map((p) => p.id));
    for (const p of page) {
      expect(p.disruption.references).toBeGreaterThan(0);
      expect(p.disruption.cd).toBeCloseTo(ranked.find((r) => r.id === p.id)!.cd!, 12);
    }
    expect(response.extensions?.warnings).toEqual([
      `sort DISRUPTION: ${review.length - ranked.length} of ${review.length} papers have no CD index and come last (${uncitable} cite no work the graph knows, so their index would be +1 by construction; for the other ${review.length - scored.length}, no paper of the graph cites them)`,
    ]);
    // Ascending: the most consolidating first; other lists refuse the sort.
    const ascending = await gql(
      '{ papers(filter: { collections: ["Donners_2021"] }, sort: { by: DISRUPTION, direction: ASC }, first: 3) { edges { node { id } } } }',
    );
    expect(ascending.data.papers.edges.map((e: any) => e.node.id)).toEqual(
      [...ranked]
        .reverse()
        .slice(0, 3)
        .map((p) => p.id),
    );
    const refused = await gql(`{ paper(id: "${review[0]}") { references(sort: { by: DISRUPTION }) { totalCount } } }`);
    expect(refused.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('lists prior and derivative works of a set of papers', async () => {
    const set = [...works.keys()]
      .filter((id) => refsOf(id).has(target))
      .sort()
      .slice(0, 5);
    const prior = new Map<string, number>();
    const derivative = new Map<string, number>();
    for (const id of set)
      for (const ref of refsOf(id)) if (!set.includes(ref)) prior.set(ref, (prior.get(ref) ?? 0) + 1);
    for (const [id] of works) {
      if (set.includes(id)) continue;
      const cited = [...refsOf(id)].filter((ref) => set.includes(ref)).length;
      if (cited > 0) derivative.set(id, cited);
    }
    const { data, errors } = await gql(
      'query ($ids: [ID!]!) { priorWorks(ids: $ids, first: 30) { count paper { id } } derivativeWorks(ids: $ids, first: 30) { count paper { id } } }',
      { ids: set },
    );
    expect(errors).toBeUndefined();
    expect(data.priorWorks[0].paper.id).toBe(target);
    for (const row of data.priorWorks) expect(row.count).toBe(prior.get(row.paper.id));
    expect(data.priorWorks.map((r: any) => r.count)).toEqual([...prior.values()].sort((a, b) => b - a).slice(0, 30));
    for (const row of data.derivativeWorks) expect(row.count).toBe(derivative.get(row.paper.id));
    expect(data.derivativeWorks.map((r: any) => r.count)).toEqual(
      [...derivative.values()].sort((a, b) => b - a).slice(0, 30),
    );
  });

  it('finds the shortest citation path, directed and either way, each step a real citation', async () => {
    // A paper two citations away from the most cited one: it cites a paper that cites the target, but not the target.
    const citing = new Set([...works.keys()].filter((id) => refsOf(id).has(target)));
    const start = [...works.keys()]
      .sort()
      .find((id) => !citing.has(id) && id !== target && [...refsOf(id)].some((ref) => citing.has(ref)))!;
    const other = [...works.keys()].sort().find((id) => id !== target && distance(id, target, false, 6) === 3)!;
    const { data, errors } = await gql(
      `query ($a: ID!, $b: ID!, $c: ID!) {
         directed: citationPath(from: $a, to: $b) { length forward papers { id } }
         back: citationPath(from: $b, to: $a, directed: true, maxDepth: 6) { length }
         either: citationPath(from: $c, to: $b, directed: false) { length forward papers { id } } }`,
      { a: start, b: target, c: other },
    );
    expect(errors).toBeUndefined();
    expect(data.directed.length).toBe(distance(start, target, true, 6));
    expect(data.directed.length).toBe(2);
    expect(data.back).toBeNull(); // the target does not cite its way back
    expect(data.either.length).toBe(3);
    for (const path of [data.directed, data.either]) {
      const ids = path.papers.map((p: { id: string }) => p.id);
      path.forward.forEach((forward: boolean, i: number) => {
        const [a, b] = forward ? [ids[i], ids[i + 1]] : [ids[i + 1], ids[i]];
        expect(refsOf(a).has(b)).toBe(true);
      });
    }
    const tooFar = await gql('query ($a: ID!, $b: ID!) { citationPath(from: $a, to: $b, maxDepth: 11) { length } }', {
      a: start,
      b: target,
    });
    expect(tooFar.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'maxDepth' });
  });

  it("fits Lotka's law and cuts Bradford's zones for one review", async () => {
    const review = reviewWorks('Donners_2021');
    const perAuthor = new Map<string, Set<string>>();
    for (const work of review)
      for (const a of work.authorships ?? [])
        if (a.author.id)
          perAuthor.set(short(a.author.id), (perAuthor.get(short(a.author.id)) ?? new Set()).add(work.id));
    const expected = fitLotka([...perAuthor.values()].map((ids) => ids.size));
    const { data, errors } = await gql(`{
      lotka(filter: { collections: ["Donners_2021"] }) { authors exponent constant distribution { papers authors } }
      bradford(filter: { collections: ["Donners_2021"] }) { papersWithoutVenue multipliers zones { zone papers venues { papers venue { id } } } }
      papers(filter: { collections: ["Donners_2021"] }) { totalCount } }`);
    expect(errors).toBeUndefined();
    expect(data.lotka.distribution).toEqual(expected.distribution);
    expect(data.lotka.authors).toBe(perAuthor.size);
    expect(data.lotka.exponent).toBeCloseTo(expected.exponent!, 10);
    const zones = data.bradford.zones;
    const inZones = zones.reduce((sum: number, z: any) => sum + z.papers, 0);
    expect(inZones + data.bradford.papersWithoutVenue).toBe(data.papers.totalCount);
    const counts = zones.flatMap((z: any) => z.venues.map((v: any) => v.papers));
    expect([...counts].sort((a, b) => b - a)).toEqual(counts); // ranked across the zones
    expect(zones[0].papers).toBeLessThanOrEqual(Math.ceil(inZones / 3) + zones[0].venues.at(-1).papers);
  });

  it('detects bursts of topics, the same as the automaton over the raw yearly counts', async () => {
    const review = reviewWorks('Meijboom_2021');
    const { data, errors } = await gql(`{
      topicBursts(filter: { collections: ["Meijboom_2021"] }, from: 2000, to: 2021, topics: 10) {
        papers topic { id } bursts { start end strength } } }`);
    expect(errors).toBeUndefined();
    expect(data.topicBursts.length).toBeGreaterThan(0);
    const totals = new Map<number, number>();
    for (const work of review)
      if (work.publication_year >= 2000 && work.publication_year <= 2021)
        totals.set(work.publication_year, (totals.get(work.publication_year) ?? 0) + 1);
    for (const row of data.topicBursts) {
      const relevant = new Map<number, number>();
      for (const work of review)
        if (
          work.publication_year >= 2000 &&
          work.publication_year <= 2021 &&
          (work.concepts ?? []).some((c) => short(c.id) === row.topic.id)
        )
          relevant.set(work.publication_year, (relevant.get(work.publication_year) ?? 0) + 1);
      const series = [...totals.entries()].map(([year, total]) => ({ year, total, relevant: relevant.get(year) ?? 0 }));
      expect(row.papers).toBe([...relevant.values()].reduce((a, b) => a + b, 0));
      const expected = kleinbergBursts(series);
      expect(row.bursts.map((b: any) => [b.start, b.end])).toEqual(expected.map((b) => [b.start, b.end]));
      row.bursts.forEach((b: any, i: number) => expect(b.strength).toBeCloseTo(expected[i]!.strength, 8));
    }
  });

  it('finds the main path of one review, the same as over the raw citations', async () => {
    const review = reviewWorks('Donners_2021');
    const ids = new Set(review.map((w) => short(w.id)));
    const citations = [...ids].flatMap((id) =>
      [...refsOf(id)].filter((ref) => ids.has(ref)).map((cited) => ({ citing: id, cited })),
    );
    const timed = [...ids].map((id) => ({
      id,
      year: works.get(id)!.publication_year,
      publicationDate: works.get(id)!.publication_date ?? null,
    }));
    const expected = globalMainPath(timed, citations);
    const { data, errors } = await gql(`{ mainPath(filter: { collections: ["Donners_2021"] }, maxPapers: 5000) {
      nodes citations dropped paths weights papers { id year }
      droppedCitations { citing { id } cited { id } reason } } }`);
    expect(errors).toBeUndefined();
    expect(data.mainPath.nodes).toBe(ids.size);
    expect(data.mainPath.papers.map((p: { id: string }) => p.id)).toEqual(expected.papers);
    expect(data.mainPath.weights).toEqual(expected.weights);
    expect(data.mainPath.citations + data.mainPath.dropped).toBe(citations.length);
    expect(expected.papers.length).toBeGreaterThan(2);
    const years = data.mainPath.papers.map((p: { year: number }) => p.year);
    expect([...years].sort((a, b) => a - b)).toEqual(years);
    // Exactly the citations that run backward in time are dropped, each with its reason, read from the raw records:
    // an earlier year, an earlier date within the year (a paper without a date after those with one), or the same
    // date and a smaller id (one direction kept).
    const when = (id: string) => ({
      year: works.get(id)!.publication_year,
      date: works.get(id)!.publication_date ?? '~',
    });
    const backward = citations.flatMap(({ citing, cited }) => {
      const a = when(citing);
      const b = when(cited);
      if (a.year !== b.year) return a.year < b.year ? [[citing, cited, 'LATER_YEAR']] : [];
      if (a.date !== b.date) return a.date < b.date ? [[citing, cited, 'LATER_DATE']] : [];
      return citing < cited ? [[citing, cited, 'SAME_DATE']] : [];
    });
    const drops = data.mainPath.droppedCitations.map(
      (d: { citing: { id: string }; cited: { id: string }; reason: string }) => [d.citing.id, d.cited.id, d.reason],
    );
    expect(drops.map(String).sort()).toEqual(backward.map(String).sort());
    expect(data.mainPath.dropped).toBe(backward.length);

    const keyRoute = keyRouteMainPath(timed, citations, 5);
    const routed = await gql(`{ mainPath(filter: { collections: ["Donners_2021"] }, maxPapers: 5000, method: KEY_ROUTE,
      keyRoutes: 5) { method papers { id } links { cited { id } citing { id } weight } } }`);
    expect(routed.errors).toBeUndefined();
    expect(routed.data.mainPath.method).toBe('KEY_ROUTE');
    expect(routed.data.mainPath.papers.map((p: { id: string }) => p.id)).toEqual(keyRoute.papers);
    const links = routed.data.mainPath.links.map(
      (l: { cited: { id: string }; citing: { id: string }; weight: number }) => [l.cited.id, l.citing.id, l.weight],
    );
    expect(links).toEqual(keyRoute.links.map((l) => [l.cited, l.citing, l.weight]));
    // Every link is a raw citation and every paper lies on a link.
    for (const [cited, citing] of links) expect(refsOf(citing).has(cited)).toBe(true);
    expect(new Set(links.flatMap(([cited, citing]: string[]) => [cited, citing])).size).toBe(keyRoute.papers.length);
    expect(keyRoute.papers.length).toBeGreaterThan(2);
    const bad = await gql(`{ mainPath(method: KEY_ROUTE, keyRoutes: 0) { nodes } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('clusters the coupling network of one review; its modularity recomputed from raw shared references', async () => {
    const review = reviewWorks('Donners_2021');
    const ids = [...new Set(review.map((w) => short(w.id)))];
    const { data, errors } = await gql(`{ clusters(filter: { collections: ["Donners_2021"] }, network: COUPLING,
      maxNodes: 2000, minWeight: 2) { nodes edges modularity clusters { cluster size terms members papers { id }
      topics { papers topic { name } } } } }`);
    expect(errors).toBeUndefined();
    const result = data.clusters;
    // Coupling edges from the raw records: pairs sharing two or more references.
    const weights = new Map<string, number>();
    for (let i = 0; i < ids.length; i += 1) {
      const a = refsOf(ids[i]!);
      for (let j = i + 1; j < ids.length; j += 1) {
        const shared = [...refsOf(ids[j]!)].filter((ref) => a.has(ref)).length;
        if (shared >= 2) weights.set([ids[i], ids[j]].sort().join('|'), shared);
      }
    }
    expect(result.edges).toBe(weights.size);
    const nodes = new Set([...weights.keys()].flatMap((key) => key.split('|')));
    expect(result.nodes).toBe(nodes.size);
    expect(result.clusters.reduce((sum: number, c: any) => sum + c.size, 0)).toBe(nodes.size);
    // The partition's modularity, from the raw weights: Σ_c [w_in(c)/m − (deg(c)/2m)²].
    const clusterOf = new Map<string, number>();
    for (const c of result.clusters) {
      expect(c.members).toHaveLength(c.size);
      for (const id of c.members) clusterOf.set(id, c.cluster);
    }
    expect(clusterOf.size).toBe(nodes.size);
    const m = [...weights.values()].reduce((a, b) => a + b, 0);
    const inside = new Map<number, number>();
    const degree = new Map<number, number>();
    for (const [key, w] of weights) {
      const [a, b] = key.split('|') as [string, string];
      const ca = clusterOf.get(a)!;
      const cb = clusterOf.get(b)!;
      if (ca === cb) inside.set(ca, (inside.get(ca) ?? 0) + w);
      degree.set(ca, (degree.get(ca) ?? 0) + w);
      degree.set(cb, (degree.get(cb) ?? 0) + w);
    }
    let q = 0;
    for (const [c, d] of degree) q += (inside.get(c) ?? 0) / m - (d / (2 * m)) ** 2;
    expect(result.modularity).toBeCloseTo(q, 8);
    // Louvain never ends below the all-in-one partition (modularity 0).
    expect(result.modularity).toBeGreaterThan(0);
    for (const c of result.clusters.filter((c: any) => c.size >= 5)) expect(c.terms.length).toBeGreaterThan(0);
  });

  it("normalises a paper's and an author's impact by year and field, as recomputed from the raw records", async () => {
    const score = (c: { score: number | string }) => Number(c.score);
    const fieldOf = (id: string) =>
      [...(works.get(id)!.concepts ?? [])].sort(
        (a, b) =>
          (a.level === 1 ? 0 : 1) - (b.level === 1 ? 0 : 1) ||
          score(b) - score(a) ||
          (short(a.id) < short(b.id) ? -1 : 1),
      )[0];
    const impact = (id: string) => {
      const field = fieldOf(id);
      if (!field) return null;
      const year = works.get(id)!.publication_year;
      const peers = [...works.entries()].filter(
        ([, w]) => w.publication_year === year && (w.concepts ?? []).some((c) => short(c.id) === short(field.id)),
      );
      const expected = peers.reduce((sum, [peer]) => sum + (internalCitations.get(peer) ?? 0), 0) / peers.length;
      return { field: short(field.id), peers: peers.length, expected, citations: internalCitations.get(id) ?? 0 };
    };
    const expected = impact(target)!;
    const byAuthor = new Map<string, string[]>();
    for (const [id, work] of works)
      for (const a of work.authorships ?? [])
        if (a.author.id) byAuthor.set(short(a.author.id), [...(byAuthor.get(short(a.author.id)) ?? []), id]);
    const [author, papers] = [...byAuthor.entries()].sort(
      (a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1),
    )[0]!;
    const values = papers
      .map(impact)
      .filter((v) => v !== null && v.expected > 0)
      .map((v) => v!.citations / v!.expected);
    const { data, errors } = await gql(
      `query ($id: ID!, $a: ID!) { paper(id: $id) { normalisedImpact { value citations expected peers year field { id } } }
         author(id: $a) { normalisedImpact { mean papers } } }`,
      { id: target, a: author },
    );
    expect(errors).toBeUndefined();
    const measured = data.paper.normalisedImpact;
    expect(measured).toMatchObject({
      citations: expected.citations,
      peers: expected.peers,
      field: { id: expected.field },
    });
    expect(measured.expected).toBeCloseTo(expected.expected, 10);
    expect(measured.value).toBeCloseTo(expected.citations / expected.expected, 10);
    expect(data.author.normalisedImpact.papers).toBe(values.length);
    expect(data.author.normalisedImpact.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 10);
  });

  it('ranks sleeping beauties of one review by the beauty coefficient of their raw citation histories', async () => {
    const review = [...new Set(reviewWorks('Oud_2018').map((w) => short(w.id)))];
    const citingYears = new Map<string, number[]>();
    for (const [id, work] of works)
      for (const ref of refsOf(id)) citingYears.set(ref, [...(citingYears.get(ref) ?? []), work.publication_year]);
    const expected = review
      .filter((id) => (citingYears.get(id) ?? []).length >= 5)
      .map((id) => {
        const year = works.get(id)!.publication_year;
        const years = (citingYears.get(id) ?? []).filter((y) => y >= year);
        const last = Math.max(year, ...years);
        const series = Array.from({ length: last - year + 1 }, (_, i) => years.filter((y) => y === year + i).length);
        return { id, coefficient: beautyCoefficient(series).coefficient, series };
      })
      .sort((a, b) => b.coefficient - a.coefficient || (a.id < b.id ? -1 : 1));
    const { data, errors } = await gql(`{ sleepingBeauties(filter: { collections: ["Oud_2018"] }, first: 5) {
      coefficient peakYear awakeningYear paper { id } series { year citations } } }`);
    expect(errors).toBeUndefined();
    expect(data.sleepingBeauties.map((b: any) => b.paper.id)).toEqual(expected.slice(0, 5).map((e) => e.id));
    data.sleepingBeauties.forEach((b: any, i: number) => {
      expect(b.coefficient).toBeCloseTo(expected[i]!.coefficient, 10);
      expect(b.series.map((p: any) => p.citations)).toEqual(expected[i]!.series);
      expect(b.awakeningYear).toBeLessThanOrEqual(b.peakYear);
    });
    // OpenAlex's counts_by_year, stored at ingest: a paper whose history they cover whole.
    const recent = review.find((id) => {
      const work = works.get(id)!;
      const years = (work.counts_by_year ?? []).map((c) => c.year);
      return years.length >= 3 && Math.min(...years) <= work.publication_year;
    })!;
    const global = await gql(
      'query ($id: ID!) { paper(id: $id) { sleepingBeauty(by: GLOBAL_CITATIONS) { series { year citations } } } }',
      {
        id: recent,
      },
    );
    const counts = new Map((works.get(recent)!.counts_by_year ?? []).map((c) => [c.year, c.cited_by_count]));
    for (const point of global.data.paper.sleepingBeauty.series)
      expect(point.citations).toBe(counts.get(point.year) ?? 0);
  });

  it('detects citation bursts of the works one review cites, as over its raw reference lists', async () => {
    const review = [...new Map(reviewWorks('Meijboom_2021').map((w) => [short(w.id), w])).values()].filter(
      (w) => w.publication_year >= 2000 && w.publication_year <= 2021,
    );
    const totals = new Map<number, number>();
    for (const work of review)
      totals.set(work.publication_year, (totals.get(work.publication_year) ?? 0) + refsOf(short(work.id)).size);
    const { data, errors } = await gql(`{ referenceBursts(filter: { collections: ["Meijboom_2021"] }, from: 2000,
      to: 2021, references: 20) { citations paper { id } bursts { start end strength } } }`);
    expect(errors).toBeUndefined();
    expect(data.referenceBursts.length).toBeGreaterThan(0);
    for (const row of data.referenceBursts) {
      const relevant = new Map<number, number>();
      for (const work of review)
        if (refsOf(short(work.id)).has(row.paper.id))
          relevant.set(work.publication_year, (relevant.get(work.publication_year) ?? 0) + 1);
      expect(row.citations).toBe([...relevant.values()].reduce((a, b) => a + b, 0));
      const series = [...totals.entries()].map(([year, total]) => ({ year, total, relevant: relevant.get(year) ?? 0 }));
      const expected = kleinbergBursts(series);
      expect(row.bursts.map((b: any) => [b.start, b.end])).toEqual(expected.map((b) => [b.start, b.end]));
      row.bursts.forEach((b: any, i: number) => expect(b.strength).toBeCloseTo(expected[i]!.strength, 8));
    }
  });

  it('exports whole networks as GraphML, GEXF, VOSviewer and CSV files whose edges are the raw ones', async () => {
    const review = [...new Set(reviewWorks('Donners_2021').map((w) => short(w.id)))];
    const inReview = new Set(review);
    let coupled = 0;
    for (let i = 0; i < review.length; i += 1) {
      const a = refsOf(review[i]!);
      for (let j = i + 1; j < review.length; j += 1)
        if ([...refsOf(review[j]!)].filter((ref) => a.has(ref)).length >= 2) coupled += 1;
    }
    const citations = review.flatMap((id) =>
      [...refsOf(id)].filter((ref) => inReview.has(ref)).map((ref) => [id, ref]),
    );
    const { data, errors } = await gql(`{
      graphml: networkExport(filter: { collections: ["Donners_2021"] }, network: COUPLING, format: GRAPHML, maxNodes: 2000, minWeight: 2) { nodes edges mediaType fileName content }
      gexf: networkExport(filter: { collections: ["Donners_2021"] }, network: CITATION, format: GEXF, maxNodes: 2000) { nodes edges content }
      map: networkExport(filter: { collections: ["Donners_2021"] }, network: COAUTHORSHIP, format: VOSVIEWER_MAP) { nodes content }
      links: networkExport(filter: { collections: ["Donners_2021"] }, network: COAUTHORSHIP, format: VOSVIEWER_NETWORK) { edges content }
      csv: networkExport(filter: { collections: ["Donners_2021"] }, network: COCITATION, format: CSV, minWeight: 2) { edges content } }`);
    expect(errors).toBeUndefined();
    const xml = (content: string, tag: string) =>
      DomUtils.getElementsByTagName(tag, parseDocument(content, { xmlMode: true }).children, true);
    expect(data.graphml).toMatchObject({ nodes: review.length, edges: coupled, mediaType: 'application/graphml+xml' });
    expect(xml(data.graphml.content, 'node')).toHaveLength(review.length);
    expect(xml(data.graphml.content, 'edge')).toHaveLength(coupled);
    const citationEdges = xml(data.gexf.content, 'edge').map((e) => `${e.attribs.source}|${e.attribs.target}`);
    expect(citationEdges.sort()).toEqual(citations.map(([a, b]) => `${a}|${b}`).sort());
    // VOSviewer: every link names two items of the map by their numbers.
    const items = data.map.content.trimEnd().split('\n').slice(1);
    expect(items).toHaveLength(data.map.nodes);
    for (const line of data.links.content.trimEnd().split('\n')) {
      const [a, b, strength] = line.split('\t').map(Number);
      expect(a! >= 1 && a! <= items.length && b! >= 1 && b! <= items.length && strength! >= 1).toBe(true);
    }
    expect(data.csv.content.split('\r\n').filter(Boolean)).toHaveLength(data.csv.edges + 1);
    // Paper nodes carry year, DOI and global citations as the raw records give them, in every format.
    for (const node of xml(data.graphml.content, 'node')) {
      const raw = works.get(node.attribs.id!)!;
      const value = (key: string) =>
        DomUtils.textContent(DomUtils.findOne((e) => e.attribs.key === key, node.children, false)!);
      expect(Number(value('year'))).toBe(raw.publication_year);
      expect(Number(value('citations'))).toBe(raw.cited_by_count);
      if (raw.doi) expect(value('doi')).toBe(raw.doi.replace('https://doi.org/', '').toLowerCase());
    }
    const gexfYears = xml(data.gexf.content, 'node').map((node) => {
      const year = DomUtils.findOne((e) => e.attribs.for === '2', node.children, true)!;
      return [node.attribs.id, Number(year.attribs.value)];
    });
    expect(gexfYears).toEqual(gexfYears.map(([id]) => [id, works.get(id as string)!.publication_year]));
    const [header, ...rows] = data.csv.content.trimEnd().split('\r\n');
    expect(header).toBe(
      'source,target,weight,source_label,source_year,source_doi,source_citations,target_label,target_year,target_doi,target_citations',
    );
    const { parse } = require('csv-parse/sync') as {
      parse: (text: string, o: object) => Array<Record<string, string>>;
    };
    // Co-cited works may be stubs (no year known); every year given is the raw record's.
    for (const row of parse(data.csv.content, { columns: true })) {
      for (const end of ['source', 'target']) {
        const raw = works.get(row[end]!);
        if (row[`${end}_year`]) expect(Number(row[`${end}_year`])).toBe(raw!.publication_year);
      }
    }
    expect(rows.length).toBe(data.csv.edges);
  });

  it('lays maps of a review out as a reader needs them, with figures recounted from the raw records', async () => {
    const review = [...new Set(reviewWorks('Donners_2021').map((w) => short(w.id)))];
    const { data, errors } = await gql(`{
      authors: network(kind: COAUTHORSHIP, limit: 100, filter: { collections: ["Donners_2021"] }) {
        frame { width height margin } mergedRecords
        clusters { cluster size name terms meanYear colour }
        nodes { id label weight cluster x y size meanYear records }
        edges { source target weight backbone } }
      cocited: network(kind: COCITATION, limit: 80, filter: { collections: ["Donners_2021"] }) {
        clusters { cluster size name terms }
        nodes { id cluster x y size }
        edges { source target weight backbone } }
      bare: network(kind: COUPLING, layout: false, filter: { collections: ["Donners_2021"] }) { frame { width } nodes { x y size } }
      svg: networkExport(filter: { collections: ["Donners_2021"] }, network: TOPIC_COOCCURRENCE, format: SVG, maxNodes: 60) {
        nodes edges mediaType fileName content } }`);
    expect(errors).toBeUndefined();
    const { authors, cocited } = data;
    for (const map of [authors, cocited]) {
      // Every disc inside the frame's margin, none on another.
      for (const n of map.nodes) {
        expect(n.x - n.size).toBeGreaterThanOrEqual(authors.frame.margin - 0.05);
        expect(n.y - n.size).toBeGreaterThanOrEqual(authors.frame.margin - 0.05);
        expect(n.x + n.size).toBeLessThanOrEqual(authors.frame.width - authors.frame.margin + 0.05);
        expect(n.y + n.size).toBeLessThanOrEqual(authors.frame.height - authors.frame.margin + 0.05);
      }
      for (let i = 0; i < map.nodes.length; i += 1)
        for (let j = i + 1; j < map.nodes.length; j += 1) {
          const [a, b] = [map.nodes[i], map.nodes[j]];
          expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeGreaterThan(a.size + b.size - 1);
        }
      // Each cluster's size is its nodes, and it has a name.
      for (const cluster of map.clusters) {
        expect(cluster.size).toBe(map.nodes.filter((n: { cluster: number }) => n.cluster === cluster.cluster).length);
        expect(cluster.name.length).toBeGreaterThan(2);
      }
      // The backbone keeps at least one link of every node and at most 8 per node.
      const backbone = map.edges.filter((e: { backbone: boolean }) => e.backbone);
      expect(backbone.length).toBeLessThanOrEqual(8 * map.nodes.length);
      for (const n of map.nodes) expect(backbone.some((e: any) => e.source === n.id || e.target === n.id)).toBe(true);
    }
    // The co-citation map is the dense one: the backbone thins it.
    expect(cocited.edges.filter((e: { backbone: boolean }) => e.backbone).length).toBeLessThan(cocited.edges.length);
    // People, recounted from the raw authorships: a node's records are one name key; its papers and mean year are
    // the review's papers any of its records signed.
    type Signed = { author: { id: string | null; display_name?: string | null } };
    const signers = (id: string) => (works.get(id)!.authorships as Signed[]).map((a) => a.author);
    const nameOf = new Map(review.flatMap((id) => signers(id).map((a) => [short(a.id ?? ''), a.display_name ?? ''])));
    const papersOf = (records: string[]) =>
      review.filter((id) => signers(id).some((a) => records.includes(short(a.id ?? ''))));
    let merged = 0;
    for (const node of authors.nodes) {
      const keys = new Set(node.records.map((r: string) => nameKey(nameOf.get(r) ?? '')));
      if (node.records.length > 1) {
        merged += node.records.length - 1;
        expect(keys.size).toBe(1);
      }
      const years = papersOf(node.records).map((id) => works.get(id)!.publication_year);
      expect(node.meanYear).toBeCloseTo(years.reduce((s, y) => s + y, 0) / years.length, 1);
      if (node.records.length === 1) expect(node.weight).toBe(years.length);
    }
    expect(authors.mergedRecords).toBe(merged);
    expect(merged).toBeGreaterThan(0);
    // Joint papers of two single-record people: the review's papers both signed.
    const single = new Map(
      authors.nodes.filter((n: any) => n.records.length === 1).map((n: any) => [n.id, n.records[0]]),
    );
    const checked = authors.edges.filter((e: any) => single.has(e.source) && single.has(e.target)).slice(0, 40);
    expect(checked.length).toBeGreaterThan(10);
    for (const edge of checked) {
      const both = review.filter((id) => {
        const ids = signers(id).map((a) => short(a.id ?? ''));
        return ids.includes(single.get(edge.source) as string) && ids.includes(single.get(edge.target) as string);
      });
      expect(edge.weight).toBe(both.length);
    }
    // A cluster's mean year is its nodes' mean.
    for (const cluster of authors.clusters) {
      const members = authors.nodes.filter((n: any) => n.cluster === cluster.cluster);
      expect(cluster.meanYear).toBeCloseTo(
        members.reduce((s: number, n: any) => s + n.meanYear, 0) / members.length,
        0,
      );
    }
    // Co-citation clusters are named by the titles of the review's papers citing them (CiteSpace's way).
    const citingTitles = (members: Set<string>) =>
      review
        .filter((id) => [...refsOf(id)].some((ref) => members.has(ref)))
        .map((id) => (works.get(id)!.title ?? '').toLowerCase());
    for (const cluster of cocited.clusters.filter((c: any) => c.terms.length > 0)) {
      const members = new Set<string>(
        cocited.nodes.filter((n: any) => n.cluster === cluster.cluster).map((n: any) => n.id),
      );
      expect(citingTitles(members).some((title) => title.includes(cluster.terms[0]))).toBe(true);
    }
    // Without a layout the places stay empty.
    expect(data.bare.frame).toBeNull();
    expect(data.bare.nodes.every((n: any) => n.x === null && n.y === null && n.size === null)).toBe(true);
    // The SVG picture: a disc per node, in a valid document.
    expect(data.svg).toMatchObject({ mediaType: 'image/svg+xml', fileName: 'citegraph-topic_cooccurrence.svg' });
    const svg = parseDocument(data.svg.content, { xmlMode: true });
    const discs = DomUtils.findAll((e) => e.name === 'circle' && e.attribs['data-id'] !== undefined, svg.children);
    expect(discs).toHaveLength(data.svg.nodes);
    expect(data.svg.nodes).toBeGreaterThan(10);
  });

  it('gives the same measures and files on the command line', async () => {
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(PROJECT_ROOT, 'dist/src/cli/main.js'), ...args], {
        env: { ...process.env },
        encoding: 'utf8',
      });
    const lotka = cli('science', 'lotka', '--collection', 'Donners_2021');
    expect(lotka.status).toBe(0);
    const { data } = await gql(
      '{ lotka(filter: { collections: ["Donners_2021"] }) { authors distribution { papers authors } } }',
    );
    expect(JSON.parse(lotka.stdout)).toMatchObject({
      authors: data.lotka.authors,
      distribution: data.lotka.distribution,
    });
    const review = [...new Set(reviewWorks('Donners_2021').map((w) => short(w.id)))];
    const inReview = new Set(review);
    const citations = review.flatMap((id) => [...refsOf(id)].filter((ref) => inReview.has(ref)));
    const csv = cli(
      'network',
      '--network',
      'citation',
      '--format',
      'csv',
      '--collection',
      'Donners_2021',
      '--max-nodes',
      '2000',
    );
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\r\n').filter(Boolean)).toHaveLength(citations.length + 1);
    // The laid-out map as SVG, the same picture networkExport gives.
    const svg = cli(
      'network',
      '--network',
      'coauthorship',
      '--format',
      'svg',
      '--colouring',
      'year',
      '--collection',
      'Donners_2021',
    );
    expect(svg.status).toBe(0);
    const { data: same } = await gql(
      '{ networkExport(filter: { collections: ["Donners_2021"] }, network: COAUTHORSHIP, format: SVG, colouring: YEAR) { content } }',
    );
    expect(svg.stdout).toBe(same.networkExport.content);
    expect(svg.stdout).toMatch(/\(mean year\)<\/text>/);
    expect(cli('network', '--format', 'svg', '--colouring', 'rainbow').status).not.toBe(0);
    const bad = cli('science', 'sideways');
    expect(bad.status).toBe(2);
  });

  it('takes several author records as one person for a computation, and lists possible duplicates with evidence', async () => {
    const byAuthor = new Map<string, Set<string>>();
    const coauthors = new Map<string, Set<string>>();
    const institutions = new Map<string, Set<string>>();
    for (const [id, work] of works) {
      const keys = (work.authorships ?? []).map((a, i) => (a.author.id ? short(a.author.id) : `anon:${id}:${i}`));
      (work.authorships ?? []).forEach((a, i) => {
        const key = keys[i]!;
        byAuthor.set(key, (byAuthor.get(key) ?? new Set()).add(id));
        const others = coauthors.get(key) ?? new Set<string>();
        for (const other of keys) if (other !== key) others.add(other);
        coauthors.set(key, others);
        const places = institutions.get(key) ?? new Set<string>();
        for (const inst of a.institutions ?? []) if (inst.id) places.add(short(inst.id));
        institutions.set(key, places);
      });
    }
    const [first, second] = [...byAuthor.entries()]
      .filter(([key]) => !key.startsWith('anon:'))
      .sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1));
    const union = new Set([...first![1], ...second![1]]);
    const { data, errors } = await gql(
      `query ($ids: [ID!]!) { person(authorIds: $ids) { authorIds metrics { works hIndexInternal citationsInternal } }
         possibleDuplicateAuthors(first: 10) { name authors { id name } pairs { a b sharedCoauthors sharedInstitutions } } }`,
      { ids: [first![0], second![0]] },
    );
    expect(errors).toBeUndefined();
    expect(data.person.authorIds).toEqual(expect.arrayContaining([first![0], second![0]]));
    const citations = [...union].map((id) => internalCitations.get(id) ?? 0);
    expect(data.person.metrics).toEqual({
      works: union.size,
      hIndexInternal: hIndex(citations),
      citationsInternal: citations.reduce((a, b) => a + b, 0),
    });
    // SYNERGY's OpenAlex records split some people over several author ids: there are candidates to check.
    expect(data.possibleDuplicateAuthors.length).toBeGreaterThan(0);
    for (const group of data.possibleDuplicateAuthors) {
      expect(new Set(group.authors.map((a: { name: string }) => nameKey(a.name))).size).toBe(1);
      for (const pair of group.pairs) {
        const shared = [...(coauthors.get(pair.a) ?? [])].filter(
          (c) => c !== pair.b && (coauthors.get(pair.b) ?? new Set()).has(c),
        );
        expect(pair.sharedCoauthors).toBe(shared.length);
        const places = [...(institutions.get(pair.a) ?? [])].filter((i) => institutions.get(pair.b)?.has(i));
        expect(pair.sharedInstitutions).toBe(places.length);
        expect(pair.sharedCoauthors + pair.sharedInstitutions).toBeGreaterThan(0);
      }
    }
  });
});

describe('paper lists as files, parsed back and checked against the raw records', () => {
  const { Cite } = require('@citation-js/core') as {
    Cite: new (input: string) => {
      data: Array<{ title?: string; DOI?: string; issued?: { 'date-parts': number[][] } }>;
    };
  };

  require('@citation-js/plugin-bibtex');

  require('@citation-js/plugin-ris');
  const review = [...new Map(reviewWorks('Donners_2021').map((w) => [short(w.id), w])).values()];
  const chosen = review.filter((w) => w.title && w.doi).slice(0, 25);
  const stub = [...refsOf(short(chosen[0]!.id))].find((ref) => !works.has(ref))!;
  const doiOf = (w: RawWork) => w.doi!.replace('https://doi.org/', '').toLowerCase();

  it('exports chosen papers as BibTeX in the order asked, naming the ids that are no full paper', async () => {
    const ids = [...chosen.map((w) => short(w.id)), stub];
    const { data, errors } = await gql(
      'query ($ids: [ID!]) { paperExport(ids: $ids, format: BIBTEX) { format mediaType fileName papers missing content } }',
      { ids },
    );
    expect(errors).toBeUndefined();
    expect(data.paperExport).toMatchObject({ format: 'BIBTEX', fileName: 'citegraph-papers.bib', papers: 25 });
    expect(data.paperExport.missing).toEqual([stub]);
    const items = new Cite(data.paperExport.content).data;
    expect(items.map((i) => i.title)).toEqual(chosen.map((w) => w.title!.replace(/\s+/g, ' ').trim()));
    expect(items.map((i) => i.DOI!.toLowerCase())).toEqual(chosen.map(doiOf));
    expect(items.map((i) => i.issued!['date-parts'][0]![0])).toEqual(chosen.map((w) => w.publication_year));
  });

  it('downloads RIS over HTTP as an attachment, and refuses an unknown format', async () => {
    const base = url.replace(/\/graphql$/, '');
    const ids = chosen.slice(0, 10).map((w) => short(w.id));
    const response = await fetch(`${base}/export/papers?format=ris&ids=${ids.join(',')}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-research-info-systems/);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="citegraph-papers.ris"');
    const items = new Cite(await response.text()).data;
    expect(items.map((i) => i.DOI!.toLowerCase())).toEqual(chosen.slice(0, 10).map(doiOf));
    const bad = await fetch(`${base}/export/papers?format=docx&ids=${ids[0]}`);
    expect(bad.status).toBe(400);
    const problem = (await bad.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(problem.errors[0]!.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('carries volume, issue, pages, licence and MeSH keywords of every record that has them, in every format', async () => {
    const ids = review.map((w) => short(w.id));
    const pagesOf = (w: RawWork) => {
      const first = w.biblio?.first_page;
      const last = w.biblio?.last_page;
      return first ? (last && last !== first ? `${first}-${last}` : first) : undefined;
    };
    const expected = review.map((w) => ({
      volume: w.biblio?.volume ?? undefined,
      issue: w.biblio?.issue ?? undefined,
      page: pagesOf(w),
    }));
    // Most of the review's records give them (226 volumes, 215 page ranges of 258 in the raw file).
    expect(expected.filter((e) => e.volume).length).toBeGreaterThan(200);
    expect(expected.filter((e) => e.page).length).toBeGreaterThan(200);
    const licence = (w: RawWork) => w.primary_location?.license ?? w.best_oa_location?.license ?? undefined;
    const majorMesh = (w: RawWork) => (w.mesh ?? []).filter((m) => m.is_major_topic).map((m) => m.descriptor_name);
    for (const format of ['BIBTEX', 'RIS', 'CSL_JSON']) {
      const { data, errors } = await gql(
        'query ($ids: [ID!], $format: BibliographyFormat!) { paperExport(ids: $ids, format: $format, first: 5000) { papers content } }',
        { ids, format },
      );
      expect(errors).toBeUndefined();
      const items: Array<{ volume?: string; issue?: string; page?: string; license?: string; keyword?: string }> =
        format === 'CSL_JSON' ? JSON.parse(data.paperExport.content) : new Cite(data.paperExport.content).data;
      expect(items.map((i) => ({ volume: i.volume, issue: i.issue, page: i.page }))).toEqual(expected);
      if (format === 'CSL_JSON') {
        expect(items.map((i) => i.license)).toEqual(review.map(licence));
        review.forEach((w, index) => {
          for (const name of majorMesh(w)) expect(items[index]!.keyword).toContain(name);
        });
      }
    }
    const { data } = await gql('query ($ids: [ID!]) { paperExport(ids: $ids, format: CSV, first: 5000) { content } }', {
      ids,
    });
    const { parse } = require('csv-parse/sync') as {
      parse: (text: string, o: object) => Array<Record<string, string>>;
    };
    const rows = parse(data.paperExport.content, { columns: true });
    expect(
      rows.map((r) => ({ volume: r.volume || undefined, issue: r.issue || undefined, page: r.pages || undefined })),
    ).toEqual(expected);
    // The paper itself over GraphQL: the fields and the printed range.
    const withRange = review.find(
      (w) => w.biblio?.first_page && w.biblio.last_page && w.biblio.last_page !== w.biblio.first_page,
    )!;
    const paper = await gql(
      'query ($id: ID!) { paper(id: $id) { volume issue firstPage lastPage pages license keywords } }',
      {
        id: short(withRange.id),
      },
    );
    expect(paper.data.paper).toMatchObject({
      volume: withRange.biblio!.volume,
      issue: withRange.biblio!.issue,
      firstPage: withRange.biblio!.first_page,
      lastPage: withRange.biblio!.last_page,
      pages: `${withRange.biblio!.first_page}–${withRange.biblio!.last_page}`,
    });
    expect(paper.data.paper.keywords).toEqual(expect.arrayContaining(majorMesh(withRange)));
  });

  it('exports a whole collection as CSV, and the same on the command line as CSL-JSON', async () => {
    const { data, errors } = await gql(
      '{ paperExport(filter: { collections: ["Donners_2021"] }, format: CSV, first: 5000) { papers content } }',
    );
    expect(errors).toBeUndefined();
    expect(data.paperExport.papers).toBe(review.length);

    const { parse } = require('csv-parse/sync') as {
      parse: (text: string, o: object) => Array<Record<string, string>>;
    };
    const rows = parse(data.paperExport.content, { columns: true });
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(review.map((w) => short(w.id))));
    const cli = spawnSync(
      process.execPath,
      [
        path.join(PROJECT_ROOT, 'dist/src/cli/main.js'),
        'export',
        '--collection',
        'Donners_2021',
        '--format',
        'csl-json',
        '--first',
        '5000',
      ],
      { env: { ...process.env }, encoding: 'utf8' },
    );
    expect(cli.status).toBe(0);
    const items = JSON.parse(cli.stdout) as Array<{ id: string; DOI?: string }>;
    expect(items).toHaveLength(review.length);
    const expectedDoi = new Map(review.map((w) => [short(w.id), w.doi ? doiOf(w) : undefined]));
    for (const item of items) expect(item.DOI?.toLowerCase()).toBe(expectedDoi.get(item.id));
  });
});
