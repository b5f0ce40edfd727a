/** Settings of answers: the scholarly APIs' clients, generation (an optional LLM) and evidence thresholds. */
import path from 'node:path';
import { boolean, integer, number, optionalString, type SettingTree, string } from './setting-schema';

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

export const ANSWER_SETTINGS = {
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
    gguf: optionalString(
      'CITEGRAPH_LLM_GGUF',
      'a GGUF model file for the local generator (node-llama-cpp, on the CPU), or `smollm2` for the one `node scripts/setup.js --only local-llm` fetches; used when no OpenAI-compatible endpoint is set',
    ),
    localRuntimeDir: string(
      'CITEGRAPH_LLM_RUNTIME_DIR',
      (env) => path.join(env.CITEGRAPH_CACHE_DIR || '.cache', 'llm-runtime'),
      'folder where setup installs node-llama-cpp for the local generator',
      { shownDefault: '.cache/llm-runtime', path: true },
    ),
    localModelDir: string(
      'CITEGRAPH_LLM_MODEL_DIR',
      (env) => path.join(env.CITEGRAPH_CACHE_DIR || '.cache', 'llm'),
      'folder of the GGUF models setup fetches (`smollm2`)',
      { shownDefault: '.cache/llm', path: true },
    ),
    localThreads: integer('CITEGRAPH_LLM_THREADS', 2, 0, 256, "the local generator's CPU threads (0: all cores)"),
    localContextTokens: integer(
      'CITEGRAPH_LLM_CONTEXT',
      4096,
      512,
      131_072,
      "the local generator's context window, in tokens",
    ),
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
      'external search portfolios for content questions (general, primary, field, wildcard: the first N)',
    ),
    externalAttemptsBibliometric: integer(
      'CITEGRAPH_EXTERNAL_ATTEMPTS_BIBLIOMETRIC',
      5,
      0,
      20,
      'external search portfolios for bibliometric questions (the first N of four)',
    ),
    externalAttemptsCurrent: integer(
      'CITEGRAPH_EXTERNAL_ATTEMPTS_CURRENT',
      3,
      0,
      20,
      'external search portfolios for current-world questions (the first N of four)',
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
      "cosine an external paper needs to the question to be kept (on MiniLM's scale whichever model embeds)",
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
