import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { PaperFilter, PaperRow, TopicRow, VenueRow } from '../domain';
import { badInput, CitegraphError, ErrorCode } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import type { AnalyticsService } from './analytics-service';
import type { ExportEdge, ExportNetwork, ExportNode } from './network-export';
import { isFiltered, paperFilterParams, queries } from '../graph/query-registry';
import { MAX_PAGE } from '../paging';
import { contentTerms } from '../text';
import {
  beautyCoefficient,
  bradfordZones,
  type Burst,
  cdIndex,
  distinctiveTerms,
  type DisruptionCounts,
  globalMainPath,
  keyRouteMainPath,
  fitLotka,
  kleinbergBursts,
  type LotkaFit,
  nameKey,
  seeded,
} from './science-of-science';

/** The most productive people whose records are candidates for possible duplicates when no filter narrows them. */
export const DUPLICATE_CANDIDATES_WHOLE_GRAPH = 20_000;

export interface Disruption extends DisruptionCounts {
  paperId: string;
  year: number | null;
  /** References of the focal paper in the graph (stubs included). */
  references: number;
  /** Years after publication counted, or null for all. */
  window: number | null;
  cd: number | null;
}

export interface CitationPath {
  /** The papers from the first to the last. */
  papers: PaperRow[];
  /** For each step, whether the earlier paper of the chain cites the later one (else the later cites the earlier). */
  forward: boolean[];
}

export interface NormalisedImpact {
  id: string;
  year: number;
  field: TopicRow;
  citations: number;
  /** Full papers of the same year in the field (the paper included), and their mean internal citations. */
  peers: number;
  expected: number;
  /** citations / expected; null when the field's papers of that year are never cited. */
  value: number | null;
}

export type CitationBasisName = 'INTERNAL_CITATIONS' | 'GLOBAL_CITATIONS';

export interface SleepingBeauty {
  paperId: string;
  year: number;
  coefficient: number;
  peakYear: number;
  awakeningYear: number;
  /** Citations per year from the publication year on. */
  series: Array<{ year: number; citations: number }>;
}

interface HistoryRow {
  id: string;
  year: number;
  citing: number[];
  globalYears: number[] | null;
  globalCounts: number[] | null;
}

/**
 * A paper's citations per year from its publication year: inside the graph (the citing papers' years, up to the last
 * citing year), or OpenAlex's counts_by_year — null when those do not reach back to the publication year (OpenAlex
 * keeps about the last ten years), since the beauty coefficient needs the whole history.
 */
export function citationSeries(
  row: HistoryRow,
  basis: CitationBasisName,
): Array<{ year: number; citations: number }> | null {
  const counts = new Map<number, number>();
  if (basis === 'INTERNAL_CITATIONS') {
    for (const year of row.citing) if (year >= row.year) counts.set(year, (counts.get(year) ?? 0) + 1);
  } else {
    const years = row.globalYears ?? [];
    if (years.length === 0 || Math.min(...years) > row.year) return null;
    years.forEach((year, i) => {
      if (year >= row.year) counts.set(year, row.globalCounts?.[i] ?? 0);
    });
  }
  const last = Math.max(row.year, ...counts.keys());
  return Array.from({ length: last - row.year + 1 }, (_, i) => ({
    year: row.year + i,
    citations: counts.get(row.year + i) ?? 0,
  }));
}

export interface TopicBursts {
  topic: TopicRow;
  papers: number;
  bursts: Burst[];
}

export type NetworkKind = 'COUPLING' | 'COCITATION';

/** Every whole network of the filtered papers: of papers (coupling, co-citation, citation), authors or topics. */
export type WholeNetworkKind = NetworkKind | 'COAUTHORSHIP' | 'CITATION' | 'TOPIC_COOCCURRENCE';

/** A node of a whole network with what a map labels it by; paper fields are null for authors and topics. */
export interface MapNode extends ExportNode {
  type: 'PAPER' | 'AUTHOR' | 'TOPIC';
  degree: number;
  year: number | null;
  doi: string | null;
  stub: boolean;
  citedByCount: number | null;
  collections: string[];
}

/** A whole network as one answer: its nodes with attributes, its weighted edges, and what was left out. */
export interface MapNetwork {
  kind: WholeNetworkKind;
  directed: boolean;
  nodes: MapNode[];
  edges: ExportEdge[];
  /** Nodes dropped for having no edge at minWeight (kept when isolated is asked for). */
  isolatedDropped: number;
}

export interface PaperCluster {
  cluster: number;
  size: number;
  papers: PaperRow[];
  /** All its papers' ids, most connected first. */
  members: string[];
  /** Most distinctive title terms of the cluster's papers. */
  terms: string[];
  /** Most frequent topics (level ≥ 1) of its papers. */
  topics: Array<{ topic: TopicRow; papers: number }>;
}

export interface Clustering {
  kind: NetworkKind;
  nodes: number;
  edges: number;
  modularity: number;
  clusters: PaperCluster[];
}

/** Most papers a set-level query (prior and derivative works) takes. */
const MAX_SET = 200;
/** Deepest citation path searched. */
const MAX_DEPTH = 10;

const notFound = (what: string) => new CitegraphError(ErrorCode.NOT_FOUND, what);

/**
 * Science-of-science measures over the citation graph: disruption (CD index), prior and derivative works, citation
 * paths, Lotka's and Bradford's laws, and Kleinberg bursts of topics. Counting is done in Cypher, the measures are
 * the pure functions of science-of-science.ts.
 */
export class ScienceService {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly analytics: AnalyticsService,
  ) {}

  /** The CD index of a paper, with the counts behind it; `window` limits the citing papers to that many years. */
  async disruption(id: string, window: number | null = null): Promise<Disruption | null> {
    if (window !== null && (!Number.isInteger(window) || window < 0 || window > 200)) {
      throw badInput('window must be a whole number of years in [0, 200]', { argument: 'window' });
    }
    const [row] = await this.executor.read<{
      id: string;
      year: number | null;
      references: number;
      focalOnly: number;
      both: number;
      referencesOnly: number;
    }>(queries().paperDisruption({ id, window }));
    if (!row) return null;
    const counts = { focalOnly: row.focalOnly, both: row.both, referencesOnly: row.referencesOnly };
    return {
      paperId: row.id,
      year: row.year,
      references: row.references,
      window,
      ...counts,
      cd: cdIndex(counts),
    };
  }

  /**
   * The CD index of each of the given papers (any number: a topic's papers) that at least `minCiting` full papers
   * cite, most disruptive first; papers with no paper around them to count are left out.
   */
  async disruptionOfPapers(
    ids: readonly string[],
    minCiting: number,
  ): Promise<Array<Disruption & { title: string | null }>> {
    if (ids.length === 0) return [];
    const rows = await this.executor.read<{
      id: string;
      title: string | null;
      year: number | null;
      references: number;
      focalOnly: number;
      both: number;
      referencesOnly: number;
    }>(queries().papersDisruption({ ids: [...new Set(ids)], minCiting: Math.max(1, Math.floor(minCiting)) }));
    return rows
      .map((row) => {
        const counts = { focalOnly: row.focalOnly, both: row.both, referencesOnly: row.referencesOnly };
        return {
          paperId: row.id,
          title: row.title,
          year: row.year,
          references: row.references,
          window: null,
          ...counts,
          cd: cdIndex(counts),
        };
      })
      .filter((row) => row.cd !== null)
      .sort((a, b) => b.cd! - a.cd! || a.paperId.localeCompare(b.paperId));
  }

  private checkSet(ids: readonly string[]): string[] {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badInput('give at least one paper id', { argument: 'ids' });
    if (unique.length > MAX_SET) throw badInput(`at most ${MAX_SET} papers`, { argument: 'ids' });
    return unique;
  }

  /** The works a set of papers cites most (outside the set), with how many of the set cite each. */
  async priorWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().priorWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /** The full papers citing the most papers of a set (outside it). */
  async derivativeWorks(ids: readonly string[], first: number): Promise<Array<{ paper: PaperRow; count: number }>> {
    return this.executor.read(
      queries().derivativeWorks({ ids: this.checkSet(ids), limit: Math.min(Math.max(1, first), MAX_PAGE) }),
    );
  }

  /**
   * The shortest chain of citations between two papers, at most `depth` steps: directed (each paper cites the next)
   * or either way. Null when there is none that short.
   */
  async citationPath(from: string, to: string, directed: boolean, depth: number): Promise<CitationPath | null> {
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
      throw badInput(`maxDepth must be a whole number in [1, ${MAX_DEPTH}]`, { argument: 'maxDepth' });
    }
    if (from === to) throw badInput('the two papers are the same', { argument: 'to' });
    const params = { from, to, depth };
    const [row] = await this.executor.read<{ ids: string[]; citing: string[] }>(
      directed ? queries().citationPathDirected(params) : queries().citationPathUndirected(params),
    );
    if (!row) return null;
    const papers = await this.papersOf(row.ids);
    return {
      papers: row.ids.map((id) => papers.get(id)!),
      forward: row.citing.map((citing, index) => citing === row.ids[index]),
    };
  }

  /** Lotka's law over the identified authors of the filtered papers. */
  async lotka(filter: PaperFilter | null | undefined): Promise<LotkaFit> {
    const rows = await this.executor.read<{ papers: number; authors: number }>(
      // With no filter the stored per-person totals answer without reading every authorship.
      isFiltered(filter)
        ? queries().authorProductivity(paperFilterParams(filter))
        : queries().authorProductivityAll({}),
    );
    return fitLotka(rows.flatMap((row) => new Array<number>(row.authors).fill(row.papers)));
  }

  /** Bradford's zones of the venues of the filtered papers (papers without a venue are counted apart). */
  async bradford(filter: PaperFilter | null | undefined) {
    const rows = await this.executor.read<{ venue: VenueRow | null; papers: number }>(
      // With no filter the stored venue totals and the count of full papers answer without reading every paper.
      isFiltered(filter) ? queries().venuePaperCounts(paperFilterParams(filter)) : queries().venuePaperCountsAll({}),
    );
    const venues = new Map(rows.flatMap((row) => (row.venue ? [[row.venue.id, row.venue] as const] : [])));
    const zones = bradfordZones(rows.flatMap((row) => (row.venue ? [{ id: row.venue.id, papers: row.papers }] : [])));
    return {
      zones: zones.zones.map((zone) => ({
        zone: zone.zone,
        papers: zone.papers,
        venues: zone.venues.map((v) => ({ venue: venues.get(v.id)!, papers: v.papers })),
      })),
      multipliers: zones.multipliers,
      papersWithoutVenue: rows.find((row) => !row.venue)?.papers ?? 0,
    };
  }

  /** Bursts of the most frequent topics of the filtered papers over [from, to], strongest first. */
  async topicBursts(
    filter: PaperFilter | null | undefined,
    from: number,
    to: number,
    options: { topics: number; minLevel: number | null; s: number; gamma: number },
  ): Promise<TopicBursts[]> {
    checkBurstArguments(from, to, options);
    const limit = Math.min(Math.max(1, options.topics), 100);
    const rows = await this.executor.read<{
      topic: TopicRow;
      series: Array<{ year: number; relevant: number }>;
      totals: Array<{ year: number; total: number }>;
    }>(
      // With no filter the yearly counts kept per topic and per year answer without reading every paper.
      isFiltered(filter)
        ? queries().topicYearCounts({ ...paperFilterParams(filter), from, to, minLevel: options.minLevel, limit })
        : queries().topicYearCountsAll({ from, to, minLevel: options.minLevel, limit }),
    );
    return strongestFirst(
      rows.map((row) => ({
        topic: row.topic,
        papers: relevantTotal(row),
        bursts: kleinbergBursts(yearSeries(row), { s: options.s, gamma: options.gamma }),
      })),
      (row) => row.topic.id,
    );
  }

  /**
   * The main path of the citation network among the filtered papers (at most `maxPapers`, the most cited): search
   * path counts, papers oldest first with each link's SPC; global, or the union of the paths through the `keyRoutes`
   * links of largest SPC.
   */
  async mainPath(
    filter: PaperFilter | null | undefined,
    maxPapers: number,
    method: 'GLOBAL' | 'KEY_ROUTE' = 'GLOBAL',
    keyRoutes = 10,
  ) {
    if (!Number.isInteger(keyRoutes) || keyRoutes < 1 || keyRoutes > 100) {
      throw badInput(`keyRoutes must be a whole number in [1, 100], got ${keyRoutes}`, { argument: 'keyRoutes' });
    }
    const limit = Math.min(Math.max(2, maxPapers), 5000);
    const nodes = await this.executor.read<{ id: string; title: string | null; year: number | null }>(
      queries().filterPapers({ ...paperFilterParams(filter), limit }),
    );
    const citations = await this.executor.read<{ citing: string; cited: string }>(
      queries().internalCitations({ ids: nodes.map((n) => n.id) }),
    );
    const path =
      method === 'KEY_ROUTE' ? keyRouteMainPath(nodes, citations, keyRoutes) : globalMainPath(nodes, citations);
    const rows = await this.papersOf(path.papers);
    return {
      method,
      papers: path.papers.map((id) => rows.get(id)!),
      weights: path.weights,
      links: path.links.map((l) => ({ cited: rows.get(l.cited)!, citing: rows.get(l.citing)!, weight: l.weight })),
      paths: path.paths,
      citations: citations.length - path.dropped,
      dropped: path.dropped,
      nodes: nodes.length,
    };
  }

  /**
   * Clusters of the bibliographic-coupling network of the filtered papers (edges: shared references) or of the
   * co-citation network of the works they cite (edges: papers citing both), by Louvain community detection
   * (graphology-communities-louvain, seeded), with modularity, and each cluster labelled by its distinctive title
   * terms and its frequent topics.
   */
  async clusters(
    filter: PaperFilter | null | undefined,
    kind: NetworkKind,
    options: { maxNodes: number; minWeight: number; resolution: number },
  ): Promise<Clustering> {
    if (!Number.isInteger(options.minWeight) || options.minWeight < 1) {
      throw badInput('minWeight must be a whole number of at least 1', { argument: 'minWeight' });
    }
    if (!(options.resolution > 0 && options.resolution <= 10)) {
      throw badInput('resolution must be in (0, 10]', { argument: 'resolution' });
    }
    const { nodes, edges } = await this.links(filter, kind, options);
    if (edges.length === 0) return { kind, nodes: 0, edges: 0, modularity: 0, clusters: [] };
    const { graph, detailed } = communities(edges, options.resolution);
    const members = new Map<number, string[]>();
    for (const [node, community] of Object.entries(detailed.communities)) {
      members.set(community, [...(members.get(community) ?? []), node]);
    }
    const ordered = [...members.values()]
      .map((ids) => ids.sort((a, b) => graph.degree(b) - graph.degree(a) || (a < b ? -1 : 1)))
      .sort((a, b) => b.length - a.length || (a[0]! < b[0]! ? -1 : 1));
    const termsOf = (id: string) => contentTerms(nodes.get(id)?.title ?? '');
    const allTitles = graph.nodes().map(termsOf);
    const shown = ordered.flatMap((ids) => ids.slice(0, 20));
    const [rows, topicRows] = await Promise.all([
      this.papersOf(shown),
      this.executor.read<{ paperId: string; topics: Array<{ topic: TopicRow; score: number }> }>(
        queries().papersTopics({ ids: graph.nodes(), limit: 5 }),
      ),
    ]);
    const topicsOf = new Map(topicRows.map((row) => [row.paperId, row.topics.map((t) => t.topic)]));
    return {
      kind,
      nodes: graph.order,
      edges: graph.size,
      modularity: detailed.modularity,
      clusters: ordered.map((ids, index) => {
        const topics = new Map<string, { topic: TopicRow; papers: number }>();
        for (const id of ids)
          for (const topic of topicsOf.get(id) ?? [])
            if ((topic.level ?? 0) >= 1) {
              const entry = topics.get(topic.id) ?? { topic, papers: 0 };
              entry.papers += 1;
              topics.set(topic.id, entry);
            }
        return {
          cluster: index + 1,
          size: ids.length,
          papers: ids.slice(0, 20).map((id) => rows.get(id)!),
          members: ids,
          terms: distinctiveTerms(ids.map(termsOf), allTitles, 5),
          topics: [...topics.values()]
            .sort((a, b) => b.papers - a.papers || (a.topic.id < b.topic.id ? -1 : 1))
            .slice(0, 3),
        };
      }),
    };
  }

  /**
   * Field-normalised impact of papers inside the graph (like OpenAlex's FWCI, on internal citations): citations over
   * the mean of the same year and field. Papers without a year or a topic are absent.
   */
  async normalisedImpact(ids: readonly string[]): Promise<Map<string, NormalisedImpact>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<Omit<NormalisedImpact, 'value'>>(
      queries().normalisedImpact({ ids: [...new Set(ids)].slice(0, 1000) }),
    );
    return new Map(
      rows.map((row) => [row.id, { ...row, value: row.expected > 0 ? row.citations / row.expected : null }]),
    );
  }

  /** An author's mean normalised impact over their papers (those with a year and a topic), beside the h-index. */
  async authorNormalisedImpact(authorId: string): Promise<{ mean: number | null; papers: number }> {
    const [row] = await this.executor.read<{ ids: string[] }>(queries().authorPaperIds({ id: authorId }));
    const values = [...(await this.normalisedImpact(row?.ids ?? [])).values()]
      .map((impact) => impact.value)
      .filter((value): value is number => value !== null);
    return {
      mean: values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length,
      papers: values.length,
    };
  }

  /** The beauty coefficient and awakening year of a paper (Ke et al. 2015), from internal or OpenAlex citations. */
  async sleepingBeauty(id: string, basis: CitationBasisName): Promise<SleepingBeauty | null> {
    const rows = await this.executor.read<HistoryRow>(
      queries().citationHistories({ ...paperFilterParams(null), ids: [id], minCitations: 0 }),
    );
    return rows[0] ? beauty(rows[0], basis) : null;
  }

  /** The filtered papers with at least `minCitations` internal citations, by beauty coefficient, highest first. */
  async sleepingBeauties(
    filter: PaperFilter | null | undefined,
    basis: CitationBasisName,
    first: number,
    minCitations: number,
  ): Promise<SleepingBeauty[]> {
    if (!Number.isInteger(minCitations) || minCitations < 1) {
      throw badInput('minCitations must be a whole number of at least 1', { argument: 'minCitations' });
    }
    const rows = await this.executor.read<HistoryRow>(
      queries().citationHistories({ ...paperFilterParams(filter), ids: null, minCitations }),
    );
    return rows
      .map((row) => beauty(row, basis))
      .filter((b): b is SleepingBeauty => b !== null)
      .sort((a, b) => b.coefficient - a.coefficient || (a.paperId < b.paperId ? -1 : 1))
      .slice(0, Math.min(Math.max(1, first), MAX_PAGE));
  }

  /**
   * The coupling network of the filtered papers (every paper a node, at most 2000; edges: shared references) or the
   * co-citation network of the works they cite (at most 500; edges: papers citing both), with each node's title and
   * weight (1, or the citations from the filtered papers).
   */
  private async links(
    filter: PaperFilter | null | undefined,
    kind: NetworkKind,
    options: { maxNodes: number; minWeight: number; stubs?: boolean },
  ): Promise<{
    nodes: Map<string, { title: string | null; weight: number }>;
    edges: Array<{ source: string; target: string; weight: number }>;
  }> {
    const maxNodes = Math.min(Math.max(2, options.maxNodes), kind === 'COUPLING' ? 2000 : 500);
    if (kind === 'COUPLING') {
      const papers = await this.executor.read<{ id: string; title: string | null }>(
        queries().filterPapers({ ...paperFilterParams(filter), limit: maxNodes }),
      );
      return {
        nodes: new Map(papers.map((p) => [p.id, { title: p.title, weight: 1 }])),
        edges: await this.executor.read(
          queries().couplingEdges({ ids: papers.map((p) => p.id), minWeight: options.minWeight }),
        ),
      };
    }
    const citing = await this.executor.read<{ id: string }>(
      queries().filterPapers({ ...paperFilterParams(filter), limit: 5000 }),
    );
    const [network] = await this.executor.read<{
      rows: Array<{ id: string; title: string | null; cited: number }>;
      edges: Array<{ source: string; target: string; weight: number }>;
    }>(
      queries().cocitationNetwork({
        ids: citing.map((c) => c.id),
        limit: maxNodes,
        minWeight: options.minWeight,
        stubs: options.stubs ?? true,
      }),
    );
    return {
      nodes: new Map((network?.rows ?? []).map((row) => [row.id, { title: row.title, weight: row.cited }])),
      edges: network?.edges ?? [],
    };
  }

  private async papersOf(ids: readonly string[]): Promise<Map<string, PaperRow>> {
    if (ids.length === 0) return new Map();
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids: [...ids] }));
    const byId = new Map(rows.map((r) => [r.paper.id, r.paper]));
    return new Map(ids.map((id) => [id, byId.get(id) ?? { id, stub: true }]));
  }

  /**
   * Bursts of the works the filtered papers cite most, over [from, to]: in year t, r_t of the d_t references the
   * filtered papers of that year make go to the work (Kleinberg 2003, as CiteSpace detects citation bursts).
   */
  async referenceBursts(
    filter: PaperFilter | null | undefined,
    from: number,
    to: number,
    options: { references: number; s: number; gamma: number },
  ): Promise<Array<{ paper: PaperRow; citations: number; bursts: Burst[] }>> {
    checkBurstArguments(from, to, options);
    const rows = await this.executor.read<{
      paper: PaperRow;
      series: Array<{ year: number; relevant: number }>;
      totals: Array<{ year: number; total: number }>;
    }>(
      queries().referenceYearCounts({
        ...paperFilterParams(filter),
        from,
        to,
        limit: Math.min(Math.max(1, options.references), 200),
      }),
    );
    return strongestFirst(
      rows.map((row) => ({
        paper: row.paper,
        citations: relevantTotal(row),
        bursts: kleinbergBursts(yearSeries(row), { s: options.s, gamma: options.gamma }),
      })),
      (row) => row.paper.id,
    );
  }

  /**
   * A whole network of the filtered papers, ready to export: bibliographic coupling or citations among them, the
   * co-citation network of the works they cite, or the co-authorship network of their most productive authors. An
   * undirected network's nodes carry their Louvain cluster (seeded).
   */
  async network(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    options: { maxNodes: number; minWeight: number; stubs?: boolean; minLevel?: number },
  ): Promise<ExportNetwork> {
    if (!Number.isInteger(options.minWeight) || options.minWeight < 1) {
      throw badInput('minWeight must be a whole number of at least 1', { argument: 'minWeight' });
    }
    const maxNodes = Math.min(Math.max(2, options.maxNodes), 2000);
    const nodes = new Map<string, { label: string; weight: number }>();
    let edges: Array<{ source: string; target: string; weight: number }>;
    if (kind === 'COUPLING' || kind === 'COCITATION') {
      const links = await this.links(filter, kind, options);
      for (const [id, node] of links.nodes) nodes.set(id, { label: node.title ?? id, weight: node.weight });
      edges = links.edges;
    } else if (kind === 'CITATION') {
      const papers = await this.executor.read<{ id: string; title: string | null }>(
        queries().filterPapers({ ...paperFilterParams(filter), limit: maxNodes }),
      );
      for (const p of papers) nodes.set(p.id, { label: p.title ?? p.id, weight: 1 });
      const ids = papers.map((p) => p.id);
      edges = (await this.executor.read<{ citing: string; cited: string }>(queries().internalCitations({ ids }))).map(
        (c) => ({ source: c.citing, target: c.cited, weight: 1 }),
      );
    } else if (kind === 'TOPIC_COOCCURRENCE') {
      const [network] = await this.executor.read<{
        rows: Array<{ id: string; name: string | null; papers: number }>;
        edges: Array<{ source: string; target: string; weight: number }>;
      }>(
        queries().topicCooccurrence({
          ...paperFilterParams(filter),
          limit: maxNodes,
          minWeight: options.minWeight,
          minLevel: options.minLevel ?? 1,
        }),
      );
      for (const row of network?.rows ?? []) nodes.set(row.id, { label: row.name ?? row.id, weight: row.papers });
      edges = network?.edges ?? [];
    } else {
      const network = await this.analytics.collaborationNetwork(filter, maxNodes, options.minWeight);
      for (const node of network.nodes) nodes.set(node.id, { label: node.name, weight: node.papers });
      edges = network.edges.map((e) => ({ source: e.source, target: e.target, weight: e.joint }));
    }
    const directed = kind === 'CITATION';
    const cluster = new Map<string, number>();
    if (!directed && edges.length > 0) {
      const found = communities(edges, 1).detailed.communities;
      // Clusters numbered by size, largest first (VOSviewer's convention).
      const sizes = new Map<number, number>();
      for (const c of Object.values(found)) sizes.set(c, (sizes.get(c) ?? 0) + 1);
      const rank = new Map(
        [...sizes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([c], i) => [c, i + 1] as const),
      );
      for (const [node, c] of Object.entries(found)) cluster.set(node, rank.get(c)!);
    }
    return {
      name: `${kind.toLowerCase()} network`,
      directed,
      nodes: [...nodes.entries()].map(([id, node]) => ({ id, ...node, cluster: cluster.get(id) ?? 0 })),
      edges,
    };
  }

  /**
   * A whole network of the filtered papers in one answer (`network`): the network `network()` builds, its nodes
   * carrying what a map shows — for papers their year, DOI, stub flag, collections and citation count as stored (a
   * stub's title, year and DOI are whatever the ingested records knew), their degree and Louvain cluster. Nodes left
   * without an edge at minWeight are dropped unless `isolated`.
   */
  async graphNetwork(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    options: { maxNodes: number; minWeight: number; stubs: boolean; isolated: boolean; minLevel: number },
  ): Promise<MapNetwork> {
    const network = await this.network(filter, kind, options);
    const degree = new Map<string, number>();
    for (const edge of network.edges) {
      degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
      degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
    }
    const kept = network.nodes.filter((node) => options.isolated || degree.has(node.id));
    const type = kind === 'COAUTHORSHIP' ? 'AUTHOR' : kind === 'TOPIC_COOCCURRENCE' ? 'TOPIC' : 'PAPER';
    const papers = type === 'PAPER' ? await this.papersOf(kept.map((node) => node.id)) : new Map<string, PaperRow>();
    return {
      kind,
      directed: network.directed,
      nodes: kept.map((node) => {
        const paper = papers.get(node.id);
        return {
          ...node,
          type,
          degree: degree.get(node.id) ?? 0,
          year: paper?.year ?? null,
          doi: paper?.doi ?? null,
          stub: paper?.stub === true,
          citedByCount: paper?.citedByCount ?? null,
          collections: [...(paper?.collections ?? [])],
        };
      }),
      edges: network.edges,
      isolatedDropped: network.nodes.length - kept.length,
    };
  }

  /**
   * Author records that may be one person: the same name key (family name and first initial, accents and case
   * aside), not told apart by ORCIDs (records sharing an ORCID are one person already; two different ORCIDs are two
   * people), and sharing at least one co-author or institution. Nothing stored is changed.
   */
  async possibleDuplicates(filter: PaperFilter | null | undefined, first: number) {
    const rows = await this.executor.read<{ id: string; name: string; orcid: string | null; papers: number }>(
      // With no filter the candidates are the most productive people, read from the top of an index: reading every
      // authorship grows with the graph (1M works: 31 s).
      isFiltered(filter)
        ? queries().authorNames(paperFilterParams(filter))
        : queries().authorNamesTop({ limit: DUPLICATE_CANDIDATES_WHOLE_GRAPH }),
    );
    const groups = new Map<string, typeof rows>();
    for (const row of rows) {
      const key = nameKey(row.name);
      if (key) groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    const pairs: string[][] = [];
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      const capped = members.sort((a, b) => b.papers - a.papers || (a.id < b.id ? -1 : 1)).slice(0, 8);
      for (let i = 0; i < capped.length; i += 1)
        for (let j = i + 1; j < capped.length; j += 1) {
          const [a, b] = [capped[i]!, capped[j]!];
          if (a.orcid && b.orcid) continue; // the same ORCID: one person; different: two
          pairs.push([a.id, b.id]);
        }
    }
    const evidence =
      pairs.length === 0
        ? []
        : await this.executor.read<{ a: string; b: string; sharedCoauthors: number; sharedInstitutions: number }>(
            queries().authorPairEvidence({ pairs: pairs.slice(0, 5000) }),
          );
    const byId = new Map(rows.map((row) => [row.id, row]));
    const found = new Map<string, { key: string; ids: Set<string>; pairs: typeof evidence }>();
    for (const pair of evidence) {
      if (pair.sharedCoauthors + pair.sharedInstitutions === 0) continue;
      const key = nameKey(byId.get(pair.a)!.name)!;
      const group = found.get(key) ?? { key, ids: new Set<string>(), pairs: [] };
      group.ids.add(pair.a).add(pair.b);
      group.pairs.push(pair);
      found.set(key, group);
    }
    return [...found.values()]
      .map((group) => ({
        name: byId.get([...group.ids][0]!)!.name,
        authorIds: [...group.ids].sort(),
        pairs: group.pairs,
        evidence: group.pairs.reduce((sum, p) => sum + p.sharedCoauthors + p.sharedInstitutions, 0),
      }))
      .sort((a, b) => b.evidence - a.evidence || (a.name < b.name ? -1 : 1))
      .slice(0, Math.min(Math.max(1, first), MAX_PAGE));
  }

  /**
   * Several author records taken as one person for a computation, stored data unchanged: the records given plus every
   * record sharing an ORCID with them; their distinct papers' metrics (h-indexes, citations, years) and co-authors.
   */
  async person(authorIds: readonly string[], coauthors: number) {
    const ids = [...new Set(authorIds)];
    if (ids.length === 0 || ids.length > 50) throw badInput('give 1 to 50 author ids', { argument: 'authorIds' });
    const given = await this.executor.read<{ author: { id: string; name?: string; orcid?: string | null } }>(
      queries().authorsByIds({ ids }),
    );
    if (given.length === 0) throw notFound('none of these authors is in the graph');
    const orcids = [...new Set(given.map((row) => row.author.orcid).filter((o): o is string => Boolean(o)))];
    const sameOrcid =
      orcids.length > 0
        ? await this.executor.read<{ id: string; name: string | null }>(queries().authorsByOrcid({ orcids }))
        : [];
    const all = [...new Set([...given.map((row) => row.author.id), ...sameOrcid.map((row) => row.id)])].sort();
    const names = [
      ...new Set([...given.map((row) => row.author.name), ...sameOrcid.map((row) => row.name)].filter(Boolean)),
    ] as string[];
    const [metrics, partners] = await Promise.all([
      this.analytics.people.personMetrics(all),
      this.analytics.people.personCoauthors(all, Math.min(Math.max(1, coauthors), MAX_PAGE)),
    ]);
    return {
      authorIds: all,
      names,
      metrics,
      coauthors: partners
        .filter((partner) => !partner.ids.some((id) => all.includes(id)))
        .map((partner) => ({
          authorIds: partner.ids,
          name: partner.name,
          orcid: partner.orcid ?? null,
          jointPapers: partner.count,
        })),
    };
  }
}

function beauty(row: HistoryRow, basis: CitationBasisName): SleepingBeauty | null {
  const series = citationSeries(row, basis);
  if (!series) return null;
  const measured = beautyCoefficient(series.map((point) => point.citations));
  return {
    paperId: row.id,
    year: row.year,
    coefficient: measured.coefficient,
    peakYear: row.year + measured.peakAfter,
    awakeningYear: row.year + measured.awakeningAfter,
    series,
  };
}

function checkBurstArguments(from: number, to: number, options: { s: number; gamma: number }): void {
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to || to - from > 300) {
    throw badInput('from and to must be years with from ≤ to, at most 300 apart', { argument: 'from' });
  }
  if (!(options.s > 1) || !(options.gamma > 0)) {
    throw badInput('s must be over 1 and gamma over 0', { argument: 's' });
  }
}

/** Counts per year as the queries give them: the relevant ones, and each year's total. */
interface YearCounts {
  series: Array<{ year: number; relevant: number }>;
  totals: Array<{ year: number; total: number }>;
}

/** The series Kleinberg's automaton reads: every year with a total, its relevant count (0 when none). */
function yearSeries(row: YearCounts): Array<{ year: number; total: number; relevant: number }> {
  const relevant = new Map(row.series.map((point) => [point.year, point.relevant]));
  return row.totals.map((point) => ({ year: point.year, total: point.total, relevant: relevant.get(point.year) ?? 0 }));
}

function relevantTotal(row: YearCounts): number {
  return row.series.reduce((sum, point) => sum + point.relevant, 0);
}

/** Rows with at least one burst, the strongest burst first (ties by id). */
function strongestFirst<T extends { bursts: Burst[] }>(rows: T[], idOf: (row: T) => string): T[] {
  const strength = (row: T) => Math.max(...row.bursts.map((burst) => burst.strength));
  return rows
    .filter((row) => row.bursts.length > 0)
    .sort((a, b) => strength(b) - strength(a) || (idOf(a) < idOf(b) ? -1 : 1));
}

/** Louvain communities (seeded: the same network gives the same partition) of a weighted undirected network. */
function communities(edges: ReadonlyArray<{ source: string; target: string; weight: number }>, resolution: number) {
  const graph = new Graph({ type: 'undirected' });
  for (const edge of edges) graph.mergeEdge(edge.source, edge.target, { weight: edge.weight });
  return { graph, detailed: louvain.detailed(graph, { getEdgeWeight: 'weight', resolution, rng: seeded(42) }) };
}
