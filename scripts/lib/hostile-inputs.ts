/**
 * Hostile inputs for every argument of the schema: injection attempts (Lucene, Cypher), huge and strange strings,
 * out-of-range numbers, huge lists, forged cursors, deep, aliased and batched documents, malformed bodies. Used by
 * scripts/bench/hostile (all of them) and by a test (a fixed sample).
 */
import {
  buildSchema,
  getNamedType,
  getNullableType,
  type GraphQLArgument,
  type GraphQLField,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLList,
  type GraphQLObjectType,
  GraphQLScalarType,
  GraphQLEnumType,
  isNonNullType,
  isScalarType,
  isEnumType,
} from 'graphql';
import { loadTypeDefs } from '../../src/api/schema-loader';

/** One hostile request: a GraphQL body (JSON) or a raw body, and what it is testing. */
export interface HostileCase {
  readonly name: string;
  readonly body?: unknown;
  readonly raw?: string;
  readonly contentType?: string;
  /** HTTP method (POST by default); GET sends `search` as the query string. */
  readonly method?: string;
  readonly search?: string;
  /** Path under the server (the GraphQL path by default). */
  readonly path?: string;
  readonly headers?: Record<string, string>;
  /** The outcome it must have (an error code, or `HTTP n`), where any refusal would not do. */
  readonly expect?: string;
}

/** Ids of things that exist in the database the cases run against, for arguments that need one. */
export interface Samples {
  readonly paperId: string;
  readonly authorId: string;
  readonly topicId: string;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** Strange and hostile strings; the 10 MB one exercises the body limit. */
export function hostileStrings(): Array<[string, string]> {
  return [
    ['empty', ''],
    ['spaces', '   \t\n  '],
    ['lucene syntax', 'title:(aspirin OR heart)^5 AND abstract:"x"~3 +a -b * ? \\ / [0 TO 9] {a TO b}'],
    ['lucene wildcard only', '*'],
    ['cypher injection', "') MATCH (n) DETACH DELETE n //"],
    ['cypher injection 2', '"}) RETURN 1 UNION MATCH (n) SET n.hacked = true RETURN 1 //'],
    ['sql injection', "'; DROP TABLE papers; --"],
    ['nul bytes', 'aspirin\u0000heart\u0000'],
    ['lone surrogate', 'aspirin \ud800 heart \udfff'],
    ['rtl override', '\u202easpirin\u202c heart \u200f'],
    ['emoji', '🧬💊🫀 aspirin 👩‍🔬'],
    ['combining marks', 'a\u0301\u0301\u0301\u0301spirin'],
    ['path traversal', '../../../../etc/passwd'],
    ['url', 'https://openalex.org/W2125158795'],
    ['doi url', 'https://doi.org/10.1001/JAMA.288.7.872'],
    ['html', '<script>alert(1)</script><img src=x onerror=alert(1)>'],
    ['json', '{"$ne": null, "__proto__": {"polluted": true}}'],
    ['format string', '%s%s%s%n%x'],
    ['long word', 'a'.repeat(5000)],
    ['10k words', Array.from({ length: 10_000 }, (_, i) => `w${i}`).join(' ')],
    ['900 KB', 'q'.repeat(900_000)],
    ['10 MB', 'z'.repeat(10_000_000)],
  ];
}

/** Numbers out of range and of the wrong kind (GraphQL rejects some, the service the rest). */
function hostileInts(): Array<[string, unknown]> {
  return [
    ['negative', -1],
    ['zero', 0],
    ['huge first', 100_000],
    ['int32 max', 2_147_483_647],
    ['int32 min', -2_147_483_648],
    ['over int32', 2_147_483_648],
    ['float', 1.5],
    ['1e20', 1e20],
    ['string', '12'],
    ['null', null],
  ];
}

function hostileFloats(): Array<[string, unknown]> {
  return [
    ['negative', -5],
    ['huge', 1e308],
    ['tiny', -1e308],
    ['string', 'NaN'],
    ['over one', 2],
  ];
}

function hostileCursors(): Array<[string, unknown]> {
  return [
    ['garbage', 'not-a-cursor'],
    ['negative offset', b64('offset:-1')],
    ['huge offset', b64('offset:99999999999')],
    ['old keyset cursor', b64('paper:W1')],
    ['cypher in cursor', b64("offset:1') MATCH (n) DELETE n //")],
    ['long cursor', 'A'.repeat(10_000)],
    ['emoji cursor', '🧬🧬🧬'],
  ];
}

function valuesFor(type: GraphQLInputType, depth = 0): Array<[string, unknown]> {
  const nullable = getNullableType(type);
  if (nullable instanceof GraphQLList) {
    const inner = valuesFor(nullable.ofType, depth + 1).slice(0, 12);
    return [
      ['100k-element list', Array.from({ length: 100_000 }, (_, i) => `x${i}`)],
      ['list of nulls', [null, null]],
      ['empty list', []],
      ...inner.map(([name, value]): [string, unknown] => [`list of ${name}`, [value]]),
    ];
  }
  if (nullable instanceof GraphQLEnumType)
    return [
      ['unknown enum', 'NOT_A_VALUE'],
      ['enum as number', 3],
    ];
  if (nullable instanceof GraphQLInputObjectType) {
    if (depth > 1) return [['empty object', {}]];
    const out: Array<[string, unknown]> = [
      ['not an object', 'x'],
      ['unknown field', { nope: 1 }],
    ];
    for (const [fieldName, field] of Object.entries(nullable.getFields())) {
      for (const [name, value] of valuesFor(field.type, depth + 1))
        out.push([`${fieldName}=${name}`, { [fieldName]: value }]);
    }
    return out;
  }
  if (nullable instanceof GraphQLScalarType) {
    switch (nullable.name) {
      case 'Int':
        return hostileInts();
      case 'Float':
        return hostileFloats();
      case 'Boolean':
        return [
          ['string', 'true'],
          ['number', 1],
        ];
      default:
        return hostileStrings();
    }
  }
  return [];
}

/** A sane value for a required argument the case is not about. */
function saneValue(arg: GraphQLArgument, field: string, samples: Samples): unknown {
  const named = getNamedType(arg.type).name;
  if (arg.name === 'id')
    return field.startsWith('topic')
      ? samples.topicId
      : field.startsWith('author')
        ? samples.authorId
        : samples.paperId;
  if (arg.name === 'from') return 2000;
  if (arg.name === 'to') return 2010;
  if (named === 'String' || named === 'ID') return 'aspirin heart';
  if (named === 'Int') return 3;
  if (isEnumType(getNamedType(arg.type)))
    return (getNamedType(arg.type) as GraphQLEnumType).getValues()[0]!.value as unknown;
  return null;
}

function selectionFor(field: GraphQLField<unknown, unknown>): string {
  return isScalarType(getNamedType(field.type)) || isEnumType(getNamedType(field.type)) ? '' : '{ __typename }';
}

function typeString(type: GraphQLInputType): string {
  return String(type);
}

/** One case per hostile value of every argument, at the root and one level down (paper, author, topic fields). */
export function argumentCases(samples: Samples): HostileCase[] {
  const schema = buildSchema(loadTypeDefs());
  const cases: HostileCase[] = [];
  const query = schema.getQueryType()!;
  const parents: Array<{ prefix: string; suffix: string; type: GraphQLObjectType; label: string }> = [
    { prefix: '', suffix: '', type: query, label: 'Query' },
    {
      prefix: `paper(id: "${samples.paperId}") {`,
      suffix: '}',
      type: schema.getType('Paper') as GraphQLObjectType,
      label: 'Paper',
    },
    {
      prefix: `author(id: "${samples.authorId}") {`,
      suffix: '}',
      type: schema.getType('Author') as GraphQLObjectType,
      label: 'Author',
    },
    {
      prefix: `topic(id: "${samples.topicId}") {`,
      suffix: '}',
      type: schema.getType('Topic') as GraphQLObjectType,
      label: 'Topic',
    },
  ];
  for (const parent of parents) {
    for (const field of Object.values(parent.type.getFields())) {
      for (const arg of field.args) {
        const values = arg.name === 'after' ? hostileCursors() : valuesFor(arg.type);
        for (const [valueName, value] of values) {
          const others = field.args
            .filter((other) => other !== arg && isNonNullType(other.type))
            .map((other) => `${other.name}: ${JSON.stringify(saneValue(other, field.name, samples))}`);
          const args = [`${arg.name}: $v`, ...others].join(', ');
          const text = `query ($v: ${typeString(arg.type)}) { ${parent.prefix} ${field.name}(${args}) ${selectionFor(field)} ${parent.suffix} }`;
          cases.push({
            name: `${parent.label}.${field.name}(${arg.name}) ${valueName}`,
            body: { query: text, variables: { v: value } },
          });
        }
      }
    }
  }
  return cases;
}

/** Documents that are hostile by their shape: depth, aliases, batches, fragments, bodies that are not GraphQL. */
export function documentCases(samples: Samples): HostileCase[] {
  const nest = (levels: number) => {
    let inner = 'id';
    for (let i = 0; i < levels; i += 1)
      inner = `works(first: 200) { edges { node { authors { author { ${inner} } } } } }`;
    return `{ author(id: "${samples.authorId}") { ${inner} } }`;
  };
  const cycleFragments =
    'query { paper(id: "W1") { ...A } } fragment A on Paper { references { edges { node { ...B } } } } fragment B on Paper { ...A }';
  const cases: HostileCase[] = [
    { name: 'four levels of author → works → authors', body: { query: nest(4) } },
    { name: 'ten levels of author → works → authors', body: { query: nest(10) } },
    {
      name: 'topic → papers → topics three levels',
      body: {
        query: `{ topic(id: "${samples.topicId}") { papers(first: 200) { edges { node { topics(first: 200) { topic { papers(first: 200) { edges { node { topics(first: 200) { topic { id } } } } } } } } } } } }`,
      },
    },
    {
      name: '500 aliased searches',
      body: {
        query: `{ ${Array.from({ length: 500 }, (_, i) => `s${i}: search(query: "aspirin") { results { paper { id } } }`).join(' ')} }`,
      },
    },
    {
      name: '100 aliased asks',
      body: {
        query: `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: ask(question: "aspirin") { answer }`).join(' ')} }`,
      },
    },
    {
      name: '20 maximal searches',
      body: {
        query: `{ ${Array.from({ length: 20 }, (_, i) => `s${i}: search(query: "aspirin heart", first: 200, options: { candidates: 1000, pagerank: true, mmr: true }) { results { paper { id } } }`).join(' ')} }`,
      },
    },
    { name: 'fragment cycle', body: { query: cycleFragments } },
    {
      name: '1000 directives',
      body: { query: `{ health ${Array.from({ length: 1000 }, () => '@include(if: true)').join(' ')} { ok } }` },
    },
    { name: 'mutation', body: { query: 'mutation { __typename }' } },
    { name: 'subscription', body: { query: 'subscription { __typename }' } },
    { name: 'unknown field', body: { query: '{ nope }' } },
    { name: 'syntax error', body: { query: '{ health { ok ' } },
    { name: 'no query', body: { variables: {} } },
    { name: 'query not a string', body: { query: 42 } },
    { name: 'variables not an object', body: { query: '{ health { ok } }', variables: 'x' } },
    { name: 'batched operations', body: [{ query: '{ health { ok } }' }, { query: '{ stats { papers } }' }] },
    { name: '1000 batched operations', body: Array.from({ length: 1000 }, () => ({ query: '{ health { ok } }' })) },
    { name: 'malformed JSON', raw: '{"query": "{ health { ok } }"' },
    { name: 'JSON null', raw: 'null' },
    { name: 'not JSON', raw: 'query { health { ok } }', contentType: 'text/plain' },
    { name: 'form body', raw: 'query=%7Bhealth%7Bok%7D%7D', contentType: 'application/x-www-form-urlencoded' },
    { name: 'oversized body', raw: JSON.stringify({ query: `{ health { ok } } # ${'p'.repeat(5_000_000)}` }) },
    { name: 'deep JSON', raw: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
    {
      name: 'introspection',
      body: { query: '{ __schema { types { name fields { name type { name ofType { name ofType { name } } } } } } }' },
    },
    {
      name: 'huge token count',
      body: { query: `{ health { ${Array.from({ length: 20_000 }, () => 'ok').join(' ')} } }` },
    },
    // Per-paper measures once carried no weight: 16 aliases ran 3,200 CD indexes to the deadline.
    {
      name: '16 aliases of 200 papers with their CD index',
      body: {
        query: `{ ${Array.from({ length: 16 }, (_, i) => `p${i}: papers(first: 200) { edges { node { disruption { cd } } } }`).join(' ')} }`,
      },
      expect: 'QUERY_TOO_COMPLEX',
    },
    {
      name: '16 aliases of 200 papers with related papers and sleeping-beauty curves',
      body: {
        query: `{ ${Array.from({ length: 16 }, (_, i) => `p${i}: papers(first: 200) { edges { node { related(first: 5) { paper { id } } sleepingBeauty { coefficient } } } }`).join(' ')} }`,
      },
      expect: 'QUERY_TOO_COMPLEX',
    },
    // 20 clusterings of 2,000 nodes held the analytics lane for a minute.
    {
      name: '20 aliases of 2,000-node coupling clusters',
      body: {
        query: `{ ${Array.from({ length: 20 }, (_, i) => `c${i}: clusters(network: COUPLING, maxNodes: 2000) { clusters { cluster size } }`).join(' ')} }`,
      },
      expect: 'QUERY_TOO_COMPLEX',
    },
  ];
  return cases;
}

/** The stream endpoint and uploads: every hostile case of the GraphQL endpoint has a twin here. */
export function streamAndUploadCases(): HostileCase[] {
  const subscription = (selection: string) => `subscription { askStream(question: "aspirin") { ${selection} } }`;
  return [
    {
      name: 'stream GET without a preflight header (CSRF)',
      path: '/graphql/stream',
      method: 'GET',
      search: `?query=${encodeURIComponent(subscription('kind'))}`,
      expect: 'BAD_REQUEST',
    },
    {
      name: 'stream body over the limit',
      path: '/graphql/stream',
      raw: JSON.stringify({ query: subscription(`kind # ${'p'.repeat(5_000_000)}`) }),
      expect: 'BAD_REQUEST',
    },
    {
      name: 'stream body not JSON',
      path: '/graphql/stream',
      raw: subscription('kind'),
      contentType: 'text/plain',
      expect: 'BAD_REQUEST',
    },
    {
      name: 'stream query over the token limit',
      path: '/graphql/stream',
      headers: { accept: 'text/event-stream' },
      body: { query: subscription(Array.from({ length: 20_000 }, () => 'kind').join(' ')) },
      expect: 'QUERY_TOO_COMPLEX',
    },
    {
      name: 'stream query with 25 aliases',
      path: '/graphql/stream',
      headers: { accept: 'text/event-stream' },
      body: { query: subscription(Array.from({ length: 25 }, (_, i) => `k${i}: kind`).join(' ')) },
      expect: 'QUERY_TOO_COMPLEX',
    },
    {
      name: 'stream unknown field',
      path: '/graphql/stream',
      headers: { accept: 'text/event-stream' },
      body: { query: 'subscription { nothing }' },
      expect: 'GRAPHQL_VALIDATION_FAILED',
    },
    {
      name: 'upload into a bad percent-encoded set path',
      path: '/document-sets/%E0%A4%A/documents',
      raw: '# A\n\ntext',
      contentType: 'text/markdown',
      headers: { 'x-document-name': 'a.md' },
      expect: 'BAD_REQUEST',
    },
    {
      name: 'upload as a multipart form',
      path: '/document-sets',
      raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.md"\r\n\r\n# A\r\n--x--\r\n',
      contentType: 'multipart/form-data; boundary=x',
      headers: { 'x-document-name': 'a.md' },
      expect: 'BAD_REQUEST',
    },
  ];
}

/** Requests hostile at the HTTP level: methods, paths, headers, query strings. */
export function httpCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const method of ['PUT', 'DELETE', 'PATCH', 'HEAD']) cases.push({ name: `method ${method}`, method, raw: '' });
  for (const path of [
    '/',
    '/graphql/../etc/passwd',
    '/%2e%2e/%2e%2e',
    '/graphql%00',
    '/admin',
    `/${'a'.repeat(5000)}`,
  ]) {
    cases.push({ name: `path ${path.slice(0, 30)}`, path, body: { query: '{ health { ok } }' } });
  }
  const headerSets: Array<[string, Record<string, string>]> = [
    ['bearer garbage', { authorization: 'Bearer !!! not a key ;drop' }],
    ['basic auth', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['long api key', { 'x-api-key': 'k'.repeat(8000) }],
    ['odd charset', { 'content-type': 'application/json; charset=utf-7' }],
    ['no content type', { 'content-type': '' }],
    ['evil origin', { origin: 'https://evil.example' }],
    ['forwarded for', { 'x-forwarded-for': '10.0.0.1, 127.0.0.1' }],
  ];
  for (const [name, headers] of headerSets)
    cases.push({ name: `header ${name}`, headers, body: { query: '{ health { ok } }' } });
  const encodable = ([, value]: [string, string]) => {
    try {
      encodeURIComponent(value);
      return value.length < 100_000;
    } catch {
      return false; // a lone surrogate cannot travel in a URL at all
    }
  };
  for (const [name, value] of hostileStrings().filter(encodable)) {
    cases.push({ name: `GET query ${name}`, method: 'GET', search: `?query=${encodeURIComponent(value)}` });
    cases.push({
      name: `GET variables ${name}`,
      method: 'GET',
      search: `?query=${encodeURIComponent('query ($q: String!) { search(query: $q) { results { rank } } }')}&variables=${encodeURIComponent(value)}`,
    });
  }
  cases.push({
    name: 'GET mutation',
    method: 'GET',
    search: `?query=${encodeURIComponent('mutation { __typename }')}`,
  });
  return cases;
}

/** Every case, in a stable order. */
export function allCases(samples: Samples): HostileCase[] {
  return [...documentCases(samples), ...streamAndUploadCases(), ...httpCases(), ...argumentCases(samples)];
}

/** An event stream's results as one body: the errors of every `next` event (the stream endpoint's answer). */
function sseBody(text: string): {
  data?: unknown;
  errors?: Array<{ message?: string; extensions?: Record<string, unknown> }>;
} {
  const results = [...text.matchAll(/^data: (\{.*\})$/gm)].map(
    (match) => JSON.parse(match[1]!) as { data?: unknown; errors?: Array<{ message?: string }> },
  );
  return {
    data: results.find((result) => result.data)?.data,
    errors: results.flatMap((result) => result.errors ?? []),
  };
}

/** How a response turned out, for counting: the error code (or `ok`), or the HTTP status when it is not JSON. */
export function outcomeOf(status: number, text: string, method = 'POST'): { outcome: string; problems: string[] } {
  const problems: string[] = [];
  // A HEAD response has no body by definition.
  if (method === 'HEAD') return { outcome: `HTTP ${status}`, problems: status >= 500 ? [`HTTP ${status}`] : [] };
  type Body = { data?: unknown; errors?: Array<{ message?: string; extensions?: Record<string, unknown> }> };
  let json: Body | null = null;
  try {
    json = /^(?::|event:)/.test(text) ? sseBody(text) : (JSON.parse(text) as Body);
  } catch {
    problems.push(`HTTP ${status}: the body is not JSON`);
  }
  if (status >= 500) problems.push(`HTTP ${status}`);
  if (
    /stacktrace|\/work\/|node_modules|\.ts:\d+|\.js:\d+|Neo\.(Client|Transient|Database)Error|org\.neo4j|bolt:\/\//i.test(
      text,
    )
  ) {
    problems.push('internal details in the response');
  }
  const errors = json?.errors ?? [];
  if (errors.length > 0 && text.length > 64 * 1024) problems.push(`error response of ${text.length} bytes`);
  const codes = errors.map((error) => (typeof error.extensions?.code === 'string' ? error.extensions.code : 'NO_CODE'));
  if (codes.includes('DATABASE_ERROR')) problems.push('DATABASE_ERROR from user input');
  if (codes.includes('INTERNAL')) problems.push('INTERNAL error from user input');
  if (codes.includes('NO_CODE')) problems.push('an error without a code');
  for (const error of errors)
    if ((error.message ?? '').length > 300) problems.push('an error message over 300 characters');
  const outcome = codes.length > 0 ? [...new Set(codes)].sort().join('+') : json ? 'ok' : `HTTP ${status}`;
  return { outcome, problems };
}
