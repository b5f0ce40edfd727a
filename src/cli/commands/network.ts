import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exportNetwork, type NetworkFormat } from '../../analytics/network-export';
import { badInput } from '../../errors';
import { ensureDatabase } from '../database';
import { checkCollections, withApp } from '../shared';

const NETWORKS = ['coupling', 'cocitation', 'coauthorship', 'citation'] as const;
const FORMATS = ['graphml', 'gexf', 'vosviewer_map', 'vosviewer_network', 'csv'] as const;

/** Writes a whole network of a collection (or the graph) as a file Gephi or VOSviewer opens (see networkExport). */
export async function networkCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      network: { type: 'string', default: 'coupling' },
      format: { type: 'string', default: 'graphml' },
      collection: { type: 'string', multiple: true },
      'max-nodes': { type: 'string', default: '500' },
      'min-weight': { type: 'string', default: '1' },
      out: { type: 'string' },
    },
  });
  const network = values.network.toLowerCase();
  const format = values.format.toLowerCase().replace(/-/g, '_');
  if (!(NETWORKS as readonly string[]).includes(network)) throw badInput(`--network is one of ${NETWORKS.join(', ')}`);
  if (!(FORMATS as readonly string[]).includes(format)) throw badInput(`--format is one of ${FORMATS.join(', ')}`);
  const maxNodes = Number(values['max-nodes']);
  const minWeight = Number(values['min-weight']);
  if (!Number.isInteger(maxNodes) || maxNodes < 2) throw badInput('--max-nodes must be a whole number of at least 2');
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const built = await app.science.networks.network(
      values.collection?.length ? { collections: values.collection } : null,
      network.toUpperCase() as 'COUPLING' | 'COCITATION' | 'COAUTHORSHIP' | 'CITATION',
      { maxNodes, minWeight },
    );
    const content = exportNetwork(built, format.toUpperCase() as NetworkFormat);
    if (values.out) {
      writeFileSync(values.out, content);
      process.stderr.write(`${built.nodes.length} nodes, ${built.edges.length} edges → ${values.out}\n`);
    } else process.stdout.write(content);
  });
}
