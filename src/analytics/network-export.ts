/**
 * Networks as the files bibliometric tools open: GraphML (Gephi, Cytoscape, igraph), GEXF 1.3 (Gephi), VOSviewer map
 * and network files, and a CSV edge list. Pure: the network comes from ScienceService.
 */

export interface ExportNode {
  id: string;
  label: string;
  /** Papers (or citations) behind the node, shown as its weight. */
  weight: number;
  /** Louvain cluster, 1-based; 0 when not clustered. */
  cluster: number;
  /** A paper node's publication year, DOI and global citation count (null when unknown, and for authors and topics). */
  year?: number | null;
  doi?: string | null;
  citations?: number | null;
}

export interface ExportEdge {
  source: string;
  target: string;
  weight: number;
}

export interface ExportNetwork {
  name: string;
  directed: boolean;
  nodes: ExportNode[];
  edges: ExportEdge[];
}

export type NetworkFormat = 'GRAPHML' | 'GEXF' | 'VOSVIEWER_MAP' | 'VOSVIEWER_NETWORK' | 'CSV';

/** Every file a network is written as: the data formats, and the laid-out map as an SVG picture (map-svg.ts). */
export type NetworkFileFormat = NetworkFormat | 'SVG';

export const MEDIA_TYPES: Readonly<Record<NetworkFileFormat, string>> = {
  SVG: 'image/svg+xml',
  GRAPHML: 'application/graphml+xml',
  GEXF: 'application/gexf+xml',
  VOSVIEWER_MAP: 'text/tab-separated-values',
  VOSVIEWER_NETWORK: 'text/tab-separated-values',
  CSV: 'text/csv',
};

export const EXTENSIONS: Readonly<Record<NetworkFileFormat, string>> = {
  SVG: 'svg',
  GRAPHML: 'graphml',
  GEXF: 'gexf',
  VOSVIEWER_MAP: 'map.txt',
  VOSVIEWER_NETWORK: 'network.txt',
  CSV: 'csv',
};

/** Control characters XML 1.0 does not allow, even escaped. */
// eslint-disable-next-line no-control-regex -- these are exactly what must be removed
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

/** Text as XML character data or an attribute value (also the SVG map's, map-svg.ts). */
export const xml = (text: string): string =>
  text.replace(NOT_XML, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A field of a tab-separated file: no tabs or line breaks inside. */
const tsv = (text: string): string => text.replace(/[\t\r\n]+/g, ' ');

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
const csv = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

function graphml(network: ExportNetwork): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
    '  <key id="label" for="node" attr.name="label" attr.type="string"/>',
    '  <key id="size" for="node" attr.name="weight" attr.type="double"/>',
    '  <key id="cluster" for="node" attr.name="cluster" attr.type="int"/>',
    '  <key id="year" for="node" attr.name="year" attr.type="int"/>',
    '  <key id="doi" for="node" attr.name="doi" attr.type="string"/>',
    '  <key id="citations" for="node" attr.name="citations" attr.type="int"/>',
    '  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>',
    `  <graph id="${xml(network.name)}" edgedefault="${network.directed ? 'directed' : 'undirected'}">`,
  ];
  for (const node of network.nodes) {
    // GraphML leaves a node's unknown value out (the key's default is "missing").
    const known = [
      node.year == null ? '' : `<data key="year">${node.year}</data>`,
      node.doi ? `<data key="doi">${xml(node.doi)}</data>` : '',
      node.citations == null ? '' : `<data key="citations">${node.citations}</data>`,
    ].join('');
    lines.push(
      `    <node id="${xml(node.id)}"><data key="label">${xml(node.label)}</data><data key="size">${node.weight}</data><data key="cluster">${node.cluster}</data>${known}</node>`,
    );
  }
  network.edges.forEach((edge, index) => {
    lines.push(
      `    <edge id="e${index}" source="${xml(edge.source)}" target="${xml(edge.target)}"><data key="weight">${edge.weight}</data></edge>`,
    );
  });
  lines.push('  </graph>', '</graphml>', '');
  return lines.join('\n');
}

function gexf(network: ExportNetwork): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gexf xmlns="http://gexf.net/1.3" version="1.3">',
    `  <meta><creator>citegraph</creator><description>${xml(network.name)}</description></meta>`,
    `  <graph mode="static" defaultedgetype="${network.directed ? 'directed' : 'undirected'}">`,
    '    <attributes class="node"><attribute id="0" title="weight" type="double"/><attribute id="1" title="cluster" type="integer"/><attribute id="2" title="year" type="integer"/><attribute id="3" title="doi" type="string"/><attribute id="4" title="citations" type="integer"/></attributes>',
    '    <nodes>',
  ];
  for (const node of network.nodes) {
    const known = [
      node.year == null ? '' : `<attvalue for="2" value="${node.year}"/>`,
      node.doi ? `<attvalue for="3" value="${xml(node.doi)}"/>` : '',
      node.citations == null ? '' : `<attvalue for="4" value="${node.citations}"/>`,
    ].join('');
    lines.push(
      `      <node id="${xml(node.id)}" label="${xml(node.label)}"><attvalues><attvalue for="0" value="${node.weight}"/><attvalue for="1" value="${node.cluster}"/>${known}</attvalues></node>`,
    );
  }
  lines.push('    </nodes>', '    <edges>');
  network.edges.forEach((edge, index) => {
    lines.push(
      `      <edge id="${index}" source="${xml(edge.source)}" target="${xml(edge.target)}" weight="${edge.weight}"/>`,
    );
  });
  lines.push('    </edges>', '  </graph>', '</gexf>', '');
  return lines.join('\n');
}

/** True when the network's nodes are papers that carry year, DOI or citations (author and topic nodes do not). */
const hasPaperFields = (network: ExportNetwork) =>
  network.nodes.some((node) => node.year != null || node.doi || node.citations != null);

/**
 * VOSviewer's map file: tab-separated, a header, one line per item with a numeric id (the network file refers to it),
 * its label, cluster and weight; VOSviewer lays the map out itself (no x, y). Paper items add their DOI link (url),
 * citations (a second weight) and publication year (a score, VOSviewer's overlay colour).
 */
function vosviewerMap(network: ExportNetwork): string {
  const papers = hasPaperFields(network);
  const lines = [
    papers
      ? 'id\tlabel\tdescription\turl\tcluster\tweight<Documents>\tweight<Citations>\tscore<Pub. year>'
      : 'id\tlabel\tdescription\tcluster\tweight<Documents>',
  ];
  network.nodes.forEach((node, index) => {
    const head = `${index + 1}\t${tsv(node.label)}\t${tsv(node.id)}`;
    lines.push(
      papers
        ? `${head}\t${node.doi ? tsv(`https://doi.org/${node.doi}`) : ''}\t${node.cluster}\t${node.weight}\t${node.citations ?? 0}\t${node.year ?? ''}`
        : `${head}\t${node.cluster}\t${node.weight}`,
    );
  });
  return `${lines.join('\n')}\n`;
}

/** VOSviewer's network file: one link per line, the two items' map ids and the link strength, no header. */
function vosviewerNetwork(network: ExportNetwork): string {
  const index = new Map(network.nodes.map((node, i) => [node.id, i + 1]));
  return network.edges
    .filter((edge) => index.has(edge.source) && index.has(edge.target))
    .map((edge) => `${index.get(edge.source)}\t${index.get(edge.target)}\t${edge.weight}\n`)
    .join('');
}

/** A CSV edge list: each edge with its two nodes' labels, and for papers their years, DOIs and citations. */
function edgeList(network: ExportNetwork): string {
  const byId = new Map(network.nodes.map((node) => [node.id, node]));
  const papers = hasPaperFields(network);
  const ends = (id: string) => {
    const node = byId.get(id);
    return papers ? [node?.label ?? '', node?.year ?? '', node?.doi ?? '', node?.citations ?? ''] : [node?.label ?? ''];
  };
  const lines = [
    papers
      ? 'source,target,weight,source_label,source_year,source_doi,source_citations,target_label,target_year,target_doi,target_citations'
      : 'source,target,weight,source_label,target_label',
  ];
  for (const edge of network.edges) {
    lines.push(
      [edge.source, edge.target, edge.weight, ...ends(edge.source), ...ends(edge.target)]
        .map((field) => csv(String(field)))
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The network in one of the formats. */
export function exportNetwork(network: ExportNetwork, format: NetworkFormat): string {
  switch (format) {
    case 'GRAPHML':
      return graphml(network);
    case 'GEXF':
      return gexf(network);
    case 'VOSVIEWER_MAP':
      return vosviewerMap(network);
    case 'VOSVIEWER_NETWORK':
      return vosviewerNetwork(network);
    case 'CSV':
      return edgeList(network);
  }
}
