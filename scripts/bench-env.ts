import path from 'node:path';
import { createAppContext, type AppContext } from '../src/app-context';
import { loadSettings, PROJECT_ROOT } from '../src/config/settings';
import { startEmbedded } from '../src/graph/embedded-server';
import { consoleLogger } from '../src/logger';

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
