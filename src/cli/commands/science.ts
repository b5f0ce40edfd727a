import { parseArgs } from 'node:util';
import { badInput } from '../../errors';
import { ensureDatabase } from '../database';
import { checkCollections, withApp } from '../shared';

const MEASURES = [
  'disruption',
  'impact',
  'beauty',
  'prior',
  'derivative',
  'path',
  'lotka',
  'bradford',
  'topic-bursts',
  'reference-bursts',
  'beauties',
  'main-path',
  'clusters',
] as const;

/** The science-of-science measures on the command line, as JSON (the same computations as over GraphQL). */
export async function scienceCommand(args: string[]): Promise<void> {
  const [measure, ...rest] = args;
  if (!measure || !(MEASURES as readonly string[]).includes(measure)) {
    throw badInput(`usage: citegraph science ${MEASURES.join('|')} [ID...] [--collection C]... [--from Y --to Y]`);
  }
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      collection: { type: 'string', multiple: true },
      from: { type: 'string' },
      to: { type: 'string' },
      window: { type: 'string' },
      undirected: { type: 'boolean', default: false },
      network: { type: 'string', default: 'coupling' },
      first: { type: 'string', default: '20' },
      'key-routes': { type: 'string' },
    },
  });
  const filter = values.collection?.length ? { collections: values.collection } : null;
  const first = Number(values.first);
  const year = (name: 'from' | 'to', fallback: number) => (values[name] ? Number(values[name]) : fallback);
  const one = () => {
    if (!positionals[0]) throw badInput(`science ${measure} needs a paper id`);
    return positionals[0];
  };
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const s = app.science;
    const bursts = { s: 2, gamma: 1 };
    const result = await (async () => {
      switch (measure as (typeof MEASURES)[number]) {
        case 'disruption':
          return s.impact.disruption(one(), values.window ? Number(values.window) : null);
        case 'impact':
          return (await s.impact.normalisedImpact([one()])).get(one()) ?? null;
        case 'beauty':
          return s.impact.sleepingBeauty(one(), 'INTERNAL_CITATIONS');
        case 'prior':
          return s.priorWorks(positionals, first);
        case 'derivative':
          return s.derivativeWorks(positionals, first);
        case 'path':
          if (positionals.length !== 2) throw badInput('science path needs two paper ids');
          return s.citationPath(positionals[0]!, positionals[1]!, !values.undirected, 6);
        case 'lotka':
          return s.lotka(filter);
        case 'bradford':
          return s.bradford(filter);
        case 'topic-bursts':
          return s.bursts.topicBursts(filter, year('from', 1990), year('to', new Date().getFullYear()), {
            topics: first,
            minLevel: 1,
            ...bursts,
          });
        case 'reference-bursts':
          return s.bursts.referenceBursts(filter, year('from', 1990), year('to', new Date().getFullYear()), {
            references: first,
            ...bursts,
          });
        case 'beauties':
          return s.impact.sleepingBeauties(filter, 'INTERNAL_CITATIONS', first, 5);
        case 'main-path':
          return values['key-routes'] === undefined
            ? s.networks.mainPath(filter, 2000)
            : s.networks.mainPath(filter, 2000, 'KEY_ROUTE', Number(values['key-routes']));
        case 'clusters':
          return s.networks.clusters(
            filter,
            values.network.toUpperCase() === 'COCITATION' ? 'COCITATION' : 'COUPLING',
            {
              maxNodes: 500,
              minWeight: 1,
              resolution: 1,
            },
          );
      }
    })();
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  });
}
