/**
 * How network maps are drawn, shared by the server's SVG export and the page (bundled from here): cluster colours,
 * the mean-year overlay scale, and label placement — each node in priority order gets its label to the right, left,
 * above or below it, the first place that stays inside the frame and clear of every label and node already there; a
 * label no place fits is left out (the page shows it on hover). Pure and without imports, so the browser bundle takes
 * it as it is.
 */

/** Cluster colours (Tableau 10 without its grey), cluster 1 first; later clusters and unclustered nodes are grey. */
export const CLUSTER_COLOURS = [
  '#d62728',
  '#2ca02c',
  '#1f77b4',
  '#bcbd22',
  '#9467bd',
  '#17becf',
  '#ff7f0e',
  '#8c564b',
  '#e377c2',
] as const;

export const OTHER_COLOUR = '#9a9a9a';

/** A cluster's colour (1-based cluster numbers; 0 is unclustered). */
export function clusterColour(cluster: number): string {
  return cluster >= 1 && cluster <= CLUSTER_COLOURS.length ? CLUSTER_COLOURS[cluster - 1]! : OTHER_COLOUR;
}

/** Viridis at five stops, the overlay scale VOSviewer uses for years (dark blue old, yellow recent). */
const VIRIDIS: ReadonlyArray<readonly [number, number, number]> = [
  [68, 1, 84],
  [59, 82, 139],
  [33, 145, 140],
  [94, 201, 98],
  [253, 231, 37],
];

/** The overlay colour of a mean year between the map's earliest and latest (grey when unknown). */
export function yearColour(year: number | null | undefined, from: number, to: number): string {
  if (year == null || !Number.isFinite(year)) return OTHER_COLOUR;
  const t = to > from ? Math.min(1, Math.max(0, (year - from) / (to - from))) : 0.5;
  const at = t * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(at));
  const f = at - i;
  const mix = VIRIDIS[i]!.map((c, k) => Math.round(c + (VIRIDIS[i + 1]![k]! - c) * f));
  return `#${mix.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** A node to label, in the frame's units: its centre, radius and the size of its label's box. */
export interface LabelCandidate {
  id: string;
  x: number;
  y: number;
  r: number;
  width: number;
  height: number;
}

/** A placed label: its box (left, top, width, height) in the frame's units. */
export interface PlacedLabel {
  id: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface LabelFrame {
  width: number;
  height: number;
  /** Space kept free along the frame's edges. */
  margin: number;
}

/** The earliest and latest (mean) year of a map's nodes, the overlay scale's ends; null when none has a year. */
export function yearSpan(nodes: ReadonlyArray<{ meanYear: number | null }>): { from: number; to: number } | null {
  const years = nodes.flatMap((n) => (n.meanYear == null ? [] : [n.meanYear]));
  return years.length === 0 ? null : { from: Math.min(...years), to: Math.max(...years) };
}

/** A node's fill: its cluster's colour, or its mean year on the overlay scale spanning the map's years. */
export function nodeColour(
  node: { cluster: number; meanYear: number | null },
  colouring: 'CLUSTER' | 'YEAR',
  span: { from: number; to: number } | null,
): string {
  return colouring === 'YEAR' ? yearColour(node.meanYear, span?.from ?? 0, span?.to ?? 0) : clusterColour(node.cluster);
}

/** Longest label drawn; longer ones are cut with an ellipsis (the full text is the node's tooltip). */
const LABEL_CHARS = 36;

/** A label as drawn: cut to LABEL_CHARS characters. */
export function shortLabel(label: string): string {
  return label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1).trimEnd()}…` : label;
}

/**
 * The order labels are placed in: nodes with a real label (a stub known by its id only comes last) by size, so that
 * the largest nodes are labelled first.
 */
export function labelOrder<T extends { id: string; label: string; size: number | null }>(nodes: readonly T[]): T[] {
  const named = (n: T) => (n.label === n.id ? 1 : 0);
  return [...nodes].sort((a, b) => named(a) - named(b) || (b.size ?? 0) - (a.size ?? 0) || (a.id < b.id ? -1 : 1));
}

/** Gap between a node and its label. */
const GAP = 3;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlaps = (a: Box, b: Box): boolean =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** True when the circle (x, y, r) reaches into the box. */
function circleInBox(x: number, y: number, r: number, box: Box): boolean {
  const dx = x - Math.max(box.left, Math.min(x, box.right));
  const dy = y - Math.max(box.top, Math.min(y, box.bottom));
  return dx * dx + dy * dy < r * r;
}

/** Buckets of a uniform grid, so that each test looks only at what lies near it. */
class Grid<T> {
  private readonly cells = new Map<string, T[]>();
  constructor(private readonly cell: number) {}

  private keys(box: Box): string[] {
    const keys: string[] = [];
    for (let i = Math.floor(box.left / this.cell); i <= Math.floor(box.right / this.cell); i += 1)
      for (let j = Math.floor(box.top / this.cell); j <= Math.floor(box.bottom / this.cell); j += 1)
        keys.push(`${i}:${j}`);
    return keys;
  }

  add(box: Box, item: T): void {
    for (const key of this.keys(box)) {
      const cell = this.cells.get(key);
      if (cell) cell.push(item);
      else this.cells.set(key, [item]);
    }
  }

  near(box: Box): Set<T> {
    const found = new Set<T>();
    for (const key of this.keys(box)) for (const item of this.cells.get(key) ?? []) found.add(item);
    return found;
  }
}

/**
 * Places the labels of `candidates` (most important first): right of the node, then left, above, below; a label is
 * kept only where its box lies inside the frame's margin and touches no placed label and no other node. Every node
 * is an obstacle, labelled or not.
 */
export function placeLabels(candidates: readonly LabelCandidate[], frame: LabelFrame): PlacedLabel[] {
  const cell = Math.max(16, ...candidates.slice(0, 50).map((c) => c.height * 4));
  const nodes = new Grid<LabelCandidate>(cell);
  for (const c of candidates) nodes.add({ left: c.x - c.r, top: c.y - c.r, right: c.x + c.r, bottom: c.y + c.r }, c);
  const labels = new Grid<Box>(cell);
  const placed: PlacedLabel[] = [];
  for (const c of candidates) {
    if (!(c.width > 0 && c.height > 0)) continue;
    const places: Box[] = [
      { left: c.x + c.r + GAP, top: c.y - c.height / 2 },
      { left: c.x - c.r - GAP - c.width, top: c.y - c.height / 2 },
      { left: c.x - c.width / 2, top: c.y - c.r - GAP - c.height },
      { left: c.x - c.width / 2, top: c.y + c.r + GAP },
    ].map((p) => ({ ...p, right: p.left + c.width, bottom: p.top + c.height }));
    const fits = places.find(
      (box) =>
        box.left >= frame.margin &&
        box.top >= frame.margin &&
        box.right <= frame.width - frame.margin &&
        box.bottom <= frame.height - frame.margin &&
        ![...labels.near(box)].some((other) => overlaps(box, other)) &&
        ![...nodes.near(box)].some((other) => other !== c && circleInBox(other.x, other.y, other.r, box)),
    );
    if (!fits) continue;
    labels.add(fits, fits);
    placed.push({ id: c.id, left: fits.left, top: fits.top, width: c.width, height: c.height });
  }
  return placed;
}

/** The share of the labels whose box overlaps another label's (0 for none). */
export function labelOverlapShare(boxes: ReadonlyArray<{ left: number; top: number; width: number; height: number }>) {
  const all = boxes.map((b) => ({ left: b.left, top: b.top, right: b.left + b.width, bottom: b.top + b.height }));
  let overlapping = 0;
  for (let i = 0; i < all.length; i += 1) {
    if (all.some((other, j) => j !== i && overlaps(all[i]!, other))) overlapping += 1;
  }
  return all.length === 0 ? 0 : overlapping / all.length;
}
