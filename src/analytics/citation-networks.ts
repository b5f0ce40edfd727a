/** Networks of papers, authors and topics: coupling, co-citation, clusters, maps and the main path. */
import Graph from 'graphology';
import louvain from 'graphology-communities-louvain';
import type { PaperFilter, PaperRow, TopicRow } from '../domain';
import { badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import type { AnalyticsService } from './analytics-service';
import type { ExportEdge, ExportNetwork, ExportNode } from './network-export';
import { paperFilterParams, queries } from '../graph/query-registry';
import { contentTerms } from '../text';
import { distinctiveTerms, seeded } from './science-of-science';
import { globalMainPath, keyRouteMainPath } from './main-path';

export type NetworkKind = 'COUPLING' | 'COCITATION';

/** Every whole network of the filtered papers: of papers (coupling, co-citation, citation), authors or topics. */
export type WholeNetworkKind = NetworkKind | 'COAUTHORSHIP' | 'CITATION' | 'TOPIC_COOCCURRENCE';

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

  /** The network, and for paper networks the stored rows of its nodes (year, DOI and citations go on the nodes). */
  private async build(
    filter: PaperFilter | null | undefined,
    kind: WholeNetworkKind,
    options: { maxNodes: number; minWeight: number; stubs?: boolean; minLevel?: number },
  ): Promise<{ network: ExportNetwork; papers: Map<string, PaperRow> }> {
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
    const { network, papers } = await this.build(filter, kind, options);
    const degree = new Map<string, number>();
    for (const edge of network.edges) {
      degree.set(edge.source, (degree.get(edge.source) ?? 0) + 1);
      degree.set(edge.target, (degree.get(edge.target) ?? 0) + 1);
    }
    const kept = network.nodes.filter((node) => options.isolated || degree.has(node.id));
    const type = kind === 'COAUTHORSHIP' ? 'AUTHOR' : kind === 'TOPIC_COOCCURRENCE' ? 'TOPIC' : 'PAPER';
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
