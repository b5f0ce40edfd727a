import { rmSync } from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../../src/app-context';
import { OnnxSentenceEmbedder } from '../../src/embedding/embedder';
import { CachingEmbedder, fileSha256 } from '../../src/embedding/embedding-cache';
import { embeddingModel, modelDir } from '../../src/embedding/models';
import { paperFilterParams, queries } from '../../src/graph/query-registry';
import { embeddingInput } from '../../src/ingest/paper-rows';
import { loadSettings, PROJECT_ROOT, type Settings } from '../../src/config/settings';
import { startEmbedded, stopEmbedded } from '../../src/graph/embedded-server';
import { consoleLogger } from '../../src/logger';

/** The benchmarks' own embedded Neo4j: port 7698, store .data/neo4j-bench (bench-ingest --keep fills it). */
export const BENCH_ENV = {
  CITEGRAPH_NEO4J_PORT: '7698',
  CITEGRAPH_NEO4J_DATA: path.join(PROJECT_ROOT, '.data', 'neo4j-bench'),
  CITEGRAPH_NEO4J_PAGECACHE: '2g',
  CITEGRAPH_NEO4J_HEAP: '4g',
};

/**
 * An app on the benchmark database: NEO4J_URI when set, otherwise the bench embedded server (started if needed,
 * data kept). `overrides` are extra settings for the run (e.g. no external search).
 */
export async function openBenchApp(
  overrides: Record<string, string> = {},
  options: { llm?: null } = {},
): Promise<AppContext> {
  let settings = loadSettings({ ...process.env, ...(process.env.NEO4J_URI ? {} : BENCH_ENV), ...overrides });
  if (!process.env.NEO4J_URI) {
    const status = await startEmbedded(settings);
    settings = loadSettings({ ...process.env, ...BENCH_ENV, NEO4J_URI: status.uri, ...overrides });
  }
  return createAppContext({ settings, logger: consoleLogger, ...options });
}

/**
 * Settings on an empty store for a benchmark that loads its own data: the embedded server of `serverEnv` (port,
 * store, memory) is stopped, its store deleted and the server started again, and the settings point at it by URI —
 * or, with `embedded`, keep naming the embedded server (for the bulk path, which stops and starts it itself). With
 * NEO4J_URI set the settings name that database, which the caller empties. `runEnv` applies in both cases.
 */
export async function freshStoreSettings(
  serverEnv: Record<string, string>,
  runEnv: Record<string, string> = {},
  options: { embedded?: boolean } = {},
): Promise<{ settings: Settings; external: boolean }> {
  const external = Boolean(process.env.NEO4J_URI);
  if (external) return { settings: loadSettings({ ...process.env, ...runEnv }), external };
  const settings = loadSettings({ ...process.env, ...serverEnv, ...runEnv });
  await stopEmbedded(settings);
  rmSync(settings.neo4j.embeddedDataDir, { recursive: true, force: true });
  const status = await startEmbedded(settings);
  return {
    settings: options.embedded
      ? settings
      : loadSettings({ ...process.env, ...serverEnv, ...runEnv, NEO4J_URI: status.uri }),
    external,
  };
}

/** Deletes the live sets of the anonymous caller (a loopback client without a key), through the set service. */
export async function deleteAnonymousSets(app: AppContext): Promise<void> {
  for (const set of await app.documentSets.list('anonymous')) await app.documentSets.delete('anonymous', set.id);
}

/**
 * Runs a benchmark's `main` when its file is run rather than imported (`module` is the caller's): a failure is
 * printed with its stack under the benchmark's name, and the process exits with 1.
 */
export function runWhenMain(caller: NodeModule, name: string, main: () => Promise<void>): void {
  if (require.main !== caller) return;
  main().catch((error: unknown) => {
    process.stderr.write(`${name} failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  });
}

/** The value after a command-line flag (`--models a,b`), or undefined when the flag is absent. */
export function argument(args: readonly string[], name: string): string | undefined {
  return args.includes(name) ? args[args.indexOf(name) + 1] : undefined;
}

/**
 * An embedding model of src/embedding/models.ts by name, outside the service: the model itself (`inner`, timed
 * without a cache, closed by the caller) and the same model behind its per-model disk cache (`cached`).
 */
export async function openModel(
  settings: Settings,
  name: string,
): Promise<{ inner: OnnxSentenceEmbedder; cached: CachingEmbedder }> {
  const model = embeddingModel(name);
  const modelSettings = { ...settings.model, dir: modelDir(settings.cacheDir, model) };
  const inner = await OnnxSentenceEmbedder.load(modelSettings, model);
  const cached = CachingEmbedder.open(
    inner,
    settings.model.cacheDir,
    fileSha256(path.join(modelSettings.dir, 'model.onnx')),
  );
  return { inner, cached };
}

/** A collection's chunks as the ingest embeds them (title and chunk), with the paper each belongs to. */
export interface CollectionPassages {
  papers: string[];
  inputs: string[];
}

/** Every chunk of a collection in the graph, read in pages (see CollectionPassages). */
export async function collectionPassages(app: AppContext, collection: string): Promise<CollectionPassages> {
  const passages: CollectionPassages = { papers: [], inputs: [] };
  const filter = paperFilterParams({ collections: [collection] });
  for (let after = ''; ;) {
    const rows = await app.executor.read<{
      id: string;
      paperId: string;
      text: string;
      paperTitle: string | null;
      section: string;
    }>(queries().chunkTexts({ ...filter, after, limit: 5000 }));
    for (const row of rows) {
      passages.papers.push(row.paperId);
      passages.inputs.push(embeddingInput(row.paperTitle, row.text, row.section));
    }
    if (rows.length < 5000) return passages;
    after = rows[rows.length - 1]!.id;
  }
}
