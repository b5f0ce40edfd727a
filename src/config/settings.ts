import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * The one settings object. The environment is parsed here, once; nothing else in the code base reads process.env.
 * Every field has a default, bounds where numeric, and a one-line description (see SETTINGS_DOC for the variables).
 */

/** Where the project lives: settings paths default relative to it. */
export const PROJECT_ROOT = path.resolve(
  __dirname,
  '..',
  '..',
  __dirname.includes(`${path.sep}dist${path.sep}`) ? '..' : '',
);

export interface Neo4jSettings {
  /** Bolt URI of an external Neo4j 5.x; undefined means the embedded server. */
  readonly uri: string | undefined;
  readonly user: string;
  readonly password: string;
  readonly database: string;
  /** Port of the embedded server's Bolt connector (127.0.0.1 only). */
  readonly embeddedPort: number;
  /** Folder of the embedded server's store. */
  readonly embeddedDataDir: string;
  /** Page cache of the embedded server, e.g. "512m". */
  readonly embeddedPageCache: string;
  /** JVM heap of the embedded server, e.g. "2g". */
  readonly embeddedHeap: string;
  /** Java executable used for the embedded server. */
  readonly javaBin: string;
  /** Seconds to wait for the database to accept Bolt connections. */
  readonly startTimeoutSeconds: number;
}

export interface ModelSettings {
  /** Folder holding model.onnx and vocab.txt (filled by scripts/setup.js). */
  readonly dir: string;
  /** Texts per ONNX run. */
  readonly batchSize: number;
  /** Word pieces the model attends to (all-MiniLM-L6-v2 was trained with 256). */
  readonly maxSequenceLength: number;
  /** ONNX intra-op threads (0 = onnxruntime's default). */
  readonly threads: number;
}

export interface ChunkingSettings {
  /** Word pieces per chunk, title excluded; chunk + title must fit the model window. */
  readonly maxTokens: number;
  /** Word pieces repeated from the end of one chunk at the start of the next. */
  readonly overlapTokens: number;
}

export interface IngestSettings {
  /** Records per write transaction. */
  readonly batchSize: number;
}

export interface RetrievalSettings {
  /** Weight of the dense retriever in reciprocal rank fusion. */
  readonly denseWeight: number;
  /** Weight of the sparse (BM25) retriever in reciprocal rank fusion. */
  readonly sparseWeight: number;
  /** The K of reciprocal rank fusion. */
  readonly rrfK: number;
  /** Candidates fetched from each retriever before fusion. */
  readonly candidates: number;
  /** How chunk scores roll up to a paper: max or sum. */
  readonly aggregation: 'max' | 'sum';
}

/** One scholarly API: where it is, who we are to it, and how politely we call it. */
export interface ProviderSettings {
  readonly baseUrl: string;
  /** API key (OpenAlex api_key, Semantic Scholar x-api-key) or Crossref Plus token. */
  readonly apiKey: string | undefined;
  /** Contact address for polite pools (OpenAlex and Crossref mailto). */
  readonly mailto: string | undefined;
  readonly requestsPerSecond: number;
  readonly maxConcurrent: number;
}

export interface ClientSettings {
  readonly openalex: ProviderSettings;
  readonly crossref: ProviderSettings;
  readonly semanticScholar: ProviderSettings;
  /** Per-request timeout. */
  readonly timeoutMs: number;
  /** Retries after the first attempt on 429, 5xx and network errors. */
  readonly retries: number;
  /** First backoff; doubles per retry, with jitter. */
  readonly backoffMs: number;
  /** Longest single wait, Retry-After included. */
  readonly maxBackoffMs: number;
  /** How long a response is reused. */
  readonly cacheTtlSeconds: number;
  /** Responses kept in the cache. */
  readonly cacheEntries: number;
}

export interface GenerationSettings {
  /** OpenAI-compatible endpoint; the LLM is used only when this or the key is set. */
  readonly baseUrl: string | undefined;
  readonly apiKey: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  /** US dollars per 1,000 prompt and completion tokens, for the cost estimate. */
  readonly promptPricePer1k: number;
  readonly completionPricePer1k: number;
  /** Context budget in word pieces. */
  readonly contextTokens: number;
  /** Most sentences an extractive answer has. */
  readonly extractiveSentences: number;
}

export interface EvidenceSettings {
  /** Sufficiency score at or above which evidence is STRONG. */
  readonly strongBand: number;
  /** Score at or above which it is MODERATE (below: WEAK). */
  readonly moderateBand: number;
  /** Abstain when the final score is below this. */
  readonly abstainBelow: number;
  /** Local evidence scoring below this is not put in the context. */
  readonly minEvidenceScore: number;
  /** Agentic retries when evidence is WEAK. */
  readonly retries: number;
  /** Minimum share of the original content terms a reformulated query keeps. */
  readonly driftGuard: number;
  /** External search attempts per route. */
  readonly externalAttemptsContent: number;
  readonly externalAttemptsBibliometric: number;
  readonly externalAttemptsCurrent: number;
  /** Search the scholarly APIs at all. */
  readonly externalSearch: boolean;
  /** Cosine similarity (raw) an external paper needs to the question to be kept. */
  readonly vettingThreshold: number;
  /** Support needed by a cited sentence (0..1). */
  readonly supportThreshold: number;
}

export interface ApiSettings {
  readonly port: number;
  readonly host: string;
  /** Hide internal error details from GraphQL clients. */
  readonly production: boolean;
}

export interface Settings {
  readonly neo4j: Neo4jSettings;
  readonly model: ModelSettings;
  readonly chunking: ChunkingSettings;
  readonly ingest: IngestSettings;
  readonly retrieval: RetrievalSettings;
  readonly api: ApiSettings;
  readonly clients: ClientSettings;
  readonly generation: GenerationSettings;
  readonly evidence: EvidenceSettings;
  /** Folder for downloaded artefacts (jars, wheels, model). */
  readonly cacheDir: string;
}

type Env = Record<string, string | undefined>;

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

function str(env: Env, key: string, fallback: string): string {
  const value = env[key];
  return value === undefined || value === '' ? fallback : value;
}

function num(env: Env, key: string, fallback: number, min: number, max: number, integer = true): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max) {
    throw new SettingsError(`${key}=${raw} must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`);
  }
  return value;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new SettingsError(`${key}=${raw} must be true or false`);
}

function oneOf<T extends string>(env: Env, key: string, fallback: T, allowed: readonly T[]): T {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new SettingsError(`${key}=${raw} must be one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** Parses settings from an environment (process.env by default); throws SettingsError on a bad value. */
export function loadSettings(env: Env = process.env): Settings {
  const root = str(env, 'CITEGRAPH_HOME', PROJECT_ROOT);
  const cacheDir = path.resolve(root, str(env, 'CITEGRAPH_CACHE_DIR', '.cache'));
  const maxSequenceLength = num(env, 'CITEGRAPH_MODEL_MAX_SEQ', 256, 16, 512);
  const chunkMax = num(env, 'CITEGRAPH_CHUNK_MAX_TOKENS', 200, 16, 510);
  const chunkOverlap = num(env, 'CITEGRAPH_CHUNK_OVERLAP_TOKENS', 30, 0, 255);
  if (chunkOverlap >= chunkMax) {
    throw new SettingsError(
      `CITEGRAPH_CHUNK_OVERLAP_TOKENS (${chunkOverlap}) must be below CITEGRAPH_CHUNK_MAX_TOKENS (${chunkMax})`,
    );
  }
  const settings: Settings = {
    neo4j: {
      uri: env.NEO4J_URI || undefined,
      user: str(env, 'NEO4J_USER', 'neo4j'),
      password: str(env, 'NEO4J_PASSWORD', 'neo4j'),
      database: str(env, 'NEO4J_DATABASE', 'neo4j'),
      embeddedPort: num(env, 'CITEGRAPH_NEO4J_PORT', 7687, 1024, 65535),
      embeddedDataDir: path.resolve(root, str(env, 'CITEGRAPH_NEO4J_DATA', '.data/neo4j')),
      embeddedPageCache: str(env, 'CITEGRAPH_NEO4J_PAGECACHE', '512m'),
      embeddedHeap: str(env, 'CITEGRAPH_NEO4J_HEAP', '2g'),
      javaBin: str(env, 'CITEGRAPH_JAVA', env.JAVA_HOME ? path.join(env.JAVA_HOME, 'bin', 'java') : 'java'),
      startTimeoutSeconds: num(env, 'CITEGRAPH_NEO4J_START_TIMEOUT', 120, 5, 900),
    },
    model: {
      dir: path.resolve(root, str(env, 'CITEGRAPH_MODEL_DIR', path.join(cacheDir, 'model'))),
      batchSize: num(env, 'CITEGRAPH_EMBED_BATCH', 16, 1, 512),
      maxSequenceLength,
      threads: num(env, 'CITEGRAPH_EMBED_THREADS', 0, 0, 64),
    },
    chunking: { maxTokens: chunkMax, overlapTokens: chunkOverlap },
    ingest: { batchSize: num(env, 'CITEGRAPH_INGEST_BATCH', 200, 1, 5000) },
    retrieval: {
      denseWeight: num(env, 'CITEGRAPH_RRF_DENSE_WEIGHT', 0.5, 0, 10, false),
      sparseWeight: num(env, 'CITEGRAPH_RRF_SPARSE_WEIGHT', 0.5, 0, 10, false),
      rrfK: num(env, 'CITEGRAPH_RRF_K', 60, 1, 1000),
      candidates: num(env, 'CITEGRAPH_RETRIEVAL_CANDIDATES', 100, 10, 1000),
      aggregation: oneOf(env, 'CITEGRAPH_CHUNK_AGGREGATION', 'max', ['max', 'sum'] as const),
    },
    api: {
      port: num(env, 'CITEGRAPH_PORT', 4000, 0, 65535),
      host: str(env, 'CITEGRAPH_HOST', '127.0.0.1'),
      production: bool(env, 'CITEGRAPH_PRODUCTION', env.NODE_ENV === 'production'),
    },
    clients: {
      openalex: {
        baseUrl: str(env, 'OPENALEX_BASE_URL', 'https://api.openalex.org'),
        apiKey: env.OPENALEX_API_KEY || undefined,
        mailto: env.OPENALEX_MAILTO || env.CITEGRAPH_MAILTO || undefined,
        requestsPerSecond: num(env, 'OPENALEX_RPS', 8, 0.1, 100, false),
        maxConcurrent: num(env, 'OPENALEX_CONCURRENCY', 4, 1, 32),
      },
      crossref: {
        baseUrl: str(env, 'CROSSREF_BASE_URL', 'https://api.crossref.org'),
        apiKey: env.CROSSREF_PLUS_TOKEN || undefined,
        mailto: env.CROSSREF_MAILTO || env.CITEGRAPH_MAILTO || undefined,
        requestsPerSecond: num(env, 'CROSSREF_RPS', 5, 0.1, 100, false),
        maxConcurrent: num(env, 'CROSSREF_CONCURRENCY', 2, 1, 32),
      },
      semanticScholar: {
        baseUrl: str(env, 'S2_BASE_URL', 'https://api.semanticscholar.org'),
        apiKey: env.S2_API_KEY || undefined,
        mailto: undefined,
        requestsPerSecond: num(env, 'S2_RPS', 1, 0.1, 100, false),
        maxConcurrent: num(env, 'S2_CONCURRENCY', 1, 1, 32),
      },
      timeoutMs: num(env, 'CITEGRAPH_HTTP_TIMEOUT_MS', 15_000, 100, 300_000),
      retries: num(env, 'CITEGRAPH_HTTP_RETRIES', 4, 0, 10),
      backoffMs: num(env, 'CITEGRAPH_HTTP_BACKOFF_MS', 500, 1, 60_000),
      maxBackoffMs: num(env, 'CITEGRAPH_HTTP_MAX_BACKOFF_MS', 30_000, 1, 600_000),
      cacheTtlSeconds: num(env, 'CITEGRAPH_HTTP_CACHE_TTL', 86_400, 0, 31_536_000),
      cacheEntries: num(env, 'CITEGRAPH_HTTP_CACHE_ENTRIES', 5_000, 0, 1_000_000),
    },
    generation: {
      baseUrl: env.OPENAI_BASE_URL || undefined,
      apiKey: env.OPENAI_API_KEY || undefined,
      model: str(env, 'CITEGRAPH_LLM_MODEL', 'gpt-4o-mini'),
      timeoutMs: num(env, 'CITEGRAPH_LLM_TIMEOUT_MS', 60_000, 100, 600_000),
      promptPricePer1k: num(env, 'CITEGRAPH_LLM_PROMPT_PRICE', 0.00015, 0, 1, false),
      completionPricePer1k: num(env, 'CITEGRAPH_LLM_COMPLETION_PRICE', 0.0006, 0, 1, false),
      contextTokens: num(env, 'CITEGRAPH_CONTEXT_TOKENS', 1800, 100, 100_000),
      extractiveSentences: num(env, 'CITEGRAPH_EXTRACTIVE_SENTENCES', 4, 1, 20),
    },
    evidence: {
      strongBand: num(env, 'CITEGRAPH_BAND_STRONG', 80, 1, 100),
      moderateBand: num(env, 'CITEGRAPH_BAND_MODERATE', 50, 0, 99),
      abstainBelow: num(env, 'CITEGRAPH_ABSTAIN_BELOW', 50, 0, 100),
      minEvidenceScore: num(env, 'CITEGRAPH_MIN_EVIDENCE_SCORE', 30, 0, 100),
      retries: num(env, 'CITEGRAPH_AGENTIC_RETRIES', 1, 0, 5),
      driftGuard: num(env, 'CITEGRAPH_DRIFT_GUARD', 0.3, 0, 1, false),
      externalAttemptsContent: num(env, 'CITEGRAPH_EXTERNAL_ATTEMPTS_CONTENT', 3, 0, 20),
      externalAttemptsBibliometric: num(env, 'CITEGRAPH_EXTERNAL_ATTEMPTS_BIBLIOMETRIC', 5, 0, 20),
      externalAttemptsCurrent: num(env, 'CITEGRAPH_EXTERNAL_ATTEMPTS_CURRENT', 3, 0, 20),
      externalSearch: bool(env, 'CITEGRAPH_EXTERNAL_SEARCH', true),
      vettingThreshold: num(env, 'CITEGRAPH_VETTING_THRESHOLD', 0.35, -1, 1, false),
      supportThreshold: num(env, 'CITEGRAPH_SUPPORT_THRESHOLD', 0.6, 0, 1, false),
    },
    cacheDir,
  };
  return deepFreeze(settings);
}

/** A short, stable hash of the settings, stamped on answers so that results can be traced to a configuration. */
export function settingsHash(settings: Settings): string {
  const { password: _password, ...neo4j } = settings.neo4j;
  return createHash('sha256')
    .update(JSON.stringify({ ...settings, neo4j }))
    .digest('hex')
    .slice(0, 12);
}

/** Environment variables, for the README and `citegraph help`. */
export const SETTINGS_DOC: ReadonlyArray<readonly [string, string]> = [
  ['NEO4J_URI', 'Bolt URI of an external Neo4j 5.x; unset = the embedded server'],
  ['NEO4J_USER / NEO4J_PASSWORD', 'credentials for NEO4J_URI (default neo4j / neo4j)'],
  ['NEO4J_DATABASE', 'database name (default neo4j)'],
  ['CITEGRAPH_NEO4J_PORT', 'Bolt port of the embedded server on 127.0.0.1 (default 7687)'],
  ['CITEGRAPH_NEO4J_DATA', 'store folder of the embedded server (default .data/neo4j)'],
  ['CITEGRAPH_NEO4J_PAGECACHE / CITEGRAPH_NEO4J_HEAP', 'memory of the embedded server (default 512m / 2g)'],
  ['CITEGRAPH_MODEL_DIR', 'folder with model.onnx and vocab.txt (default .cache/model)'],
  ['CITEGRAPH_EMBED_BATCH / CITEGRAPH_EMBED_THREADS', 'embedding batch size (16) and ONNX threads (0 = default)'],
  ['CITEGRAPH_CHUNK_MAX_TOKENS / CITEGRAPH_CHUNK_OVERLAP_TOKENS', 'chunk size and overlap in word pieces (200 / 30)'],
  ['CITEGRAPH_INGEST_BATCH', 'records per write transaction (200)'],
  [
    'CITEGRAPH_RRF_DENSE_WEIGHT / CITEGRAPH_RRF_SPARSE_WEIGHT / CITEGRAPH_RRF_K',
    'weighted RRF (0.5 / 0.5 / 60; the muon-collider design used 0.9 / 0.1)',
  ],
  ['CITEGRAPH_PORT / CITEGRAPH_HOST', 'GraphQL server address (4000 / 127.0.0.1)'],
  ['CITEGRAPH_PRODUCTION', 'hide internal error details from clients'],
  ['OPENALEX_BASE_URL / OPENALEX_API_KEY / OPENALEX_MAILTO', 'OpenAlex API (api_key and mailto sent as parameters)'],
  [
    'CROSSREF_BASE_URL / CROSSREF_MAILTO / CROSSREF_PLUS_TOKEN',
    'Crossref API (mailto = polite pool; Plus token header)',
  ],
  ['S2_BASE_URL / S2_API_KEY', 'Semantic Scholar Graph API (x-api-key header)'],
  ['CITEGRAPH_MAILTO', 'contact address for both polite pools when the per-provider one is unset'],
  [
    'OPENALEX_RPS / CROSSREF_RPS / S2_RPS (+ _CONCURRENCY)',
    'rate limits per host (8 / 5 / 1 per second; 4 / 2 / 1 at once)',
  ],
  [
    'CITEGRAPH_HTTP_TIMEOUT_MS / _RETRIES / _BACKOFF_MS / _MAX_BACKOFF_MS',
    'timeouts and retries (15000 / 4 / 500 / 30000)',
  ],
  ['CITEGRAPH_HTTP_CACHE_TTL / CITEGRAPH_HTTP_CACHE_ENTRIES', 'response cache (86400 s / 5000 entries)'],
  [
    'OPENAI_BASE_URL / OPENAI_API_KEY / CITEGRAPH_LLM_MODEL',
    'optional OpenAI-compatible LLM (gpt-4o-mini); without it answers are extractive',
  ],
  [
    'CITEGRAPH_LLM_TIMEOUT_MS / CITEGRAPH_LLM_PROMPT_PRICE / CITEGRAPH_LLM_COMPLETION_PRICE',
    'LLM timeout and $ per 1k tokens',
  ],
  [
    'CITEGRAPH_CONTEXT_TOKENS / CITEGRAPH_EXTRACTIVE_SENTENCES',
    'context budget (1800) and extractive answer length (4)',
  ],
  [
    'CITEGRAPH_BAND_STRONG / CITEGRAPH_BAND_MODERATE / CITEGRAPH_ABSTAIN_BELOW',
    'sufficiency bands (80 / 50) and abstention (50)',
  ],
  [
    'CITEGRAPH_MIN_EVIDENCE_SCORE / CITEGRAPH_AGENTIC_RETRIES / CITEGRAPH_DRIFT_GUARD',
    'evidence floor (30), retries (1), drift guard (0.3)',
  ],
  [
    'CITEGRAPH_EXTERNAL_SEARCH / CITEGRAPH_EXTERNAL_ATTEMPTS_*',
    'external search on/off, attempts (content 3, bibliometric 5, current 3)',
  ],
  [
    'CITEGRAPH_VETTING_THRESHOLD / CITEGRAPH_SUPPORT_THRESHOLD',
    'external vetting cosine (0.35) and citation support (0.6)',
  ],
];
