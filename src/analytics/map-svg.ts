/**
 * A laid-out network as an SVG picture, drawn as the page draws it: edges under nodes, discs coloured by cluster (or
 * by the mean-year overlay), labels placed clear of each other and of the frame's edge, and a legend of the named
 * clusters (or of the year scale) under the frame. Pure: the map comes from CitationNetworks.graphNetwork.
 */
import type { MapCluster, MapNetwork } from './citation-networks';
import { labelOrder, nodeColour, placeLabels, shortLabel, yearColour, yearSpan } from './map-drawing';
import { xml } from './network-export';

export type MapColouring = 'CLUSTER' | 'YEAR';

/** Label font size in frame units, and the width of an average character of a sans-serif face at that size. */
const FONT = 11;
const CHAR_WIDTH = FONT * 0.56;
const LEGEND_ROW = 18;

/** The map as a standalone SVG document; the map must have been laid out (`layout: true`). */
export function mapSvg(map: MapNetwork, colouring: MapColouring = map.directed ? 'YEAR' : 'CLUSTER'): string {
  if (!map.frame) throw new Error('mapSvg needs a laid-out map');
  const { width, height } = map.frame;
  const range = yearSpan(map.nodes);
  const place = new Map(map.nodes.map((n) => [n.id, n]));
  const heaviestEdge = Math.max(1, ...map.edges.map((e) => e.weight));
  const legend: string[] = [];
  if (colouring === 'CLUSTER') {
    map.clusters.slice(0, 12).forEach((cluster: MapCluster, i) => {
      const x = 12 + (i % 3) * (width / 3);
      const y = height + 16 + Math.floor(i / 3) * LEGEND_ROW;
      legend.push(
        `<circle cx="${x + 5}" cy="${y - 4}" r="5" fill="${cluster.colour}"/>`,
        `<text x="${x + 15}" y="${y}">${xml(shortLabel(`${cluster.cluster}. ${cluster.name} (${cluster.size})`))}</text>`,
      );
    });
  } else if (range) {
    const steps = 20;
    for (let i = 0; i < steps; i += 1) {
      const year = range.from + ((range.to - range.from) * i) / (steps - 1);
      legend.push(
        `<rect x="${60 + i * 12}" y="${height + 6}" width="12" height="10" fill="${yearColour(year, range.from, range.to)}"/>`,
      );
    }
    legend.push(
      `<text x="12" y="${height + 15}">${Math.round(range.from)}</text>`,
      `<text x="${60 + steps * 12 + 6}" y="${height + 15}">${Math.round(range.to)} (mean year)</text>`,
    );
  }
  const legendHeight = colouring === 'CLUSTER' ? Math.ceil(Math.min(12, map.clusters.length) / 3) * LEGEND_ROW + 8 : 26;
  const order = labelOrder(map.nodes);
  const labels = placeLabels(
    order.map((n) => ({
      id: n.id,
      x: n.x ?? 0,
      y: n.y ?? 0,
      r: n.size ?? 0,
      width: shortLabel(n.label).length * CHAR_WIDTH,
      height: FONT,
    })),
    { width, height, margin: 2 },
  );
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height + legendHeight}" width="${width}" height="${height + legendHeight}" font-family="Helvetica, Arial, sans-serif" font-size="${FONT}">`,
    `<title>${xml(`${map.kind.toLowerCase().replace(/_/g, ' ')} map: ${map.nodes.length} nodes, ${map.edges.length} edges`)}</title>`,
    `<rect width="${width}" height="${height + legendHeight}" fill="#ffffff"/>`,
    map.directed
      ? '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#b0b0b0"/></marker></defs>'
      : '',
    '<g class="edges" stroke="#b0b0b0" stroke-opacity="0.55">',
  ];
  for (const edge of map.edges) {
    if (!edge.backbone) continue;
    const a = place.get(edge.source);
    const b = place.get(edge.target);
    if (a?.x == null || b?.x == null) continue;
    // A directed edge stops at the target's disc, so the arrowhead shows.
    const length = Math.hypot(b.x - a.x, b.y! - a.y!) || 1;
    const cut = map.directed ? (b.size ?? 0) / length : 0;
    lines.push(
      `<line x1="${a.x}" y1="${a.y}" x2="${round(b.x - (b.x - a.x) * cut)}" y2="${round(b.y! - (b.y! - a.y!) * cut)}" stroke-width="${round(0.5 + 2.5 * (edge.weight / heaviestEdge))}"${map.directed ? ' marker-end="url(#arrow)"' : ''}/>`,
    );
  }
  lines.push('</g>', '<g class="nodes" stroke="#ffffff" stroke-width="0.8">');
  for (const node of order) {
    if (node.x == null) continue;
    lines.push(
      `<circle cx="${node.x}" cy="${node.y}" r="${node.size}" fill="${nodeColour(node, colouring, range)}" data-id="${xml(node.id)}"><title>${xml(node.label)}</title></circle>`,
    );
  }
  lines.push('</g>', '<g class="labels" fill="#222222">');
  const byId = new Map(order.map((n) => [n.id, n]));
  for (const label of labels) {
    lines.push(
      `<text x="${round(label.left)}" y="${round(label.top + label.height * 0.82)}">${xml(shortLabel(byId.get(label.id)!.label))}</text>`,
    );
  }
  lines.push('</g>', `<g class="legend" fill="#333333">${legend.join('')}</g>`, '</svg>', '');
  return lines.filter((line) => line !== '').join('\n');
}

const round = (value: number): number => Math.round(value * 100) / 100;
