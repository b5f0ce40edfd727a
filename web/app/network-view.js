// The collaboration network view: co-authorship drawn with a seeded force layout.
import React, { useMemo, useState } from 'react';
import { useQuery } from './data.js';
import { Link, submitTo } from './routing.js';
import { DownloadLinks, Field, NETWORK_FORMATS, Status } from './shared.js';

const h = React.createElement;

const NETWORK = `query Network($filter: WorkFilter, $limit: Int) {
  collaborationNetwork(filter: $filter, limit: $limit, minJointPapers: 1) {
    nodes { id name papers } edges { source target jointPapers }
  }
}`;

/** Positions by a few hundred steps of a seeded force layout (repulsion, springs along edges, pull to the centre). */
function layout(nodes, edges, width, height) {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pos = new Map(
    nodes.map((n) => [
      n.id,
      { x: width / 2 + (random() - 0.5) * width * 0.8, y: height / 2 + (random() - 0.5) * height * 0.8 },
    ]),
  );
  for (let step = 0; step < 300; step += 1) {
    const force = new Map(nodes.map((n) => [n.id, { x: 0, y: 0 }]));
    for (const a of nodes) {
      for (const b of nodes) {
        if (a.id >= b.id) continue;
        const pa = pos.get(a.id);
        const pb = pos.get(b.id);
        const dx = pa.x - pb.x || 0.01;
        const dy = pa.y - pb.y || 0.01;
        const d2 = Math.max(dx * dx + dy * dy, 25);
        const push = 1800 / d2;
        force.get(a.id).x += dx * push;
        force.get(a.id).y += dy * push;
        force.get(b.id).x -= dx * push;
        force.get(b.id).y -= dy * push;
      }
    }
    for (const e of edges) {
      const pa = pos.get(e.source);
      const pb = pos.get(e.target);
      if (!pa || !pb) continue;
      const dx = pb.x - pa.x;
      const dy = pb.y - pa.y;
      force.get(e.source).x += dx * 0.02;
      force.get(e.source).y += dy * 0.02;
      force.get(e.target).x -= dx * 0.02;
      force.get(e.target).y -= dy * 0.02;
    }
    for (const n of nodes) {
      const p = pos.get(n.id);
      const f = force.get(n.id);
      p.x = Math.min(width - 20, Math.max(20, p.x + Math.max(-10, Math.min(10, f.x + (width / 2 - p.x) * 0.01))));
      p.y = Math.min(height - 20, Math.max(20, p.y + Math.max(-10, Math.min(10, f.y + (height / 2 - p.y) * 0.01))));
    }
  }
  return pos;
}

export function NetworkView({ params }) {
  const [collection, setCollection] = useState(params.collection ?? '');
  const variables = { filter: params.collection ? { collections: [params.collection] } : null, limit: 40 };
  const state = useQuery(NETWORK, variables, params.collection ?? '');
  const network = state.data?.collaborationNetwork;
  const width = 900;
  const height = 560;
  const pos = useMemo(() => (network ? layout(network.nodes, network.edges, width, height) : null), [network]);
  return h(
    'section',
    { 'aria-labelledby': 'network-title' },
    h('h1', { id: 'network-title' }, 'Collaboration network'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({ view: 'network', collection }),
      },
      h(Field, { label: 'Collection', name: 'collection', value: collection, onChange: setCollection }),
      h('button', { type: 'submit' }, 'Show'),
    ),
    h(Status, { state }),
    network && pos
      ? h(
          'figure',
          { className: 'network' },
          h(
            'svg',
            {
              viewBox: `0 0 ${width} ${height}`,
              role: 'img',
              'aria-label': `${network.nodes.length} authors, ${network.edges.length} collaborations`,
            },
            network.edges.map((e) => {
              const a = pos.get(e.source);
              const b = pos.get(e.target);
              return a && b
                ? h('line', {
                    key: `${e.source}-${e.target}`,
                    x1: a.x,
                    y1: a.y,
                    x2: b.x,
                    y2: b.y,
                    strokeWidth: Math.min(6, e.jointPapers),
                  })
                : null;
            }),
            network.nodes.map((n) => {
              const p = pos.get(n.id);
              return h(
                Link,
                { key: n.id, to: { view: 'author', id: n.id } },
                h(
                  'circle',
                  { cx: p.x, cy: p.y, r: 4 + Math.sqrt(n.papers) * 2 },
                  h('title', null, `${n.name}: ${n.papers} papers`),
                ),
                h('text', { x: p.x + 8, y: p.y + 4 }, n.name),
              );
            }),
          ),
          h(
            'figcaption',
            { className: 'muted' },
            `${network.nodes.length} most productive authors; lines join co-authors (thicker: more joint papers).`,
          ),
          h(DownloadLinks, {
            label: 'Download the co-authorship network',
            path: '/export/network',
            query: `network=coauthorship&maxNodes=40${params.collection ? `&collection=${encodeURIComponent(params.collection)}` : ''}`,
            formats: NETWORK_FORMATS,
          }),
        )
      : null,
  );
}
