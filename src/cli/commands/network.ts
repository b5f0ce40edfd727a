import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { WHOLE_NETWORK_KINDS } from '../../analytics/citation-networks';
import type { NetworkFileFormat } from '../../analytics/network-export';
import { badInput } from '../../errors';
import { ensureDatabase } from '../database';
import { checkCollections, withApp } from '../shared';

const NETWORKS = WHOLE_NETWORK_KINDS.map((kind) => kind.toLowerCase());
const FORMATS = ['graphml', 'gexf', 'vosviewer_map', 'vosviewer_network', 'csv', 'svg'] as const;

/**
 * Writes a whole network of a collection (or the graph) as a file Gephi or VOSviewer opens, or its laid-out map as
 * SVG (see networkExport).
 */
export async function networkCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      network: { type: 'string', default: 'coupling' },
      format: { type: 'string', default: 'graphml' },
      collection: { type: 'string', multiple: true },
      'max-nodes': { type: 'string', default: '500' },
      'min-weight': { type: 'string', default: '1' },
      colouring: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const network = values.network.toLowerCase();
  const format = values.format.toLowerCase().replace(/-/g, '_');
  if (!(NETWORKS as readonly string[]).includes(network)) throw badInput(`--network is one of ${NETWORKS.join(', ')}`);
  if (!(FORMATS as readonly string[]).includes(format)) throw badInput(`--format is one of ${FORMATS.join(', ')}`);
  const colouring = values.colouring?.toUpperCase();
  if (colouring !== undefined && colouring !== 'CLUSTER' && colouring !== 'YEAR') {
    throw badInput('--colouring is cluster or year');
  }
  const maxNodes = Number(values['max-nodes']);
  const minWeight = Number(values['min-weight']);
  if (!Number.isInteger(maxNodes) || maxNodes < 2) throw badInput('--max-nodes must be a whole number of at least 2');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const file = await app.science.networks.file(
      values.collection?.length ? { collections: values.collection } : null,
      network.toUpperCase() as (typeof WHOLE_NETWORK_KINDS)[number],
      format.toUpperCase() as NetworkFileFormat,
      { maxNodes, minWeight, colouring },
    );
    if (values.out) {
      writeFileSync(values.out, file.content);
      process.stderr.write(`${file.nodes} nodes, ${file.edges} edges → ${values.out}\n`);
    } else process.stdout.write(file.content);
  });
}
