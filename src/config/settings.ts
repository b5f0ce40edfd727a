import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  boolean,
  choice,
  type Env,
  expectation,
  integer,
  isSetting,
  number,
  optionalString,
  readSetting,
  type Setting,
  SettingsError,
  type SettingTree,
  shownDefault,
  string,
  type ValuesOf,
} from './setting-schema';

export { SettingsError } from './setting-schema';

/**
 * The one settings object. The environment is parsed here, once, against one declarative schema; nothing else in the
 * code base reads process.env. Every setting has a variable, a type with bounds, a default and a one-line description;
 * `citegraph help` and the README's environment table are printed from the same schema.
 */

/** Where the project lives: settings paths default relative to it. */
export const PROJECT_ROOT = path.resolve(
  __dirname,
  '..',
  '..',
  __dirname.includes(`${path.sep}dist${path.sep}`) ? '..' : '',
);

function provider(
  prefix: 'OPENALEX' | 'CROSSREF' | 'S2',
  baseUrl: string,
  rps: number,
  concurrency: number,
  keyVariable: string,
  keyDescription: string,
  mailto: boolean,
) {
  return {
    baseUrl: string(
      `${prefix}_BASE_URL`,
      baseUrl,
      `${prefix === 'S2' ? 'Semantic Scholar' : prefix === 'OPENALEX' ? 'OpenAlex' : 'Crossref'} API base URL`,
    ),
    apiKey: optionalString(keyVariable, keyDescription, { secret: true }),
    mailto: mailto
      ? optionalString(
          [`${prefix}_MAILTO`, 'CITEGRAPH_MAILTO'],
          `contact address for the ${prefix === 'OPENALEX' ? 'OpenAlex' : 'Crossref'} polite pool (sent as mailto)`,
        )
      : optionalString([], 'Semantic Scholar has no polite pool'),
    requestsPerSecond: number(`${prefix}_RPS`, rps, 0.1, 100, 'requests per second to this host'),
    maxConcurrent: integer(`${prefix}_CONCURRENCY`, concurrency, 1, 32, 'requests in flight to this host at once'),
  } as const;
}

/** Every setting, by section. */
export const SETTINGS_SCHEMA = {
  home: string('CITEGRAPH_HOME', '', 'folder that relative paths are resolved against', {
    shownDefault: 'the project folder',
  }),
  cacheDir: string('CITEGRAPH_CACHE_DIR', '.cache', 'downloaded artefacts: Neo4j jars, model wheels, the model', {
    path: true,
  }),
  neo4j: {
    uri: optionalString('NEO4J_URI', 'Bolt URI of an external Neo4j 5.x; unset = the embedded server'),
    user: string('NEO4J_USER', 'neo4j', 'user for NEO4J_URI'),
    password: string('NEO4J_PASSWORD', 'neo4j', 'password for NEO4J_URI', { secret: true }),
    database: string('NEO4J_DATABASE', 'neo4j', 'database name'),
    embeddedPort: integer(
      'CITEGRAPH_NEO4J_PORT',
      7687,
      1024,
      65535,
      'Bolt port of the embedded server (127.0.0.1 only)',
    ),
    embeddedDataDir: string('CITEGRAPH_NEO4J_DATA', '.data/neo4j', 'store folder of the embedded server', {
      path: true,
    }),
    embeddedPageCache: string('CITEGRAPH_NEO4J_PAGECACHE', '512m', 'page cache of the embedded server'),
    embeddedHeap: string('CITEGRAPH_NEO4J_HEAP', '2g', 'JVM heap of the embedded server'),
    javaBin: string(
      'CITEGRAPH_JAVA',
      (env) => (env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : 'java'),
      'Java executable for the embedded server',
      { shownDefault: '$JAVA_HOME/bin/java, else java' },
    ),
    startTimeoutSeconds: integer(
      'CITEGRAPH_NEO4J_START_TIMEOUT',
      120,
      5,
      900,
      'seconds to wait for the database to accept Bolt',
    ),
    maxPoolSize: integer('CITEGRAPH_NEO4J_POOL', 50, 2, 1000, 'Bolt connections at most'),
    connectionsPerRequest: integer(
      'CITEGRAPH_NEO4J_CONNECTIONS_PER_REQUEST',
      4,
      1,
      100,
      'Bolt connections one request may use at once',
    ),
    acquireTimeoutMs: integer(
      'CITEGRAPH_NEO4J_ACQUIRE_TIMEOUT_MS',
      2000,
      100,
      600_000,
      'wait for a connection (or an unreachable database) before DATABASE_UNAVAILABLE',
    ),
    retryTimeMs: integer(
      'CITEGRAPH_NEO4J_RETRY_MS',
      1000,
      0,
      600_000,
      'time a transaction is retried on transient errors',
    ),
    readTimeoutMs: integer(
      'CITEGRAPH_NEO4J_READ_TIMEOUT_MS',
      30_000,
      100,
      3_600_000,
      'longest read transaction outside a request (commands, benchmarks)',
    ),
  },
  model: {
    dir: string(
      'CITEGRAPH_MODEL_DIR',
      (env) => path.join(env.CITEGRAPH_CACHE_DIR || '.cache', 'model'),
      'folder holding model.onnx and vocab.txt (filled by scripts/setup.js)',
      { shownDefault: '.cache/model', path: true },
    ),
    batchSize: integer(
      'CITEGRAPH_EMBED_BATCH',
      4,
      1,
      512,
      'texts per ONNX run (length-sorted; small batches pad least)',
    ),
    maxSequenceLength: integer(
      'CITEGRAPH_MODEL_MAX_SEQ',
      256,
      16,
      512,
      'word pieces the model attends to (all-MiniLM-L6-v2: 256)',
    ),
    threads: integer('CITEGRAPH_EMBED_THREADS', 0, 0, 64, 'ONNX intra-op threads (0 = onnxruntime default)'),
    optimization: choice(
      'CITEGRAPH_EMBED_OPTIMIZATION',
      'basic',
      ['disabled', 'basic', 'extended', 'all'],
      'ONNX Runtime graph optimisation level',
    ),
    cache: boolean(
      'CITEGRAPH_EMBED_CACHE',
      true,
      'keep every computed vector on disk, keyed by model hash and exact text',
    ),
    cacheDir: string(
      'CITEGRAPH_EMBED_CACHE_DIR',
      (env) => path.join(env.CITEGRAPH_CACHE_DIR || '.cache', 'embeddings'),
      'folder of the embedding cache',
      { shownDefault: '.cache/embeddings', path: true },
    ),
  },
  chunking: {
    maxTokens: integer('CITEGRAPH_CHUNK_MAX_TOKENS', 200, 16, 510, 'word pieces per chunk, title excluded'),
    overlapTokens: integer(
      'CITEGRAPH_CHUNK_OVERLAP_TOKENS',
      30,
      0,
      255,
      'word pieces repeated at the start of the next chunk',
    ),
  },
  ingest: {
    batchSize: integer('CITEGRAPH_INGEST_BATCH', 200, 1, 5000, 'records per write transaction'),
    maxTextChars: integer(
      'CITEGRAPH_MAX_TEXT_CHARS',
      200_000,
      1_000,
      50_000_000,
      'longest abstract or document text kept; longer text is cut, with a warning',
    ),
  },
  documents: {
    maxBytes: integer(
      'CITEGRAPH_DOCUMENT_MAX_BYTES',
      50_000_000,
      1_000,
      1_000_000_000,
      'largest document file (PDF, Markdown, HTML, text) ingested or uploaded',
    ),
    maxPages: integer('CITEGRAPH_DOCUMENT_MAX_PAGES', 500, 1, 100_000, 'most pages of one document'),
    timeoutMs: integer(
      'CITEGRAPH_DOCUMENT_TIMEOUT_MS',
      120_000,
      1_000,
      3_600_000,
      'longest reading of one document (extraction and layout, wall and CPU time) before it is given up',
    ),
    maxMemoryMb: integer(
      'CITEGRAPH_DOCUMENT_MAX_MEMORY_MB',
      512,
      64,
      16_384,
      'most memory (resident, buffers included) the process reading one document may hold; a decompression bomb stops there',
    ),
    resolveOnline: boolean(
      'CITEGRAPH_DOCUMENT_RESOLVE_ONLINE',
      false,
      'resolve document references the graph lacks through Crossref and OpenAlex (sends the reference texts there)',
    ),
  },
  documentSets: {
    ttlSeconds: integer(
      'CITEGRAPH_DOCUMENT_SET_TTL_SECONDS',
      3600,
      10,
      604_800,
      'how long a private document set lives after it is created (a client may ask for less)',
    ),
    maxDocuments: integer('CITEGRAPH_DOCUMENT_SET_MAX_DOCUMENTS', 25, 1, 10_000, 'most documents in one set'),
    maxSets: integer('CITEGRAPH_DOCUMENT_SET_MAX_SETS', 10, 1, 10_000, 'most live sets one key (or anonymous) holds'),
    maxUploadBytes: integer(
      'CITEGRAPH_DOCUMENT_SET_MAX_BYTES',
      20_000_000,
      1_000,
      1_000_000_000,
      'largest document uploaded into a set',
    ),
    maxPages: integer('CITEGRAPH_DOCUMENT_SET_MAX_PAGES', 200, 1, 100_000, 'most pages of one uploaded document'),
    sweepSeconds: integer(
      'CITEGRAPH_DOCUMENT_SET_SWEEP_SECONDS',
      60,
      1,
      86_400,
      'how often the server deletes expired sets',
    ),
  },
  retrieval: {
    sparse: boolean('CITEGRAPH_SEARCH_SPARSE', true, 'BM25 over titles and abstracts'),
    dense: boolean('CITEGRAPH_SEARCH_DENSE', true, 'vector search over chunk embeddings'),
    denseWeight: number('CITEGRAPH_RRF_DENSE_WEIGHT', 0.5, 0, 10, 'weight of the dense list in reciprocal rank fusion'),
    sparseWeight: number(
      'CITEGRAPH_RRF_SPARSE_WEIGHT',
      0.5,
      0,
      10,
      'weight of the BM25 list in reciprocal rank fusion',
    ),
    rrfK: integer(
      'CITEGRAPH_RRF_K',
      10,
      1,
      1000,
      'the K of reciprocal rank fusion (10: chosen on the dev halves, scripts/bench-fusion)',
    ),
    aggregation: choice('CITEGRAPH_CHUNK_AGGREGATION', 'max', ['max', 'sum'], 'how chunk scores roll up to a paper'),
    candidates: integer(
      'CITEGRAPH_RETRIEVAL_CANDIDATES',
      100,
      1,
      1000,
      'papers fetched from each retriever before fusion',
    ),
    expansion: boolean(
      'CITEGRAPH_SEARCH_EXPANSION',
      false,
      'query expansion (LLM or pseudo-relevance feedback, DF-validated)',
    ),
    expansionTerms: integer('CITEGRAPH_SEARCH_EXPANSION_TERMS', 8, 0, 32, 'expansion terms added at most'),
    expansionTau: number(
      'CITEGRAPH_SEARCH_EXPANSION_TAU',
      0.1,
      0,
      1,
      'largest document frequency (share of papers) of an expansion term',
    ),
    expansionWeight: number('CITEGRAPH_SEARCH_EXPANSION_WEIGHT', 0.3, 0, 5, 'weight of the expansion clause in BM25'),
    feedbackDocs: integer('CITEGRAPH_SEARCH_FEEDBACK_DOCS', 5, 1, 50, 'top papers read for pseudo-relevance feedback'),
    citation: boolean(
      'CITEGRAPH_SEARCH_CITATION',
      true,
      'boost candidates co-cited with, coupled to or citing the top seeds',
    ),
    citationSeeds: integer(
      'CITEGRAPH_SEARCH_CITATION_SEEDS',
      5,
      1,
      50,
      'top candidates the citation signal is measured against',
    ),
    citationWeight: number('CITEGRAPH_SEARCH_CITATION_WEIGHT', 0.3, 0, 10, 'weight of the citation signal'),
    pagerank: boolean('CITEGRAPH_SEARCH_PAGERANK', false, 'personalised PageRank over the candidates similarity graph'),
    pagerankThreshold: number(
      'CITEGRAPH_SEARCH_PAGERANK_THRESHOLD',
      0.6,
      -1,
      1,
      'cosine above which two candidates are linked',
    ),
    pagerankDamping: number('CITEGRAPH_SEARCH_PAGERANK_DAMPING', 0.5, 0, 0.99, 'PageRank damping'),
    pagerankWeight: number('CITEGRAPH_SEARCH_PAGERANK_WEIGHT', 0.3, 0, 10, 'weight of PageRank in the final score'),
    rerankDepth: integer('CITEGRAPH_SEARCH_RERANK_DEPTH', 30, 1, 200, 'top candidates the graph stages rerank'),
    mmr: boolean('CITEGRAPH_SEARCH_MMR', false, 'maximal marginal relevance diversification'),
    mmrLambda: number('CITEGRAPH_SEARCH_MMR_LAMBDA', 0.8, 0, 1, 'MMR trade-off: 1 = relevance only'),
    mmrK: integer('CITEGRAPH_SEARCH_MMR_K', 10, 1, 200, 'results MMR picks'),
    passages: integer('CITEGRAPH_SEARCH_PASSAGES', 2, 0, 10, 'best passages returned per paper'),
  },
  api: {
    port: integer('CITEGRAPH_PORT', 4000, 0, 65535, 'GraphQL port'),
    host: string(
      'CITEGRAPH_HOST',
      '127.0.0.1',
      'GraphQL address; anything but loopback needs API keys or CITEGRAPH_ALLOW_ANONYMOUS',
    ),
    debugErrors: boolean(
      ['CITEGRAPH_DEBUG_ERRORS'],
      false,
      'show internal error text and stack traces to clients (development only)',
    ),
    introspection: boolean('CITEGRAPH_INTROSPECTION', true, 'answer introspection queries (the explorer needs them)'),
    warmUp: boolean(
      'CITEGRAPH_WARM_UP',
      true,
      'load the embedding model, its cache and the route classifier before serving, so that no request pays for it',
    ),
    apiKeys: optionalString(
      'CITEGRAPH_API_KEYS',
      'API keys, comma-separated NAME:SCOPE:SECRET (SCOPE read or write; secrets of 16+ characters); unset = no keys',
      { secret: true },
    ),
    allowAnonymous: boolean(
      'CITEGRAPH_ALLOW_ANONYMOUS',
      false,
      'serve clients without a key on a non-loopback address (without keys configured, loopback is always anonymous)',
    ),
    corsOrigins: optionalString(
      'CITEGRAPH_CORS_ORIGINS',
      'origins allowed to call from a browser, comma-separated; unset = CORS off',
    ),
    rateLimitPerMinute: integer(
      'CITEGRAPH_RATE_LIMIT',
      600,
      1,
      1_000_000,
      'requests per minute per API key (or per address without keys)',
    ),
    maxBodyBytes: integer('CITEGRAPH_MAX_BODY_BYTES', 1_000_000, 1_000, 100_000_000, 'largest HTTP request body'),
    requestTimeoutMs: integer(
      'CITEGRAPH_REQUEST_TIMEOUT_MS',
      60_000,
      100,
      600_000,
      'deadline of one request; its database transactions end with it',
    ),
    maxDepth: integer('CITEGRAPH_MAX_DEPTH', 12, 2, 100, 'deepest selection a query may have'),
    maxAliases: integer('CITEGRAPH_MAX_ALIASES', 20, 1, 1000, 'most aliases in one query'),
    maxTokens: integer('CITEGRAPH_MAX_TOKENS', 3000, 100, 100_000, 'most tokens in one query document'),
    maxCost: integer(
      'CITEGRAPH_MAX_COST',
      20_000,
      100,
      10_000_000,
      'highest estimated cost of a query (lists count times their page size)',
    ),
    askConcurrency: integer('CITEGRAPH_ASK_CONCURRENCY', 2, 1, 64, 'asks running at once'),
    searchConcurrency: integer('CITEGRAPH_SEARCH_CONCURRENCY', 4, 1, 64, 'searches running at once'),
    analyticsConcurrency: integer('CITEGRAPH_ANALYTICS_CONCURRENCY', 2, 1, 64, 'whole-graph analytics running at once'),
    queueLength: integer(
      'CITEGRAPH_QUEUE_LENGTH',
      32,
      0,
      10_000,
      'heavy operations waiting per kind before OVERLOADED',
    ),
  },
  clients: {
    openalex: provider(
      'OPENALEX',
      'https://api.openalex.org',
      8,
      4,
      'OPENALEX_API_KEY',
      'OpenAlex API key (sent as api_key)',
      true,
    ),
    crossref: provider(
      'CROSSREF',
      'https://api.crossref.org',
      5,
      2,
      'CROSSREF_PLUS_TOKEN',
      'Crossref Plus token (Crossref-Plus-API-Token header)',
      true,
    ),
    semanticScholar: provider(
      'S2',
      'https://api.semanticscholar.org',
      1,
      1,
      'S2_API_KEY',
      'Semantic Scholar API key (x-api-key header)',
      false,
    ),
    timeoutMs: integer(
      'CITEGRAPH_HTTP_TIMEOUT_MS',
      15_000,
      100,
      300_000,
      'timeout of one HTTP request to a scholarly API',
    ),
    retries: integer('CITEGRAPH_HTTP_RETRIES', 4, 0, 10, 'retries on 429, 5xx and network errors'),
    backoffMs: integer('CITEGRAPH_HTTP_BACKOFF_MS', 500, 1, 60_000, 'first backoff; doubles per retry, with jitter'),
    maxBackoffMs: integer(
      'CITEGRAPH_HTTP_MAX_BACKOFF_MS',
      30_000,
      1,
      600_000,
      'longest single wait, Retry-After included',
    ),
    cacheTtlSeconds: integer('CITEGRAPH_HTTP_CACHE_TTL', 86_400, 0, 31_536_000, 'seconds a response is reused'),
    cacheEntries: integer('CITEGRAPH_HTTP_CACHE_ENTRIES', 5_000, 0, 1_000_000, 'responses kept in the cache'),
  },
  generation: {
    baseUrl: optionalString(
      'OPENAI_BASE_URL',
      'OpenAI-compatible endpoint; unset (and no key) = offline, extractive answers',
    ),
    apiKey: optionalString('OPENAI_API_KEY', 'key for the OpenAI-compatible endpoint', { secret: true }),
    model: string('CITEGRAPH_LLM_MODEL', 'gpt-4o-mini', 'chat model name'),
    timeoutMs: integer('CITEGRAPH_LLM_TIMEOUT_MS', 60_000, 100, 600_000, 'timeout of one LLM call'),
    promptPricePer1k: number(
      'CITEGRAPH_LLM_PROMPT_PRICE',
      0.00015,
      0,
      1,
      'US dollars per 1,000 prompt tokens, for the cost estimate',
    ),
    completionPricePer1k: number(
      'CITEGRAPH_LLM_COMPLETION_PRICE',
      0.0006,
      0,
      1,
      'US dollars per 1,000 completion tokens',
    ),
    contextTokens: integer(
      'CITEGRAPH_CONTEXT_TOKENS',
      1800,
      100,
      100_000,
      'context budget of an answer, in word pieces',
    ),
    extractiveSentences: integer('CITEGRAPH_EXTRACTIVE_SENTENCES', 4, 1, 20, 'most sentences of an extractive answer'),
  },
  evidence: {
    strongBand: integer('CITEGRAPH_BAND_STRONG', 80, 1, 100, 'sufficiency score at or above which evidence is STRONG'),
    moderateBand: integer('CITEGRAPH_BAND_MODERATE', 50, 0, 99, 'score at or above which it is MODERATE (below: WEAK)'),
    abstainBelow: integer('CITEGRAPH_ABSTAIN_BELOW', 50, 0, 100, 'abstain when the final score is below this'),
    minEvidenceScore: integer(
      'CITEGRAPH_MIN_EVIDENCE_SCORE',
      30,
      0,
      100,
      'local evidence scoring below this stays out of the context',
    ),
    retries: integer('CITEGRAPH_AGENTIC_RETRIES', 1, 0, 5, 'reformulations when evidence is WEAK'),
    driftGuard: number('CITEGRAPH_DRIFT_GUARD', 0.3, 0, 1, 'share of the question terms a reformulation must keep'),
    externalAttemptsContent: integer(
      'CITEGRAPH_EXTERNAL_ATTEMPTS_CONTENT',
      3,
      0,
      20,
      'external search attempts for content questions',
    ),
    externalAttemptsBibliometric: integer(
      'CITEGRAPH_EXTERNAL_ATTEMPTS_BIBLIOMETRIC',
      5,
      0,
      20,
      'external search attempts for bibliometric questions',
    ),
    externalAttemptsCurrent: integer(
      'CITEGRAPH_EXTERNAL_ATTEMPTS_CURRENT',
      3,
      0,
      20,
      'external search attempts for current-world questions',
    ),
    externalSearch: boolean(
      'CITEGRAPH_EXTERNAL_SEARCH',
      true,
      'search OpenAlex, Semantic Scholar and Crossref when local evidence is weak',
    ),
    vettingThreshold: number(
      'CITEGRAPH_VETTING_THRESHOLD',
      0.35,
      -1,
      1,
      'cosine an external paper needs to the question to be kept',
    ),
    supportThreshold: number(
      'CITEGRAPH_SUPPORT_THRESHOLD',
      0.6,
      0,
      1,
      'support (0–1) a cited sentence needs from its passage',
    ),
  },
} as const satisfies SettingTree;

export type Settings = ValuesOf<typeof SETTINGS_SCHEMA>;
export type Neo4jSettings = Settings['neo4j'];
export type ModelSettings = Settings['model'];
export type ChunkingSettings = Settings['chunking'];
export type IngestSettings = Settings['ingest'];
export type DocumentSettings = Settings['documents'];
export type DocumentSetSettings = Settings['documentSets'];
export type RetrievalSettings = Settings['retrieval'];
export type ApiSettings = Settings['api'];
export type ClientSettings = Settings['clients'];
export type ProviderSettings = ClientSettings['openalex'];
export type GenerationSettings = Settings['generation'];
export type EvidenceSettings = Settings['evidence'];

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Every setting with the path it has in the settings object, in schema order. */
export function settingEntries(
  tree: SettingTree = SETTINGS_SCHEMA,
  prefix: string[] = [],
): Array<{ path: string[]; setting: Setting }> {
  return Object.entries(tree).flatMap(([key, value]) =>
    isSetting(value) ? [{ path: [...prefix, key], setting: value }] : settingEntries(value, [...prefix, key]),
  );
}

/** Parses settings from an environment (process.env by default); throws SettingsError on a bad value. */
export function loadSettings(env: Env = process.env): Settings {
  const home = path.resolve(PROJECT_ROOT, env.CITEGRAPH_HOME || '.');
  const parse = (tree: SettingTree): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(tree).map(([key, value]) => {
        if (!isSetting(value)) return [key, parse(value)];
        if (value === SETTINGS_SCHEMA.home) return [key, home];
        const parsed = readSetting(value, env);
        return [key, value.kind === 'string' && value.path ? path.resolve(home, parsed as string) : parsed];
      }),
    );
  const settings = parse(SETTINGS_SCHEMA) as unknown as Settings;
  if (settings.chunking.overlapTokens >= settings.chunking.maxTokens) {
    throw new SettingsError(
      `CITEGRAPH_CHUNK_OVERLAP_TOKENS (${settings.chunking.overlapTokens}) must be below CITEGRAPH_CHUNK_MAX_TOKENS (${settings.chunking.maxTokens})`,
    );
  }
  if (settings.evidence.moderateBand >= settings.evidence.strongBand) {
    throw new SettingsError(
      `CITEGRAPH_BAND_MODERATE (${settings.evidence.moderateBand}) must be below CITEGRAPH_BAND_STRONG (${settings.evidence.strongBand})`,
    );
  }
  return deepFreeze(settings);
}

/** A short, stable hash of the settings, stamped on answers so that results can be traced to a configuration. */
export function settingsHash(settings: Settings): string {
  const { password: _password, ...neo4j } = settings.neo4j;
  const { apiKey: _key, ...generation } = settings.generation;
  return createHash('sha256')
    .update(JSON.stringify({ ...settings, neo4j, generation }))
    .digest('hex')
    .slice(0, 12);
}

/** One line per variable, for `citegraph help`. */
export function environmentHelp(): string {
  return settingEntries()
    .filter(({ setting }) => setting.env.length > 0)
    .map(
      ({ setting }) =>
        `  ${setting.env.join(' | ').padEnd(44)} ${setting.description} (${shownDefault(setting)}; ${expectation(setting)})`,
    )
    .join('\n');
}

/** The README's environment table, made from the schema (a unit test keeps the README in step). */
export function environmentTable(): string {
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const rows = settingEntries()
    .filter(({ setting }) => setting.env.length > 0)
    .map(
      ({ setting }) =>
        `| ${setting.env.map((v) => `\`${v}\``).join(', ')} | ${escape(expectation(setting))} | ${escape(shownDefault(setting))} | ${escape(setting.description)} |`,
    );
  return ['| variable | value | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}
