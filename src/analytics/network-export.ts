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

export const MEDIA_TYPES: Readonly<Record<NetworkFormat, string>> = {
  GRAPHML: 'application/graphml+xml',
  GEXF: 'application/gexf+xml',
  VOSVIEWER_MAP: 'text/tab-separated-values',
  VOSVIEWER_NETWORK: 'text/tab-separated-values',
  CSV: 'text/csv',
};

export const EXTENSIONS: Readonly<Record<NetworkFormat, string>> = {
  GRAPHML: 'graphml',
  GEXF: 'gexf',
  VOSVIEWER_MAP: 'map.txt',
  VOSVIEWER_NETWORK: 'network.txt',
  CSV: 'csv',
};

/** Control characters XML 1.0 does not allow, even escaped. */
// eslint-disable-next-line no-control-regex -- these are exactly what must be removed
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

const xml = (text: string): string =>
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
    '  <key id="weight" for="edge" attr.name="weight" attr.type="double"/>',
    `  <graph id="${xml(network.name)}" edgedefault="${network.directed ? 'directed' : 'undirected'}">`,
  ];
  for (const node of network.nodes) {
    lines.push(
      `    <node id="${xml(node.id)}"><data key="label">${xml(node.label)}</data><data key="size">${node.weight}</data><data key="cluster">${node.cluster}</data></node>`,
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
    '    <attributes class="node"><attribute id="0" title="weight" type="double"/><attribute id="1" title="cluster" type="integer"/></attributes>',
    '    <nodes>',
  ];
  for (const node of network.nodes) {
    lines.push(
      `      <node id="${xml(node.id)}" label="${xml(node.label)}"><attvalues><attvalue for="0" value="${node.weight}"/><attvalue for="1" value="${node.cluster}"/></attvalues></node>`,
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

/**
 * VOSviewer's map file: tab-separated, a header, one line per item with a numeric id (the network file refers to it),
 * its label, cluster and weight; VOSviewer lays the map out itself (no x, y).
 */
function vosviewerMap(network: ExportNetwork): string {
  const lines = ['id\tlabel\tdescription\tcluster\tweight<Documents>'];
  network.nodes.forEach((node, index) => {
    lines.push(`${index + 1}\t${tsv(node.label)}\t${tsv(node.id)}\t${node.cluster}\t${node.weight}`);
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

function edgeList(network: ExportNetwork): string {
  const label = new Map(network.nodes.map((node) => [node.id, node.label]));
  const lines = ['source,target,weight,source_label,target_label'];
  for (const edge of network.edges) {
    lines.push(
      [edge.source, edge.target, String(edge.weight), label.get(edge.source) ?? '', label.get(edge.target) ?? '']
        .map(csv)
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
