/** Networks of papers, authors and topics: coupling, co-citation, clusters, maps and the main path. */
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { PaperFilter, PaperRow, TopicRow } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import type { AnalyticsService } from './analytics-service';
import {
  type ExportEdge,
  type ExportNetwork,
  type ExportNode,
  exportNetwork,
  type NetworkFileFormat,
} from './network-export';
import { type MapColouring, mapSvg } from './map-svg';
import { paperFilterParams, queries } from '../graph/query-registry';
import { contentTerms } from '../text';
import { distinctiveTerms, nameKey, seeded } from './science-of-science';
import { clusterColour } from './map-drawing';
import { backbone, layoutEdges, layoutNetwork, MAP_FRAME, type MapFrame } from './network-layout';
import { globalMainPath, keyRouteMainPath } from './main-path';

export type NetworkKind = 'COUPLING' | 'COCITATION';

/** Every whole network of the filtered papers: of papers (coupling, co-citation, citation), authors or topics. */
export const WHOLE_NETWORK_KINDS = [
  'COUPLING',
  'COCITATION',
  'COAUTHORSHIP',
  'CITATION',
  'TOPIC_COOCCURRENCE',
] as const;

export type WholeNetworkKind = (typeof WHOLE_NETWORK_KINDS)[number];

/** Most dropped citations a main path lists (all are counted). */
const MAX_DROPPED_SHOWN = 200;

/** The whole networks whose nodes are papers. */
const PAPER_NETWORKS: ReadonlySet<WholeNetworkKind> = new Set(['COUPLING', 'COCITATION', 'CITATION']);

/** A node of a whole network with what a map labels it by; paper fields are null for authors and topics. */
export interface MapNode extends ExportNode {
  type: 'PAPER' | 'AUTHOR' | 'TOPIC';
  degree: number;
  year: number | null;
  doi: string | null;
  stub: boolean;
  citedByCount: number | null;
  collections: string[];
  /** Author nodes: the records the person stands for; others: the node's own id. */
  records: string[];
  /** Place on the map (frame units, y downwards) and disc radius; null when no layout was asked for. */
  x: number | null;
  y: number | null;
  size: number | null;
  /** Publication year of a paper; mean year of the filtered papers of an author or a topic (the overlay colour). */
  meanYear: number | null;
}

/** A cluster of a map, named for what sets it apart. */
export interface MapCluster {
  cluster: number;
  size: number;
  /** A short name: its distinctive title terms (papers, authors) or its heaviest topics (topic maps). */
  name: string;
  terms: string[];
  /** The mean of its nodes' mean years. */
  meanYear: number | null;
  colour: string;
}

/** A whole network as one answer: its nodes with attributes, its weighted edges, and what was left out. */
export interface MapNetwork {
  kind: WholeNetworkKind;
  directed: boolean;
  nodes: MapNode[];
  /** Every edge; `backbone` marks those the map lays out and draws (network-layout.ts, `backbone`). */
  edges: Array<ExportEdge & { backbone: boolean }>;
  /** Nodes dropped for having no edge at minWeight (kept when isolated is asked for). */
  isolatedDropped: number;
  /** The frame node places are in (null without a layout). */
  frame: MapFrame | null;
  clusters: MapCluster[];
  /** Author records merged into another node as one person (one name, shared co-authors or institutions). */
  mergedRecords: number;
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

/**
 * Networks of the filtered papers: bibliographic coupling and co-citation (with their clusters), whole networks for
 * maps, and the main path of the citation network.
 */
export class CitationNetworks {
  constructor(
    private readonly executor: GraphExecutor,
    private readonly analytics: AnalyticsService,
  ) {}

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
      papersOf(this.executor, shown),
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
   * A whole network of the filtered papers, ready to export: bibliographic coupling or citations among them, the
   * co-citation network of the works they cite, or the co-authorship network of their most productive authors. An
   * undirected network's nodes carry their Louvain cluster (seeded).
   */
  async network(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    options: { maxNodes: number; minWeight: number; stubs?: boolean; minLevel?: number },
  ): Promise<ExportNetwork> {
    return (await this.build(filter, kind, options)).network;
  }

  /**
   * A whole network as a file (`networkExport`, `/export/network`, `citegraph network`): GraphML, GEXF, VOSviewer or
   * CSV of `network()`, every node kept; or the laid-out map as SVG, nodes without an edge left out as on the page.
   */
  async file(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    format: NetworkFileFormat,
    options: { maxNodes: number; minWeight: number; colouring?: MapColouring },
  ): Promise<{ content: string; nodes: number; edges: number }> {
    if (format === 'SVG') {
      const map = await this.graphNetwork(filter, kind, {
        ...options,
        stubs: true,
        isolated: false,
        minLevel: 1,
        layout: true,
      });
      return { content: mapSvg(map, options.colouring), nodes: map.nodes.length, edges: map.edges.length };
    }
    const network = await this.network(filter, kind, options);
    return { content: exportNetwork(network, format), nodes: network.nodes.length, edges: network.edges.length };
  }

  /** The network, and for paper networks the stored rows of its nodes (year, DOI and citations go on the nodes). */
  private async build(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    options: { maxNodes: number; minWeight: number; stubs?: boolean; minLevel?: number },
  ): Promise<{
    network: ExportNetwork;
    papers: Map<string, PaperRow>;
    records: Map<string, string[]>;
    mergedRecords: number;
  }> {
    if (!Number.isInteger(options.minWeight) || options.minWeight < 1) {
      throw badInput('minWeight must be a whole number of at least 1', { argument: 'minWeight' });
    }
    const maxNodes = Math.min(Math.max(2, options.maxNodes), 2000);
    const nodes = new Map<string, { label: string; weight: number }>();
    const records = new Map<string, string[]>();
    let mergedRecords = 0;
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
      const network = await this.samePeopleMerged(
        await this.analytics.collaborationNetwork(filter, maxNodes, options.minWeight),
      );
      for (const node of network.nodes) {
        nodes.set(node.id, { label: node.name, weight: node.papers });
        records.set(node.id, node.records);
      }
      edges = network.edges.map((e) => ({ source: e.source, target: e.target, weight: e.joint }));
      mergedRecords = network.merged;
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
    const papers = PAPER_NETWORKS.has(kind)
      ? await papersOf(this.executor, [...nodes.keys()])
      : new Map<string, PaperRow>();
    return {
      network: {
        name: `${kind.toLowerCase()} network`,
        directed,
        nodes: [...nodes.entries()].map(([id, node]) => {
          const paper = papers.get(id);
          return {
            id,
            ...node,
            cluster: cluster.get(id) ?? 0,
            ...(paper
              ? { year: paper.year ?? null, doi: paper.doi ?? null, citations: paper.citedByCount ?? null }
              : {}),
          };
        }),
        edges,
      },
      papers,
      records,
      mergedRecords,
    };
  }

  /**
   * A co-authorship network with each person once: nodes of one name key (family name and first initial) that ORCIDs
   * do not tell apart and that share a co-author or an institution in the graph — the evidence
   * `possibleDuplicateAuthors` lists — become one node, shown by the more productive record, weighing the papers of
   * both (a paper both records sign counts twice, which the records do not allow telling apart); their edges join.
   */
  private async samePeopleMerged(network: {
    nodes: Array<{ id: string; name: string; orcid: string | null; papers: number; records: string[] }>;
    edges: Array<{ source: string; target: string; joint: number }>;
  }) {
    const byKey = new Map<string, typeof network.nodes>();
    for (const node of network.nodes) {
      const key = nameKey(node.name);
      if (key) byKey.set(key, [...(byKey.get(key) ?? []), node]);
    }
    const pairs = [...byKey.values()].flatMap((group) =>
      group.flatMap((a, i) =>
        group
          .slice(i + 1)
          .filter((b) => !(a.orcid && b.orcid))
          .map((b) => [a.id, b.id]),
      ),
    );
    const unchanged = { ...network, merged: 0 };
    if (pairs.length === 0) return unchanged;
    const evidence = await this.executor.read<{
      a: string;
      b: string;
      sharedCoauthors: number;
      sharedInstitutions: number;
    }>(queries().authorPairEvidence({ pairs: pairs.slice(0, 5000) }));
    const order = new Map(network.nodes.map((node, i) => [node.id, i]));
    const parent = new Map(network.nodes.map((node) => [node.id, node.id]));
    const root = (id: string): string => (parent.get(id) === id ? id : root(parent.get(id)!));
    for (const pair of evidence) {
      if (pair.sharedCoauthors + pair.sharedInstitutions === 0) continue;
      const [x, y] = [root(pair.a), root(pair.b)];
      if (x === y) continue;
      // The node listed first (more papers) represents the person.
      if (order.get(x)! <= order.get(y)!) parent.set(y, x);
      else parent.set(x, y);
    }
    const merged = new Map<string, (typeof network.nodes)[number]>();
    for (const node of network.nodes) {
      const at = root(node.id);
      const into = merged.get(at);
      if (into)
        merged.set(at, { ...into, papers: into.papers + node.papers, records: [...into.records, ...node.records] });
      else merged.set(at, { ...node, records: [...node.records] });
    }
    if (merged.size === network.nodes.length) return unchanged;
    const joint = new Map<string, { source: string; target: string; joint: number }>();
    for (const edge of network.edges) {
      const [a, b] = [root(edge.source), root(edge.target)].sort();
      if (a === b) continue;
      const key = `${a}\u0000${b}`;
      const entry = joint.get(key) ?? { source: a!, target: b!, joint: 0 };
      entry.joint += edge.joint;
      joint.set(key, entry);
    }
    return {
      nodes: [...merged.values()].sort((a, b) => b.papers - a.papers || (a.id < b.id ? -1 : 1)),
      edges: [...joint.values()],
      merged: network.nodes.length - merged.size,
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
    options: {
      maxNodes: number;
      minWeight: number;
      stubs: boolean;
      isolated: boolean;
      minLevel: number;
      layout?: boolean;
      sizeBy?: 'WEIGHT' | 'CITATIONS' | 'DEGREE';
    },
  ): Promise<MapNetwork> {
    const { network, papers, records, mergedRecords } = await this.build(filter, kind, options);
    const degree = new Map<string, number>();
    for (const edge of network.edges) {
      degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
      degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
    }
    const kept = network.nodes.filter((node) => options.isolated || degree.has(node.id));
    const type = kind === 'COAUTHORSHIP' ? 'AUTHOR' : kind === 'TOPIC_COOCCURRENCE' ? 'TOPIC' : 'PAPER';
    const { meanYears, titles } = await this.nodeYears(filter, kind, kept, records, papers);
    const sized = kept.map((node) => ({
      ...node,
      weight:
        options.sizeBy === 'DEGREE'
          ? (degree.get(node.id) ?? 0)
          : options.sizeBy === 'CITATIONS' && type === 'PAPER'
            ? (papers.get(node.id)?.citedByCount ?? 0)
            : node.weight,
    }));
    const { kept: strongest, association } = backbone(network.edges);
    const places = options.layout
      ? await layoutNetwork(sized, layoutEdges(network.edges, strongest, association))
      : new Map<string, never>();
    const nodes: MapNode[] = kept.map((node) => {
      const paper = papers.get(node.id);
      const place = places.get(node.id);
      return {
        ...node,
        type,
        degree: degree.get(node.id) ?? 0,
        year: paper?.year ?? null,
        doi: paper?.doi ?? null,
        stub: paper?.stub === true,
        citedByCount: paper?.citedByCount ?? null,
        collections: [...(paper?.collections ?? [])],
        records: records.get(node.id) ?? [node.id],
        x: place?.x ?? null,
        y: place?.y ?? null,
        size: place?.size ?? null,
        meanYear: meanYears.get(node.id) ?? null,
      };
    });
    return {
      kind,
      directed: network.directed,
      nodes,
      edges: network.edges.map((edge, i) => ({ ...edge, backbone: strongest.has(i) })),
      isolatedDropped: network.nodes.length - kept.length,
      frame: options.layout ? MAP_FRAME : null,
      clusters: mapClusters(nodes, type, titles),
      mergedRecords,
    };
  }

  /**
   * Each node's year for the overlay — a paper's own, the mean over the filtered papers of an author or a topic — and
   * the titles its cluster is named by: a paper's own, the titles of the filtered papers citing a co-cited work (as
   * CiteSpace names co-citation clusters), an author's filtered papers.
   */
  private async nodeYears(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    nodes: readonly ExportNode[],
    records: ReadonlyMap<string, string[]>,
    papers: ReadonlyMap<string, PaperRow>,
  ): Promise<{ meanYears: Map<string, number>; titles: Map<string, string[]> }> {
    const meanYears = new Map<string, number>();
    const titles = new Map<string, string[]>();
    const mean = (years: readonly number[]) => years.reduce((s, y) => s + y, 0) / years.length;
    if (PAPER_NETWORKS.has(kind)) {
      for (const node of nodes) {
        const year = papers.get(node.id)?.year;
        if (year != null) meanYears.set(node.id, year);
        titles.set(node.id, [node.label === node.id ? '' : node.label]);
      }
      if (kind === 'COCITATION' && nodes.length > 0) {
        const rows = await this.executor.read<{ id: string; titles: string[] }>(
          queries().mapCitingTitles({ ...paperFilterParams(filter), ids: nodes.map((node) => node.id) }),
        );
        for (const row of rows) titles.set(row.id, row.titles);
      }
    } else if (kind === 'COAUTHORSHIP' && nodes.length > 0) {
      const rows = await this.executor.read<{ id: string; years: number[]; titles: string[] }>(
        queries().mapAuthorPapers({
          ...paperFilterParams(filter),
          groups: nodes.map((node) => ({ id: node.id, records: records.get(node.id) ?? [node.id] })),
        }),
      );
      for (const row of rows) {
        if (row.years.length > 0) meanYears.set(row.id, Math.round(mean(row.years) * 10) / 10);
        titles.set(row.id, row.titles);
      }
    } else if (kind === 'TOPIC_COOCCURRENCE' && nodes.length > 0) {
      const rows = await this.executor.read<{ id: string; meanYear: number | null }>(
        queries().mapTopicYears({ ...paperFilterParams(filter), ids: nodes.map((node) => node.id) }),
      );
      for (const row of rows) if (row.meanYear != null) meanYears.set(row.id, Math.round(row.meanYear * 10) / 10);
    }
    return { meanYears, titles };
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
    const nodes = await this.executor.read<{
      id: string;
      title: string | null;
      year: number | null;
      publicationDate: string | null;
    }>(queries().filterPapers({ ...paperFilterParams(filter), limit }));
    const citations = await this.executor.read<{ citing: string; cited: string }>(
      queries().internalCitations({ ids: nodes.map((n) => n.id) }),
    );
    const path =
      method === 'KEY_ROUTE' ? keyRouteMainPath(nodes, citations, keyRoutes) : globalMainPath(nodes, citations);
    const shownDrops = path.droppedCitations.slice(0, MAX_DROPPED_SHOWN);
    const rows = await papersOf(this.executor, [
      ...new Set([...path.papers, ...shownDrops.flatMap((d) => [d.citing, d.cited])]),
    ]);
    return {
      method,
      papers: path.papers.map((id) => rows.get(id)!),
      weights: path.weights,
      links: path.links.map((l) => ({ cited: rows.get(l.cited)!, citing: rows.get(l.citing)!, weight: l.weight })),
      paths: path.paths,
      citations: citations.length - path.dropped,
      dropped: path.dropped,
      droppedCitations: shownDrops.map((d) => ({
        citing: rows.get(d.citing)!,
        cited: rows.get(d.cited)!,
        reason: d.reason,
      })),
      nodes: nodes.length,
    };
  }
}

export async function papersOf(executor: GraphExecutor, ids: readonly string[]): Promise<Map<string, PaperRow>> {
  if (ids.length === 0) return new Map();
  const rows = await executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids: [...ids] }));
  const byId = new Map(rows.map((r) => [r.paper.id, r.paper]));
  return new Map(ids.map((id) => [id, byId.get(id) ?? { id, stub: true }]));
}

/** Louvain communities (seeded: the same network gives the same partition) of a weighted undirected network. */
function communities(edges: ReadonlyArray<{ source: string; target: string; weight: number }>, resolution: number) {
  const graph = new Graph({ type: 'undirected' });
  for (const edge of edges) graph.mergeEdge(edge.source, edge.target, { weight: edge.weight });
  return { graph, detailed: louvain.detailed(graph, { getEdgeWeight: 'weight', resolution, rng: seeded(42) }) };
}

/**
 * The clusters of a map, numbered as the nodes carry them, each named: topic maps by their two heaviest topics, paper
 * and author maps by the distinctive terms of their titles (an author's: the titles of the filtered papers), else by
 * their heaviest node.
 */
export function mapClusters(
  nodes: readonly MapNode[],
  type: MapNode['type'],
  titles: ReadonlyMap<string, readonly string[]>,
): MapCluster[] {
  const groups = new Map<number, MapNode[]>();
  for (const node of nodes) if (node.cluster > 0) groups.set(node.cluster, [...(groups.get(node.cluster) ?? []), node]);
  // Each distinct title is one document (a citing paper shared by several co-cited works counts once); terms of
  // fewer than three letters ("du", "de" of other languages' titles) and bare numbers do not name a cluster.
  const docsOf = (members: readonly MapNode[]) =>
    [...new Set(members.flatMap((node) => titles.get(node.id) ?? []))]
      .filter((title) => title !== '')
      .map((title) => contentTerms(title).filter((term) => term.length >= 3 && !/^\d+$/.test(term)));
  const everyone = docsOf(nodes);
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([cluster, members]) => {
      const heaviest = [...members].sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : 1));
      const terms = type === 'TOPIC' ? [] : distinctiveTerms(docsOf(members), everyone, 4);
      const years = members.flatMap((m) => (m.meanYear == null ? [] : [m.meanYear]));
      const name =
        type === 'TOPIC'
          ? heaviest
              .slice(0, 2)
              .map((m) => m.label)
              .join(' · ')
          : terms.length > 0
            ? terms.slice(0, 3).join(', ')
            : heaviest[0]!.label;
      return {
        cluster,
        size: members.length,
        name,
        terms,
        meanYear: years.length > 0 ? Math.round((years.reduce((s, y) => s + y, 0) / years.length) * 10) / 10 : null,
        colour: clusterColour(cluster),
      };
    });
}
