// The map view: co-authorship, co-citation, coupling, topic co-occurrence and citation networks laid out on the server
// (ForceAtlas2 + overlap removal) and drawn by sigma, with named clusters, a year overlay, search and neighbours,
// the clusters' timeline, the main path as a historiograph, and downloads (SVG, PNG, GraphML, GEXF, VOSviewer, CSV).
import React, { useState } from 'react';
import { useQuery, apiKey } from './data.js';
import { MapCanvas } from './map-canvas.js';
import { ClusterTimeline, Historiograph } from './map-figures.js';
import { Link, submitTo } from './routing.js';
import { DownloadLinks, Field, NETWORK_FORMATS, Status } from './shared.js';
import { yearColour, yearSpan } from '../../src/analytics/map-drawing.ts';

const h = React.createElement;

const NETWORK = `query Map($kind: MapKind!, $filter: WorkFilter, $limit: Int, $sizeBy: NodeSize) {
  network(kind: $kind, filter: $filter, limit: $limit, sizeBy: $sizeBy) {
    kind directed isolatedDropped mergedRecords
    frame { width height margin }
    clusters { cluster size name terms meanYear colour }
    nodes { id label type weight degree cluster x y size meanYear year citedByCount stub records }
    edges { source target weight backbone }
  }
}`;

const MAIN_PATH = `query Path($filter: WorkFilter) {
  mainPath(filter: $filter, maxPapers: 2000) {
    papers { id title year }
    links { cited { id } citing { id } weight }
    nodes
  }
}`;

/** The maps the view draws: the `kind` argument and what the reader reads. */
const KINDS = [
  ['COAUTHORSHIP', 'Co-authorship', 'authors linked by joint papers'],
  ['COCITATION', 'Co-citation', 'cited works linked by the papers citing both'],
  ['COUPLING', 'Bibliographic coupling', 'papers linked by the references they share'],
  ['TOPIC_COOCCURRENCE', 'Topic co-occurrence', 'topics linked by papers carrying both'],
  ['CITATION', 'Citation', 'citations among the papers'],
];

const SIZES = [
  ['WEIGHT', 'papers or citations inside'],
  ['CITATIONS', 'global citations (papers)'],
  ['DEGREE', 'links'],
];

function Select({ label, name, value, options, onChange }) {
  return h(
    'label',
    { className: 'field' },
    h('span', null, label),
    h(
      'select',
      { name, value, onChange: (e) => onChange(e.target.value) },
      options.map(([key, text]) => h('option', { key, value: key }, text)),
    ),
  );
}

/**
 * The map as a PNG: the server's SVG of the same map drawn on a canvas at twice its size, saved as a file. The SVG is
 * loaded from a data: address, which the page's content security policy allows for images.
 */
async function downloadPng(svgAddress, fileName) {
  const headers = apiKey() ? { authorization: `Bearer ${apiKey()}` } : {};
  const svg = await (await fetch(svgAddress, { headers })).text();
  const image = new Image();
  await new Promise((resolve, reject) => {
    image.onload = resolve;
    image.onerror = () => reject(new Error('the SVG did not load'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d');
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  const link = document.createElement('a');
  link.download = fileName;
  link.href = canvas.toDataURL('image/png');
  link.click();
}

function Legend({ network, colouring, onSelectCluster }) {
  if (colouring === 'year' || network.clusters.length === 0) {
    const span = yearSpan(network.nodes);
    if (!span) return null;
    const steps = Array.from({ length: 12 }, (_, i) => span.from + ((span.to - span.from) * i) / 11);
    return h(
      'p',
      { className: 'year-scale' },
      h('span', null, Math.round(span.from)),
      steps.map((year, i) =>
        h('span', { key: i, className: 'swatch', style: { background: yearColour(year, span.from, span.to) } }),
      ),
      h('span', null, `${Math.round(span.to)} (mean year)`),
    );
  }
  return h(
    'ol',
    { className: 'clusters' },
    network.clusters
      .slice(0, 12)
      .map((cluster) =>
        h(
          'li',
          { key: cluster.cluster, 'data-cluster': cluster.cluster },
          h('span', { className: 'swatch', style: { background: cluster.colour } }),
          h('button', { type: 'button', className: 'link', onClick: () => onSelectCluster(cluster) }, cluster.name),
          h(
            'span',
            { className: 'muted' },
            ` · ${cluster.size} nodes${cluster.meanYear ? ` · mean year ${Math.round(cluster.meanYear)}` : ''}`,
          ),
        ),
      ),
  );
}

function Details({ network, id }) {
  const node = network.nodes.find((n) => n.id === id);
  if (!node) return null;
  const cluster = network.clusters.find((c) => c.cluster === node.cluster);
  const neighbours = network.edges.filter((e) => e.source === id || e.target === id).length;
  const view = node.type === 'AUTHOR' ? 'author' : node.type === 'PAPER' && !node.stub ? 'paper' : null;
  return h(
    'div',
    { className: 'details', role: 'status' },
    view ? h(Link, { to: { view, id: node.id } }, node.label) : h('strong', null, node.label),
    h(
      'span',
      { className: 'muted' },
      [
        node.type === 'AUTHOR' ? `${node.weight} papers` : node.type === 'TOPIC' ? `${node.weight} papers` : null,
        node.year ? String(node.year) : node.meanYear ? `mean year ${Math.round(node.meanYear)}` : null,
        node.citedByCount != null ? `${node.citedByCount} citations` : null,
        `${neighbours} links`,
        cluster ? `cluster ${cluster.cluster}: ${cluster.name}` : null,
        node.records?.length > 1 ? `${node.records.length} author records as one person` : null,
      ]
        .filter(Boolean)
        .map((part) => ` · ${part}`)
        .join(''),
    ),
  );
}

export function NetworkView({ params }) {
  const kind = KINDS.some(([k]) => k === params.kind) ? params.kind : 'COAUTHORSHIP';
  const colouring =
    params.colour === 'year' || (kind === 'CITATION' && params.colour !== 'cluster') ? 'year' : 'cluster';
  // Papers of a coupling or citation map all weigh 1: they are sized by their citations, as VOSviewer sizes documents.
  const sizeBy = SIZES.some(([k]) => k === params.size)
    ? params.size
    : kind === 'COUPLING' || kind === 'CITATION'
      ? 'CITATIONS'
      : 'WEIGHT';
  const limit = Math.min(500, Math.max(10, Number(params.nodes) || 100));
  const [form, setForm] = useState({
    collection: params.collection ?? '',
    kind,
    colour: colouring,
    size: sizeBy,
    nodes: limit,
  });
  const [selected, setSelected] = useState(null);
  const [search, setSearch] = useState('');
  const filter = params.collection ? { collections: [params.collection] } : null;
  const state = useQuery(
    NETWORK,
    { kind, filter, limit, sizeBy },
    `${kind}|${params.collection ?? ''}|${limit}|${sizeBy}`,
  );
  const path = useQuery(MAIN_PATH, { filter }, `path|${params.collection ?? ''}`, kind === 'CITATION');
  const network = state.data?.network;
  const set = (key) => (value) => setForm({ ...form, [key]: value });
  const exportQuery = [
    `network=${kind.toLowerCase()}`,
    `maxNodes=${limit}`,
    params.collection ? `collection=${encodeURIComponent(params.collection)}` : '',
  ]
    .filter(Boolean)
    .join('&');
  const svgAddress = `/export/network?format=svg&${exportQuery}&colouring=${colouring}`;
  const find = (event) => {
    event.preventDefault();
    const wanted = search.trim().toLowerCase();
    const hit =
      network?.nodes.find((n) => n.label.toLowerCase() === wanted) ??
      network?.nodes.find((n) => n.label.toLowerCase().includes(wanted));
    setSelected(hit ? hit.id : null);
  };
  const described = KINDS.find(([k]) => k === kind);
  return h(
    'section',
    { 'aria-labelledby': 'network-title' },
    h('h1', { id: 'network-title' }, 'Maps'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({
          view: 'network',
          collection: form.collection,
          kind: form.kind,
          colour: form.colour,
          size: form.size,
          nodes: form.nodes,
        }),
      },
      h(Select, {
        label: 'Network',
        name: 'kind',
        value: form.kind,
        options: KINDS.map(([k, name]) => [k, name]),
        onChange: set('kind'),
      }),
      h(Field, { label: 'Collection', name: 'collection', value: form.collection, onChange: set('collection') }),
      h(Field, {
        label: 'Nodes',
        name: 'nodes',
        type: 'number',
        min: 10,
        max: 500,
        value: form.nodes,
        onChange: set('nodes'),
      }),
      h(Select, {
        label: 'Colour',
        name: 'colour',
        value: form.colour,
        options: [
          ['cluster', 'clusters'],
          ['year', 'mean year'],
        ],
        onChange: set('colour'),
      }),
      h(Select, { label: 'Size', name: 'size', value: form.size, options: SIZES, onChange: set('size') }),
      h('button', { type: 'submit' }, 'Draw'),
    ),
    h(Status, { state }),
    network && network.nodes.length === 0
      ? h(
          'p',
          { className: 'empty-map muted', role: 'status' },
          `No ${described[1].toLowerCase()} links among these papers` +
            (network.isolatedDropped ? ` (${network.isolatedDropped} nodes, none linked).` : '.'),
        )
      : null,
    network && network.nodes.length > 0
      ? h(
          'figure',
          { className: 'network' },
          h(
            'form',
            { className: 'map-search', onSubmit: find, role: 'search' },
            h('input', {
              name: 'find',
              list: 'map-nodes',
              placeholder: 'Find a node',
              'aria-label': 'Find a node on the map',
              value: search,
              onChange: (e) => setSearch(e.target.value),
            }),
            h(
              'datalist',
              { id: 'map-nodes' },
              network.nodes.slice(0, 500).map((n) => h('option', { key: n.id, value: n.label })),
            ),
            h('button', { type: 'submit' }, 'Find'),
            selected ? h('button', { type: 'button', onClick: () => setSelected(null) }, 'Clear') : null,
          ),
          h(MapCanvas, { network, colouring, selected, onSelect: setSelected }),
          selected ? h(Details, { network, id: selected }) : null,
          h(Legend, {
            network,
            colouring,
            onSelectCluster: (cluster) => {
              const heaviest = network.nodes
                .filter((n) => n.cluster === cluster.cluster)
                .sort((a, b) => b.weight - a.weight)[0];
              setSelected(heaviest?.id ?? null);
            },
          }),
          h(
            'figcaption',
            { className: 'muted' },
            `${network.nodes.length} nodes, ${described[2]}; ${network.edges.filter((e) => e.backbone).length} of ` +
              `${network.edges.length} links drawn (each node's strongest by association strength)` +
              (network.isolatedDropped ? `; ${network.isolatedDropped} without a link left out` : '') +
              (network.mergedRecords ? `; ${network.mergedRecords} author records merged as the same person` : '') +
              '. Scroll to zoom, drag to pan, click a node for its neighbours.',
          ),
          h(
            'p',
            { className: 'exports' },
            'Picture: ',
            h('a', { href: svgAddress, download: true, className: 'export' }, 'SVG'),
            ' · ',
            h(
              'button',
              {
                type: 'button',
                className: 'link export-png',
                onClick: () => downloadPng(svgAddress, `citegraph-${kind.toLowerCase()}.png`),
              },
              'PNG',
            ),
          ),
          h(DownloadLinks, {
            label: 'Data',
            path: '/export/network',
            query: exportQuery,
            formats: NETWORK_FORMATS,
          }),
        )
      : null,
    network && kind !== 'CITATION' ? h(ClusterTimeline, { network }) : null,
    kind === 'CITATION' ? h(Status, { state: path }) : null,
    kind === 'CITATION' && path.data ? h(Historiograph, { path: path.data.mainPath }) : null,
  );
}
