/**
 * Map layout of a whole network, as VOSviewer and Gephi draw one: ForceAtlas2 (graphology-layout-forceatlas2; LinLog
 * attraction, which separates clusters, and strong gravity, which keeps small components near the rest) from seeded
 * starting places grouped by cluster, then node-overlap removal (graphology-layout-noverlap), fitted inside a frame
 * with a margin so that no node touches its edge. Deterministic: the same network gives the same map. Computed on the
 * server, so the page, the SVG export and the picture tests read the same positions.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import noverlap from 'graphology-layout-noverlap';
import { seeded } from './science-of-science';

export interface LayoutNode {
  id: string;
  weight: number;
  /** Cluster, 1-based; 0 when unclustered. */
  cluster: number;
}

export interface LayoutEdge {
  source: string;
  target: string;
  weight: number;
}

/** A node's place: centre and radius in the frame's units (y grows downwards, as in SVG). */
export interface NodePlace {
  x: number;
  y: number;
  size: number;
}

export interface MapFrame {
  width: number;
  height: number;
  /** Space kept free along every edge of the frame. */
  margin: number;
}

/** The frame maps are laid out in (the SVG export's viewBox; the page scales it to its canvas). */
export const MAP_FRAME: MapFrame = { width: 1000, height: 700, margin: 24 };

/** ForceAtlas2 iterations between two returns to the event loop. */
const LAYOUT_ROUND = 25;

/** Radius of the lightest and of the heaviest node, before scaling down for large networks. */
const MIN_RADIUS = 3;
const MAX_RADIUS = 14;

/**
 * Node radii: by the square root of weight (area ∝ weight), smaller when there are many nodes; nodes that all weigh
 * the same get a middling size.
 */
function radii(nodes: readonly LayoutNode[]): Map<string, number> {
  const heaviest = Math.max(1, ...nodes.map((n) => n.weight));
  const lightest = Math.min(...nodes.map((n) => n.weight));
  const crowd = Math.min(1, Math.sqrt(120 / Math.max(1, nodes.length)));
  return new Map(
    nodes.map((n) => [
      n.id,
      Math.max(
        2,
        (MIN_RADIUS +
          (MAX_RADIUS - MIN_RADIUS) * (lightest === heaviest ? 0.3 : Math.sqrt(Math.max(0, n.weight) / heaviest))) *
          Math.max(crowd, 0.45),
      ),
    ]),
  );
}

/** Links each node keeps in a map's backbone (by association strength). */
export const BACKBONE_LINKS = 8;

/**
 * The edges a map draws and lays out: for each node its BACKBONE_LINKS strongest links by association strength
 * (w_ij / (s_i s_j), s the nodes' total link weights, as VOSviewer normalises), an edge kept when either end keeps it.
 * Dense networks (co-citation links most pairs) become readable; sparse ones keep every edge. Indices into `edges`.
 */
export function backbone(
  edges: readonly LayoutEdge[],
  perNode = BACKBONE_LINKS,
): { kept: Set<number>; association: number[] } {
  const strength = new Map<string, number>();
  for (const e of edges) {
    strength.set(e.source, (strength.get(e.source) ?? 0) + e.weight);
    strength.set(e.target, (strength.get(e.target) ?? 0) + e.weight);
  }
  const association = edges.map((e) => e.weight / ((strength.get(e.source) || 1) * (strength.get(e.target) || 1)));
  const at = new Map<string, number[]>();
  edges.forEach((e, i) => {
    at.set(e.source, [...(at.get(e.source) ?? []), i]);
    at.set(e.target, [...(at.get(e.target) ?? []), i]);
  });
  const kept = new Set<number>();
  for (const list of at.values()) {
    list
      .sort((a, b) => association[b]! - association[a]! || edges[b]!.weight - edges[a]!.weight || a - b)
      .slice(0, perNode)
      .forEach((i) => kept.add(i));
  }
  return { kept, association };
}

/**
 * The edges a map lays out: its backbone, each weighted by its association strength over the backbone's mean, so
 * that a link counts by how much of both ends' links it is rather than by its raw count (hubs do not pull everything).
 */
export function layoutEdges(edges: readonly LayoutEdge[], kept: ReadonlySet<number>, association: readonly number[]) {
  const mean = [...kept].reduce((sum, i) => sum + association[i]!, 0) / Math.max(1, kept.size);
  return [...kept].map((i) => ({ ...edges[i]!, weight: mean > 0 ? association[i]! / mean : 1 }));
}

/** A node's attributes while it is laid out. */
type Place = { x: number; y: number; size: number };

/**
 * Turns the layout about its centroid so that its longest extent runs along x (the principal axis of the positions),
 * as VOSviewer does, so that a wide frame is filled.
 */
function alignPrincipalAxis(graph: Graph<Place>): void {
  if (graph.order < 3) return;
  const points = graph.mapNodes((_, a) => a);
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length;
  let [sxx, syy, sxy] = [0, 0, 0];
  for (const p of points) {
    sxx += (p.x - cx) ** 2;
    syy += (p.y - cy) ** 2;
    sxy += (p.x - cx) * (p.y - cy);
  }
  const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const [cos, sin] = [Math.cos(-angle), Math.sin(-angle)];
  graph.updateEachNodeAttributes((_, a) => ({
    ...a,
    x: (a.x - cx) * cos - (a.y - cy) * sin,
    y: (a.x - cx) * sin + (a.y - cy) * cos,
  }));
}

/** Scales and centres the positions so that every disc lies inside the frame's margin, keeping the aspect ratio. */
function fit(graph: Graph<Place>, frame: MapFrame): void {
  if (graph.order === 0) return;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  graph.forEachNode((_, a) => {
    minX = Math.min(minX, a.x);
    maxX = Math.max(maxX, a.x);
    minY = Math.min(minY, a.y);
    maxY = Math.max(maxY, a.y);
  });
  const largest = Math.max(...graph.mapNodes((_, a) => a.size));
  const innerWidth = frame.width - 2 * (frame.margin + largest);
  const innerHeight = frame.height - 2 * (frame.margin + largest);
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const scale = Math.min(spanX > 0 ? innerWidth / spanX : Infinity, spanY > 0 ? innerHeight / spanY : Infinity);
  const k = Number.isFinite(scale) ? scale : 1;
  const offsetX = frame.width / 2 - ((minX + maxX) / 2) * k;
  const offsetY = frame.height / 2 - ((minY + maxY) / 2) * k;
  graph.updateEachNodeAttributes((_, a) => ({
    ...a,
    x: a.x * k + offsetX,
    y: a.y * k + offsetY,
  }));
}

/**
 * Places every node of the network in the frame: clusters start around a sunflower spiral (largest in the middle),
 * each node near its cluster's place with a seeded jitter; ForceAtlas2 runs on the given edges as an undirected,
 * weighted graph (a map passes its backbone weighted by association strength, `layoutEdges`); the result is fitted to
 * the frame, overlaps between discs are removed, and the result fitted again.
 */
export async function layoutNetwork(
  nodes: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
  frame: MapFrame = MAP_FRAME,
): Promise<Map<string, NodePlace>> {
  const graph = new Graph<Place, { weight: number }>({ type: 'undirected', multi: false, allowSelfLoops: false });
  const size = radii(nodes);
  const random = seeded(7919);
  const clusters = [...new Set(nodes.map((n) => n.cluster))].sort((a, b) => a - b);
  const golden = Math.PI * (3 - Math.sqrt(5));
  const centre = new Map(
    clusters.map((c, i) => [
      c,
      { x: Math.sqrt(i + 0.5) * Math.cos(i * golden) * 10, y: Math.sqrt(i + 0.5) * Math.sin(i * golden) * 10 },
    ]),
  );
  for (const node of nodes) {
    const at = centre.get(node.cluster)!;
    graph.addNode(node.id, {
      x: at.x + (random() - 0.5) * 6,
      y: at.y + (random() - 0.5) * 6,
      size: size.get(node.id)!,
    });
  }
  for (const edge of edges) {
    if (edge.source === edge.target || !graph.hasNode(edge.source) || !graph.hasNode(edge.target)) continue;
    const weight = Math.max(0, edge.weight);
    if (graph.hasEdge(edge.source, edge.target)) {
      graph.updateEdgeAttribute(edge.source, edge.target, 'weight', (w) => (w ?? 0) + weight);
    } else {
      graph.addEdge(edge.source, edge.target, { weight });
    }
  }
  if (graph.order > 1 && graph.size > 0) {
    const settings = {
      ...forceAtlas2.inferSettings(graph),
      linLogMode: true,
      outboundAttractionDistribution: true,
      strongGravityMode: true,
      gravity: 0.5,
      scalingRatio: 2,
      barnesHutOptimize: graph.order > 300,
    };
    // In rounds, giving the event loop back between them: a 500-node map takes about half a second in all, and other
    // requests should not wait for it.
    const total = graph.order > 300 ? 300 : 500;
    for (let done = 0; done < total; done += LAYOUT_ROUND) {
      forceAtlas2.assign(graph, {
        iterations: Math.min(LAYOUT_ROUND, total - done),
        getEdgeWeight: 'weight',
        settings,
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  alignPrincipalAxis(graph);
  for (let round = 0; round < 3; round += 1) {
    fit(graph, frame);
    noverlap.assign(graph, { maxIterations: 120, settings: { margin: 2, ratio: 1, expansion: 1.05, speed: 3 } });
  }
  fit(graph, frame);
  const places = new Map<string, NodePlace>();
  graph.forEachNode((id, a) => places.set(id, { x: round2(a.x), y: round2(a.y), size: round2(a.size) }));
  return places;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * How tight the clusters sit: the mean distance from a node to its cluster's centroid over the mean distance from a
 * node to the centroid of all nodes (clusters of one node and unclustered nodes aside). Below 1, clusters are
 * compact; a random layout gives about 1. Null when no cluster has two nodes.
 */
export function clusterSpread(places: ReadonlyArray<{ x: number; y: number; cluster: number }>): number | null {
  const groups = new Map<number, Array<{ x: number; y: number }>>();
  for (const p of places) if (p.cluster > 0) groups.set(p.cluster, [...(groups.get(p.cluster) ?? []), p]);
  const centroid = (ps: ReadonlyArray<{ x: number; y: number }>) => ({
    x: ps.reduce((s, p) => s + p.x, 0) / ps.length,
    y: ps.reduce((s, p) => s + p.y, 0) / ps.length,
  });
  const members = [...groups.values()].filter((g) => g.length >= 2);
  if (members.length === 0) return null;
  const all = members.flat();
  const overall = centroid(all);
  const distance = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);
  const within = members.flatMap((g) => {
    const c = centroid(g);
    return g.map((p) => distance(p, c));
  });
  const spread = all.reduce((s, p) => s + distance(p, overall), 0) / all.length;
  return spread === 0 ? null : within.reduce((s, d) => s + d, 0) / within.length / spread;
}
