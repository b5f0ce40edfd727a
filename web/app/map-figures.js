// Two figures beside a map, drawn as SVG: the timeline of its clusters over the years (CiteSpace's timeline view) and
// the main path of the citation network as a historiograph (Garfield's: papers by year, citations between them).
import React from 'react';
import { clusterColour } from '../../src/analytics/map-drawing.ts';
import { Link } from './routing.js';

const h = React.createElement;

/** Ticks of a year axis: every year for short spans, else every 2, 5 or 10. */
function yearTicks(from, to) {
  const span = to - from;
  const step = span <= 12 ? 1 : span <= 30 ? 2 : span <= 70 ? 5 : 10;
  const ticks = [];
  for (let year = Math.ceil(from / step) * step; year <= to; year += step) ticks.push(year);
  return ticks;
}

/**
 * Clusters over time: one row per cluster (the largest first, at most 10), each node a disc at its year (a paper's,
 * or an author's or topic's mean year) sized by its map size, the row's span drawn as a line, the cluster's name at
 * its end. Nodes without a year are left out and counted.
 */
export function ClusterTimeline({ network }) {
  const clusters = network.clusters.slice(0, 10);
  const dated = network.nodes.filter((n) => n.meanYear != null && clusters.some((c) => c.cluster === n.cluster));
  if (clusters.length === 0 || dated.length === 0) return null;
  const years = dated.map((n) => n.meanYear);
  const from = Math.floor(Math.min(...years));
  const to = Math.max(Math.ceil(Math.max(...years)), from + 1);
  const [left, right, row, top] = [40, 640, 46, 28];
  const width = 960;
  const height = top + clusters.length * row + 10;
  const x = (year) => left + ((year - from) / (to - from)) * (right - left);
  const undated = network.nodes.filter((n) => n.meanYear == null && n.cluster > 0).length;
  return h(
    'figure',
    { className: 'timeline' },
    h(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `timeline of ${clusters.length} clusters` },
      yearTicks(from, to).map((year) =>
        h(
          'g',
          { key: year },
          h('line', { x1: x(year), x2: x(year), y1: top - 6, y2: height - 6, className: 'tick' }),
          h('text', { x: x(year), y: top - 12, textAnchor: 'middle', className: 'year' }, year),
        ),
      ),
      clusters.map((cluster, i) => {
        const y = top + i * row + row / 2;
        const members = dated
          .filter((n) => n.cluster === cluster.cluster)
          .sort((a, b) => (b.size ?? 0) - (a.size ?? 0));
        if (members.length === 0) return null;
        const first = Math.min(...members.map((n) => n.meanYear));
        const last = Math.max(...members.map((n) => n.meanYear));
        return h(
          'g',
          { key: cluster.cluster, className: 'cluster-row', 'data-cluster': cluster.cluster },
          h('line', { x1: x(first), x2: x(last), y1: y, y2: y, style: { stroke: cluster.colour, strokeWidth: 2 } }),
          members.map((n) =>
            h(
              'circle',
              {
                key: n.id,
                cx: x(n.meanYear),
                cy: y,
                r: Math.max(2, Math.min(12, (n.size ?? 4) * 0.8)),
                style: { fill: clusterColour(cluster.cluster), fillOpacity: 0.55 },
              },
              h('title', null, `${n.label} (${Math.round(n.meanYear)})`),
            ),
          ),
          h('text', { x: right + 16, y: y + 4, className: 'cluster-name' }, `#${cluster.cluster} ${cluster.name}`),
        );
      }),
    ),
    h(
      'figcaption',
      { className: 'muted' },
      `Clusters over time: each disc a node at its ${network.nodes[0]?.type === 'PAPER' ? 'year' : 'mean year'}` +
        (undated ? `; ${undated} without a year left out.` : '.'),
    ),
  );
}

/**
 * The main path as a historiograph: years down the left side (Garfield's layout), each paper a disc in its year's row
 * (papers of one year side by side) with its title, arrows from a cited paper to the paper citing it on the path, each
 * link's search path count on hover.
 */
export function Historiograph({ path }) {
  if (!path?.papers?.length) return null;
  const years = [...new Set(path.papers.map((p) => p.year ?? 0))].sort((a, b) => a - b);
  const row = new Map(years.map((year, i) => [year, i]));
  const stacked = new Map();
  const place = new Map();
  const [rowHeight, top, left, slotWidth] = [44, 24, 70, 300];
  for (const paper of path.papers) {
    const year = paper.year ?? 0;
    const slot = stacked.get(year) ?? 0;
    stacked.set(year, slot + 1);
    place.set(paper.id, { x: left + 20 + slot * slotWidth, y: top + row.get(year) * rowHeight });
  }
  const width = Math.max(960, left + 20 + Math.max(...stacked.values()) * slotWidth);
  const height = top + years.length * rowHeight;
  const heaviest = Math.max(1, ...path.links.map((l) => l.weight));
  const title = (paper) => {
    const text = paper.title ?? paper.id;
    return text.length > 44 ? `${text.slice(0, 43).trimEnd()}…` : text;
  };
  return h(
    'figure',
    { className: 'historiograph' },
    h(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `main path of ${path.papers.length} papers` },
      h(
        'defs',
        null,
        h(
          'marker',
          {
            id: 'hist-arrow',
            viewBox: '0 0 10 10',
            refX: 10,
            refY: 5,
            markerWidth: 8,
            markerHeight: 8,
            markerUnits: 'userSpaceOnUse',
            orient: 'auto',
          },
          h('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: '#666' }),
        ),
      ),
      years.map((year) =>
        h('text', { key: year, x: 12, y: top + row.get(year) * rowHeight + 4, className: 'year' }, year || '?'),
      ),
      path.links.map((link) => {
        const a = place.get(link.cited.id);
        const b = place.get(link.citing.id);
        if (!a || !b) return null;
        const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const [ux, uy] = [(b.x - a.x) / length, (b.y - a.y) / length];
        return h(
          'line',
          {
            key: `${link.cited.id}-${link.citing.id}`,
            className: 'path-link',
            x1: a.x + ux * 8,
            y1: a.y + uy * 8,
            x2: b.x - ux * 8,
            y2: b.y - uy * 8,
            strokeWidth: 1 + 2.5 * (link.weight / heaviest),
            markerEnd: 'url(#hist-arrow)',
          },
          h('title', null, `search path count ${link.weight}`),
        );
      }),
      path.papers.map((paper) => {
        const at = place.get(paper.id);
        return h(
          Link,
          { key: paper.id, to: { view: 'paper', id: paper.id } },
          h('circle', { cx: at.x, cy: at.y, r: 7, className: 'path-paper' }, h('title', null, paper.title ?? paper.id)),
          h('text', { x: at.x + 12, y: at.y + 4, className: 'path-label' }, title(paper)),
        );
      }),
    ),
    h(
      'figcaption',
      { className: 'muted' },
      `Main path (search path count, Hummon and Doreian): ${path.papers.length} papers of ${path.nodes} in the ` +
        `citation network, oldest at the top, arrows from a cited paper to the one citing it.`,
    ),
  );
}
