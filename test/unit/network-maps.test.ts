import { DomUtils, parseDocument } from 'htmlparser2';
import { mapClusters, type MapNetwork, type MapNode } from '../../src/analytics/citation-networks';
import {
  clusterColour,
  labelOrder,
  labelOverlapShare,
  placeLabels,
  shortLabel,
  yearColour,
} from '../../src/analytics/map-drawing';
import { mapSvg } from '../../src/analytics/map-svg';
import {
  backbone,
  clusterSpread,
  layoutEdges,
  layoutNetwork,
  type LayoutEdge,
  type LayoutNode,
  MAP_FRAME,
  type NodePlace,
} from '../../src/analytics/network-layout';
import { seeded } from '../../src/analytics/science-of-science';

/** A planted-partition network: `groups` clusters of `size` nodes, dense inside, a few links between. */
function planted(groups: number, size: number, seed = 3): { nodes: LayoutNode[]; edges: LayoutEdge[] } {
  const random = seeded(seed);
  const nodes = Array.from({ length: groups * size }, (_, i) => ({
    id: `n${i}`,
    weight: 1 + Math.floor(random() * 20),
    cluster: 1 + Math.floor(i / size),
  }));
  const edges: LayoutEdge[] = [];
  for (let i = 0; i < nodes.length; i += 1)
    for (let j = i + 1; j < nodes.length; j += 1) {
      const inside = nodes[i]!.cluster === nodes[j]!.cluster;
      if (random() < (inside ? 0.5 : 0.01)) edges.push({ source: nodes[i]!.id, target: nodes[j]!.id, weight: 1 });
    }
  return { nodes, edges };
}

describe('map layout', () => {
  const { nodes, edges } = planted(4, 25);
  const { kept, association } = backbone(edges);
  let places: Map<string, NodePlace>;
  let laid: Array<NodePlace & { cluster: number }>;
  beforeAll(async () => {
    places = await layoutNetwork(nodes, layoutEdges(edges, kept, association));
    laid = nodes.map((n) => ({ ...places.get(n.id)!, cluster: n.cluster }));
  });

  it('puts every disc inside the frame, clear of its margin, and no two discs on top of each other', () => {
    for (const p of laid) {
      expect(p.x - p.size).toBeGreaterThanOrEqual(MAP_FRAME.margin - 0.01);
      expect(p.y - p.size).toBeGreaterThanOrEqual(MAP_FRAME.margin - 0.01);
      expect(p.x + p.size).toBeLessThanOrEqual(MAP_FRAME.width - MAP_FRAME.margin + 0.01);
      expect(p.y + p.size).toBeLessThanOrEqual(MAP_FRAME.height - MAP_FRAME.margin + 0.01);
    }
    let overlapping = 0;
    for (let i = 0; i < laid.length; i += 1)
      for (let j = i + 1; j < laid.length; j += 1) {
        const [a, b] = [laid[i]!, laid[j]!];
        if (Math.hypot(a.x - b.x, a.y - b.y) < a.size + b.size - 1) overlapping += 1;
      }
    expect(overlapping).toBe(0);
  });

  it('draws clusters compact: members sit much closer to their centroid than nodes to the map centre', () => {
    expect(clusterSpread(laid)).toBeLessThan(0.5);
    // The same nodes placed at random spread about as much as the whole map.
    const random = seeded(11);
    const scattered = laid.map((p) => ({ ...p, x: random() * 1000, y: random() * 700 }));
    expect(clusterSpread(scattered)).toBeGreaterThan(0.8);
  });

  it('is deterministic and sizes discs by weight', async () => {
    const again = await layoutNetwork(nodes, layoutEdges(edges, kept, association));
    expect([...again.entries()]).toEqual([...places.entries()]);
    const heaviest = nodes.reduce((a, b) => (b.weight > a.weight ? b : a));
    const lightest = nodes.reduce((a, b) => (b.weight < a.weight ? b : a));
    expect(places.get(heaviest.id)!.size).toBeGreaterThan(places.get(lightest.id)!.size);
  });

  it('keeps nodes without edges and single nodes inside the frame', async () => {
    const lone = await layoutNetwork([{ id: 'a', weight: 1, cluster: 0 }], []);
    expect(lone.get('a')).toEqual({ x: 500, y: 350, size: expect.any(Number) as number });
    const apart = await layoutNetwork(
      [
        { id: 'a', weight: 1, cluster: 1 },
        { id: 'b', weight: 1, cluster: 1 },
        { id: 'c', weight: 5, cluster: 0 },
      ],
      [{ source: 'a', target: 'b', weight: 1 }],
    );
    for (const p of apart.values()) {
      expect(p.x).toBeGreaterThan(MAP_FRAME.margin);
      expect(p.x).toBeLessThan(MAP_FRAME.width - MAP_FRAME.margin);
    }
  });

  it('backbone: each node keeps its strongest links by association strength; a sparse network keeps all', () => {
    // A hub linked to everyone with weight 5, and a pair (x, y) linked with weight 2 to each other only.
    const star: LayoutEdge[] = [
      ...Array.from({ length: 12 }, (_, i) => ({ source: 'hub', target: `s${i}`, weight: 5 })),
      { source: 'x', target: 'y', weight: 2 },
    ];
    const strongest = backbone(star, 3).kept;
    // Every leaf keeps its only link, so all survive; the pair's link too.
    expect(strongest.size).toBe(star.length);
    // A complete graph of 10 keeps at most 3 links per node.
    const complete: LayoutEdge[] = [];
    for (let i = 0; i < 10; i += 1)
      for (let j = i + 1; j < 10; j += 1)
        complete.push({ source: `c${i}`, target: `c${j}`, weight: 1 + ((i * j) % 4) });
    const kept3 = backbone(complete, 3).kept;
    expect(kept3.size).toBeLessThanOrEqual(30);
    expect(kept3.size).toBeGreaterThanOrEqual(15);
    // Association strength, not raw weight: c1–c2 (weight 3) between two light nodes beats heavier links of hubs.
    const { association } = backbone(complete, 3);
    const index = complete.findIndex((e) => e.source === 'c1' && e.target === 'c2');
    expect(association[index]).toBeCloseTo(3 / (sumAt(complete, 'c1') * sumAt(complete, 'c2')), 10);
  });
});

function sumAt(edges: readonly LayoutEdge[], id: string): number {
  return edges.filter((e) => e.source === id || e.target === id).reduce((s, e) => s + e.weight, 0);
}

describe('map labels and colours', () => {
  it('places labels inside the frame, never on each other or on another node, largest nodes first', () => {
    const random = seeded(5);
    const candidates = Array.from({ length: 120 }, (_, i) => ({
      id: `n${i}`,
      x: 30 + random() * 540,
      y: 30 + random() * 340,
      r: 4,
      width: 40 + random() * 60,
      height: 11,
    }));
    const frame = { width: 600, height: 400, margin: 2 };
    const placed = placeLabels(candidates, frame);
    expect(placed.length).toBeGreaterThan(10);
    expect(placed.length).toBeLessThan(candidates.length);
    expect(labelOverlapShare(placed)).toBe(0);
    for (const label of placed) {
      expect(label.left).toBeGreaterThanOrEqual(2);
      expect(label.top + label.height).toBeLessThanOrEqual(398);
      for (const other of candidates) {
        if (other.id === label.id) continue;
        const dx = other.x - Math.max(label.left, Math.min(other.x, label.left + label.width));
        const dy = other.y - Math.max(label.top, Math.min(other.y, label.top + label.height));
        expect(dx * dx + dy * dy).toBeGreaterThanOrEqual(other.r * other.r);
      }
    }
    // The first candidate has the whole frame to itself: its label goes right of it.
    expect(placed[0]).toMatchObject({ id: 'n0', left: candidates[0]!.x + 4 + 3 });
  });

  it('moves a label left of a node at the right edge, and drops one that fits nowhere', () => {
    const frame = { width: 200, height: 100, margin: 2 };
    const [right] = placeLabels([{ id: 'a', x: 190, y: 50, r: 5, width: 60, height: 10 }], frame);
    expect(right!.left + right!.width).toBeLessThanOrEqual(190 - 5);
    expect(placeLabels([{ id: 'wide', x: 100, y: 50, r: 5, width: 400, height: 10 }], frame)).toEqual([]);
  });

  it('counts overlapping labels', () => {
    const box = (left: number, top: number) => ({ left, top, width: 10, height: 10 });
    expect(labelOverlapShare([box(0, 0), box(5, 5), box(50, 50)])).toBeCloseTo(2 / 3, 10);
    expect(labelOverlapShare([])).toBe(0);
  });

  it('colours clusters from the palette and years on the viridis scale', () => {
    expect(clusterColour(1)).toBe('#d62728');
    expect(clusterColour(0)).toBe('#9a9a9a');
    expect(clusterColour(40)).toBe('#9a9a9a');
    expect(yearColour(2000, 2000, 2020)).toBe('#440154');
    expect(yearColour(2020, 2000, 2020)).toBe('#fde725');
    expect(yearColour(null, 2000, 2020)).toBe('#9a9a9a');
  });

  it('labels real titles before stubs known by id, larger first, and cuts long labels', () => {
    const order = labelOrder([
      { id: 'W1', label: 'W1', size: 20 },
      { id: 'W2', label: 'A small paper', size: 4 },
      { id: 'W3', label: 'A large paper', size: 9 },
    ]);
    expect(order.map((n) => n.id)).toEqual(['W3', 'W2', 'W1']);
    expect(shortLabel('x'.repeat(50))).toHaveLength(36);
    expect(shortLabel('short')).toBe('short');
  });
});

function mapNode(id: string, cluster: number, extra: Partial<MapNode> = {}): MapNode {
  return {
    id,
    label: id,
    weight: 1,
    cluster,
    type: 'PAPER',
    degree: 1,
    year: null,
    doi: null,
    stub: false,
    citedByCount: null,
    collections: [],
    records: [id],
    x: null,
    y: null,
    size: null,
    meanYear: null,
    ...extra,
  };
}

describe('map clusters and SVG', () => {
  it('names a cluster by the terms of its titles that the other clusters lack', () => {
    const nodes = [
      mapNode('a', 1, { meanYear: 2001 }),
      mapNode('b', 1, { meanYear: 2003 }),
      mapNode('c', 2),
      mapNode('d', 2),
    ];
    const titles = new Map([
      ['a', ['Statin therapy and stroke', 'Statin adherence']],
      ['b', ['Statin trials in stroke', 'Lipid lowering by statin']],
      ['c', ['Aspirin and bleeding', 'Aspirin dosing and bleeding risk']],
      ['d', ['Aspirin resistance']],
    ]);
    const clusters = mapClusters(nodes, 'PAPER', titles);
    expect(clusters[0]!.terms.slice(0, 2).sort()).toEqual(['statin', 'stroke']);
    expect(clusters[0]!.name).toBe(clusters[0]!.terms.slice(0, 3).join(', '));
    expect(clusters[1]!.terms[0]).toBe('aspirin');
    expect(clusters[1]!.terms).not.toContain('statin');
    expect(clusters[0]).toMatchObject({ cluster: 1, size: 2, meanYear: 2002, colour: '#d62728' });
    expect(clusters[1]!.terms).toContain('bleeding');
    // Topic maps are named by their heaviest topics.
    const topics = mapClusters(
      [
        mapNode('T1', 1, { type: 'TOPIC', label: 'Cardiology', weight: 9 }),
        mapNode('T2', 1, { type: 'TOPIC', label: 'Stroke', weight: 4 }),
        mapNode('T3', 1, { type: 'TOPIC', label: 'Aspirin', weight: 1 }),
      ],
      'TOPIC',
      new Map(),
    );
    expect(topics[0]!.name).toBe('Cardiology · Stroke');
  });

  it('writes the laid-out map as SVG: a disc per node, backbone edges only, placed labels and a legend', async () => {
    const { nodes, edges } = planted(3, 12, 8);
    const { kept, association } = backbone(edges, 2);
    const places = await layoutNetwork(nodes, layoutEdges(edges, kept, association));
    const map: MapNetwork = {
      kind: 'COUPLING',
      directed: false,
      nodes: nodes.map((n) => mapNode(n.id, n.cluster, { label: `Paper ${n.id}`, ...places.get(n.id)! })),
      edges: edges.map((e, i) => ({ ...e, backbone: kept.has(i) })),
      isolatedDropped: 0,
      frame: MAP_FRAME,
      clusters: [1, 2, 3].map((cluster) => ({
        cluster,
        size: 12,
        name: `front ${cluster}`,
        terms: [],
        meanYear: null,
        colour: clusterColour(cluster),
      })),
      mergedRecords: 0,
    };
    const document = parseDocument(mapSvg(map), { xmlMode: true });
    const circles = DomUtils.findAll(
      (e) => e.name === 'circle' && e.attribs['data-id'] !== undefined,
      document.children,
    );
    expect(circles).toHaveLength(36);
    expect(circles.find((c) => c.attribs['data-id'] === 'n0')!.attribs.fill).toBe(clusterColour(1));
    const lines = DomUtils.findAll((e) => e.name === 'line', document.children);
    expect(lines).toHaveLength(kept.size);
    expect(kept.size).toBeLessThan(edges.length);
    const texts = DomUtils.findAll((e) => e.name === 'text', document.children).map((t) => DomUtils.textContent(t));
    expect(texts.some((t) => t.startsWith('Paper n'))).toBe(true);
    expect(texts).toContain('1. front 1 (12)');
    // Colouring by year without years leaves every disc grey.
    const byYear = parseDocument(mapSvg(map, 'YEAR'), { xmlMode: true });
    const fills = DomUtils.findAll((e) => e.name === 'circle' && e.attribs['data-id'] !== undefined, byYear.children);
    expect(new Set(fills.map((c) => c.attribs.fill))).toEqual(new Set(['#9a9a9a']));
    expect(() => mapSvg({ ...map, frame: null })).toThrow(/laid-out/);
  });
});
