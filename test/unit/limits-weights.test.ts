import { createLanes } from '../../src/api/lanes';
import { CHEAP_RESOLVERS, FIELD_WEIGHTS, isConnectionPlumbing } from '../../src/api/limits';
import { makeResolvers } from '../../src/api/resolvers';
import { safeFileName } from '../../src/sets/set-info';

/** Every `Type.field` the resolver maps implement (building them touches no service). */
function resolverFields(): string[] {
  const lanes = createLanes({
    askConcurrency: 1,
    searchConcurrency: 1,
    analyticsConcurrency: 1,
    queueLength: 1,
  } as never);
  const maps = makeResolvers({} as never, lanes) as unknown as Array<Record<string, unknown>>;
  const fields: string[] = [];
  for (const map of maps) {
    for (const [type, resolvers] of Object.entries(map)) {
      if (typeof resolvers !== 'object' || resolvers === null || type.startsWith('__')) continue;
      for (const field of Object.keys(resolvers)) fields.push(`${type}.${field}`);
    }
  }
  return fields;
}

describe('query cost weights', () => {
  it('weigh every resolver that is not a property read, a loader lookup or connection plumbing', () => {
    const fields = resolverFields();
    expect(fields.length).toBeGreaterThan(50);
    const unweighed = fields.filter(
      (field) => !(field in FIELD_WEIGHTS) && !CHEAP_RESOLVERS.has(field) && !isConnectionPlumbing(field),
    );
    // A new resolver must be given a weight in src/api/limits.ts (or be listed there as cheap, saying why).
    expect(unweighed).toEqual([]);
  });

  it('name only resolvers that exist, and weigh the per-paper measures that once cost nothing', () => {
    const fields = new Set(resolverFields());
    for (const field of [...Object.keys(FIELD_WEIGHTS), ...CHEAP_RESOLVERS]) {
      expect(fields.has(field) ? field : `missing ${field}`).toBe(field);
    }
    for (const field of ['Paper.disruption', 'Paper.related', 'Paper.sleepingBeauty', 'Paper.normalisedImpact']) {
      expect(FIELD_WEIGHTS[field]).toBeGreaterThanOrEqual(20);
    }
  });
});

describe('uploaded file names', () => {
  it('keep the last path component, drop control and markup characters, and keep the extension when cut', () => {
    expect(safeFileName('../../etc/passwd.md')).toBe('passwd.md');
    expect(safeFileName('..\\..\\win\\notes.txt')).toBe('notes.txt');
    expect(safeFileName('a\u0000b\r\nc.md')).toBe('abc.md');
    expect(safeFileName('<b onload="x">y<b>.html')).toBe('_b onload=_x__y_b_.html');
    expect(safeFileName('<script>x</script>.html')).toBe('script_.html');
    expect(safeFileName('...hidden.md')).toBe('hidden.md');
    const long = safeFileName(`${'n'.repeat(1000)}.pdf`);
    expect(long.length).toBe(200);
    expect(long.endsWith('.pdf')).toBe(true);
    expect(safeFileName('../')).toBe('');
  });
});

describe('the cost of an over-limit query, field by field', () => {
  const { buildSchema, parse } = require('graphql') as typeof import('graphql');
  const { loadTypeDefs } = require('../../src/api/schema-loader') as typeof import('../../src/api/schema-loader');
  const { fieldCosts, queryCost } = require('../../src/api/limits') as typeof import('../../src/api/limits');
  const schema = buildSchema(loadTypeDefs());

  it('names each field by its path, costliest first, with the page size that multiplies it', () => {
    const document = parse(`query Q($n: Int) {
      big: papers(first: 200) { edges { node { ...Cites } } }
      small: papers(first: 2) { edges { node { id } } }
    }
    fragment Cites on Paper { id citedBy(first: $n) { edges { node { id title } } } }`);
    const costs = fieldCosts(schema, document, { n: 50 }, 'Q');
    expect(costs[0]).toMatchObject({ path: 'big', items: 200 });
    expect(costs[0]!.cost).toBeCloseTo(
      queryCost(schema, document, { n: 50 }, 'Q') - costs.find((c) => c.path === 'small')!.cost,
    );
    const nested = costs.find((c) => c.path === 'big.edges.node.citedBy')!;
    expect(nested).toMatchObject({ items: 50 });
    expect(costs[0]!.each).toBeGreaterThan(nested.cost);
    // A fragment's fields take the path they are spread at; the cheap list comes after the costly one.
    expect(costs.findIndex((c) => c.path === 'small')).toBeGreaterThan(costs.indexOf(nested));
  });

  it('weighs a list sorted by disruption for the CD indexes it computes', () => {
    const cost = (sort: string) =>
      queryCost(schema, parse(`{ papers(first: 5, sort: { by: ${sort} }) { edges { node { id } } } }`), {});
    expect(cost('DISRUPTION') - cost('YEAR')).toBe(2000);
  });
});
