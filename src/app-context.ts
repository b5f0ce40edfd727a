import { SpladeEncoder } from './embedding/splade';
import type { ModelSettings, Settings } from './config/settings';
import path from 'node:path';
import { loadSettings, PROJECT_ROOT } from './config/settings';
import type { Embedder } from './embedding/embedder';
import { OnnxSentenceEmbedder } from './embedding/embedder';
import { WordPieceTokenizer } from './embedding/wordpiece-tokenizer';
import { modelFiles } from './embedding/embedder';
import { COMPANION_VECTORS, EmbeddingSpace } from './embedding/embedding-space';
import { type EmbeddingModel, embeddingModel, modelDir } from './embedding/models';
import { CachingEmbedder, fileSha256 } from './embedding/embedding-cache';
import { DatabaseMonitor } from './graph/database-monitor';
import { GraphExecutor } from './graph/executor';
import { queries } from './graph/query-registry';
import { IngestService } from './ingest/ingest-service';
import type { Logger } from './logger';
import { consoleLogger } from './logger';
import { CatalogService } from './catalog/catalog-service';
import { defaultSearchOptions } from './retrieval/search-types';
import type { Corpus } from './retrieval/corpus';
import { GraphCorpus } from './retrieval/graph-corpus';
import { SearchService } from './retrieval/search-service';
import { AnalyticsService } from './analytics/analytics-service';
import { ScienceService } from './analytics/science-service';
import { PaperExportService } from './catalog/paper-export';
import type { CrossrefClient } from './external/crossref-client';
import { FetchService } from './external/fetch-service';
import { onlineReferenceResolver } from './external/reference-resolver';
import { AskService } from './pipeline/ask-service';
import { classifierLoader } from './pipeline/route-classifier';
import { createLlmClient } from './generation/llm';
import { ReportService } from './pipeline/report-service';
import { type LlmClient, RequestContext } from './request-context';
import { DocumentSetService } from './sets/document-sets';

/** The services of one process, wired once from the settings. Dependencies are injected, never imported as globals. */
export interface AppContext {
  readonly settings: Settings;
  readonly executor: GraphExecutor;
  /** Whether the database answers, known without waiting for it (a background probe). */
  readonly database: DatabaseMonitor;
  readonly logger: Logger;
  readonly embedder: () => Promise<Embedder>;
  /** Which model the graph's chunk vectors come from (see EmbeddingSpace). */
  readonly embeddingSpace: EmbeddingSpace;
  /** The companion model's space and its embedder for stored texts (CITEGRAPH_COMPANION_MODEL), or null. */
  readonly companion: { readonly space: EmbeddingSpace; readonly embedder: () => Promise<Embedder> } | null;
  readonly ingest: IngestService;
  readonly catalog: CatalogService;
  readonly search: SearchService;
  /** The shared graph as a corpus (see src/retrieval/corpus.ts): what search and ask read besides private documents. */
  readonly graph: Corpus;
  readonly analytics: AnalyticsService;
  /** Science-of-science measures: disruption, prior/derivative works, citation paths, Lotka, Bradford, bursts. */
  readonly science: ScienceService;
  /** Paper lists as CSV, JSON Lines, BibTeX, RIS and CSL-JSON files. */
  readonly exports: PaperExportService;
  readonly external: FetchService;
  readonly ask: AskService;
  /** Private per-client document sets (never in the shared indexes). */
  readonly documentSets: DocumentSetService;
  readonly llm: LlmClient | null;
  /** Related-work reports on a subject (src/pipeline/report-service.ts). */
  readonly reports: ReportService;
  /**
   * Loads what the first request would otherwise load on the event loop (the model, the on-disk vector cache, the
   * tokenizer, the route classifier, which trains on its questions) and runs one embedding.
   */
  warmUp(): Promise<void>;
  /** A context for one request (or one command): the LLM metered, a ledger of API calls, a deadline. */
  requestContext(options?: {
    useLlm?: boolean;
    timeoutMs?: number | null;
    signal?: AbortSignal | null;
  }): RequestContext;
  close(): Promise<void>;
}

export function createAppContext(
  options: { settings?: Settings; logger?: Logger; llm?: LlmClient | null } = {},
): AppContext {
  const settings = options.settings ?? loadSettings();
  const logger = options.logger ?? consoleLogger;
  queries(); // fail fast on a Cypher file that does not match its declared parameters
  const executor = new GraphExecutor(settings.neo4j);
  const database = new DatabaseMonitor(executor);
  const model = embeddingModel(settings.model.name);
  const embeddingSpace = new EmbeddingSpace(executor, model.name);
  const own = modelLoaders(settings.model, model, embeddingSpace);
  const loadEmbedder = own.embedder;
  const loadCorpusEmbedder = own.corpusEmbedder;
  const companion = companionModel(settings, executor);
  let tokenizer: WordPieceTokenizer | undefined;
  const tokenCounter = () => {
    tokenizer ??= WordPieceTokenizer.fromVocabFile(modelFiles(settings.model).vocab);
    return Promise.resolve(tokenizer);
  };
  const external = new FetchService(settings.clients);
  const crossref = external.clients.crossref as CrossrefClient;
  const ingest = new IngestService({
    executor,
    embedder: loadCorpusEmbedder,
    ...(companion ? { companionEmbedder: companion.corpusEmbedder } : {}),
    tokenCounter,
    chunking: settings.chunking,
    ingest: settings.ingest,
    documents: settings.documents,
    logger,
    onlineReferences: onlineReferenceResolver(
      {
        bibliographic: (ctx, citation, rows) => crossref.matchReference(ctx, citation, rows),
        byDoi: (ctx, doi) => external.clients.openalex.getWork(ctx, doi),
      },
      () => RequestContext.create({ llm: null, timeoutMs: 120_000 }),
      { max: 200, concurrency: 4 },
    ),
  });
  // A model the context made itself (the local generator runs a process) is closed with it; one passed in is not.
  const ownLlm = options.llm !== undefined ? null : createLlmClient(settings.generation);
  const llm = options.llm !== undefined ? options.llm : ownLlm;
  // Loaded when a search first asks for the SPLADE list; a failure is not remembered (setup may fetch the model).
  let splade: Promise<SpladeEncoder> | null = null;
  const loadSplade = () => {
    splade ??= SpladeEncoder.load(settings.model.spladeDir, settings.model.threads).catch((error: unknown) => {
      splade = null;
      throw error;
    });
    return splade;
  };
  const search = new SearchService(
    executor,
    loadEmbedder,
    defaultSearchOptions(settings.retrieval),
    companion ? { model: companion.space.model, embedder: companion.embedder } : null,
    loadSplade,
  );
  const analytics = new AnalyticsService(executor, search);
  const catalog = new CatalogService(executor);
  const graph = new GraphCorpus(search, (ids) => catalog.evidence.evidencePapers(ids));
  const science = new ScienceService(executor, analytics);
  const routeClassifier = classifierLoader(
    path.join(PROJECT_ROOT, 'data', 'questions', 'router-train.jsonl'),
    loadEmbedder,
    settings.cacheDir,
  );
  const askDependencies = {
    settings,
    catalog,
    search,
    graph,
    analytics,
    science,
    external,
    ingest,
    embedder: loadEmbedder,
    routeClassifier,
  };
  const ask = new AskService(askDependencies);
  const documentSets = new DocumentSetService({
    executor,
    embedder: loadCorpusEmbedder,
    chunking: settings.chunking,
    documents: settings.documents,
    sets: settings.documentSets,
    maxTextChars: settings.ingest.maxTextChars,
    vocabFile: modelFiles(settings.model).vocab,
    logger,
  });
  return {
    settings,
    executor,
    database,
    logger,
    embedder: loadEmbedder,
    embeddingSpace,
    companion: companion ? { space: companion.space, embedder: companion.corpusEmbedder } : null,
    ingest,
    catalog,
    search,
    graph,
    analytics,
    science,
    exports: new PaperExportService(executor, catalog),
    external,
    ask,
    documentSets,
    llm,
    reports: new ReportService(askDependencies),
    warmUp: async () => {
      const [model] = await Promise.all([
        loadEmbedder(),
        loadCorpusEmbedder(),
        tokenCounter(),
        routeClassifier(),
        // The whole graph's word statistics, which every answer's concept check reads (about a second to count).
        search.documentFrequencies(null),
      ]);
      await model.embed(['warming up the model']);
    },
    requestContext: (context = {}) => RequestContext.create({ llm, ...context }),
    close: async () => {
      database.stop();
      await external.close();
      await executor.close();
      await own.close();
      await companion?.close();
      await ownLlm?.close?.();
      await splade?.then((encoder) => encoder.close()).catch(() => undefined);
    },
  };
}

/**
 * The companion model (CITEGRAPH_COMPANION_MODEL): its embedding space, its embedder for queries (used only while the
 * graph's companion vectors are its own) and for stored texts (through the on-disk cache); null when none is set.
 */
function companionModel(
  settings: Settings,
  executor: GraphExecutor,
): (ModelLoaders & { space: EmbeddingSpace }) | null {
  if (settings.model.companion === 'none') return null;
  if (settings.model.companion === settings.model.name)
    throw new Error(
      `CITEGRAPH_COMPANION_MODEL names the embedding model itself (${settings.model.name}): a companion is another model`,
    );
  const model = embeddingModel(settings.model.companion);
  const space = new EmbeddingSpace(executor, model.name, COMPANION_VECTORS);
  return { space, ...modelLoaders({ ...settings.model, dir: modelDir(settings.cacheDir, model) }, model, space) };
}

interface ModelLoaders {
  /** The model, loaded once; each call first checks that the graph's vectors of its space are its own. */
  embedder: () => Promise<Embedder>;
  /** The same for texts stored in the graph, through the on-disk cache (questions and queries do not go through it). */
  corpusEmbedder: () => Promise<Embedder>;
  close: () => Promise<void>;
}

/**
 * A model's loaders. A refusal (the graph's vectors are another model's) is never remembered: once the graph changes
 * model (`citegraph embed`), the next call succeeds.
 */
function modelLoaders(modelSettings: ModelSettings, model: EmbeddingModel, space: EmbeddingSpace): ModelLoaders {
  let loaded: Promise<Embedder> | undefined;
  const embedder = async (): Promise<Embedder> => {
    await space.check();
    loaded ??= OnnxSentenceEmbedder.load(modelSettings, model);
    return loaded;
  };
  let cached: Embedder | undefined;
  const corpusEmbedder = async (): Promise<Embedder> => {
    const inner = await embedder();
    cached ??= modelSettings.cache
      ? CachingEmbedder.open(inner, modelSettings.cacheDir, fileSha256(modelFiles(modelSettings).model))
      : inner;
    return cached;
  };
  return {
    embedder,
    corpusEmbedder,
    close: async () => {
      await (await loaded?.catch(() => null))?.close?.();
    },
  };
}
