/** Settings of the graph, the embedding model and ingest: Neo4j, model, chunking, ingest, documents, document sets. */
import path from 'node:path';
import { boolean, choice, integer, optionalString, type SettingTree, string } from './setting-schema';

export const GRAPH_SETTINGS = {
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
    name: choice(
      'CITEGRAPH_EMBEDDING_MODEL',
      'minilm',
      ['minilm', 'bge-small', 'e5-small'],
      'sentence-embedding model of chunks and queries (src/embedding/models.ts); the graph records it, and another one needs `citegraph embed --model NAME`',
    ),
    companion: choice(
      'CITEGRAPH_COMPANION_MODEL',
      'none',
      ['none', 'minilm', 'bge-small', 'e5-small'],
      "a second model whose chunk vectors are a second dense list in search's fusion (src/embedding/embedding-space.ts); `citegraph embed` fills them",
    ),
    dir: string(
      'CITEGRAPH_MODEL_DIR',
      (env) =>
        path.join(
          env.CITEGRAPH_CACHE_DIR || '.cache',
          env.CITEGRAPH_EMBEDDING_MODEL && env.CITEGRAPH_EMBEDDING_MODEL !== 'minilm'
            ? `model-${env.CITEGRAPH_EMBEDDING_MODEL}`
            : 'model',
        ),
      "folder holding the model's model.onnx and vocab.txt (filled by scripts/setup.js)",
      { shownDefault: '.cache/model (.cache/model-NAME for another model)', path: true },
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
    spladeDir: string(
      'CITEGRAPH_SPLADE_DIR',
      (env) => path.join(env.CITEGRAPH_CACHE_DIR || '.cache', 'splade'),
      "folder of SPLADE-tiny's model.safetensors, config.json and vocab.txt, for the SPLADE list of search (`node scripts/setup.js --only splade`)",
      { shownDefault: '.cache/splade', path: true },
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
} as const satisfies SettingTree;
