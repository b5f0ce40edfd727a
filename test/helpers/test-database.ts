import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSettings, PROJECT_ROOT, type Settings } from '../../src/config/settings';

/** The embedded test server: its own port and store, so a developer's database is never touched. */
export const TEST_PORT = process.env.CITEGRAPH_TEST_NEO4J_PORT ?? '7697';
export const TEST_DATA_DIR = path.join(PROJECT_ROOT, '.data', `neo4j-test-${TEST_PORT}`);

export function testServerSettings(): Settings {
  return loadSettings({
    ...process.env,
    NEO4J_URI: '',
    CITEGRAPH_NEO4J_PORT: TEST_PORT,
    CITEGRAPH_NEO4J_DATA: TEST_DATA_DIR,
  });
}

/**
 * A small embedded server of a suite's own (a fresh store in the temp folder, the test port plus `portOffset`), for
 * suites that stop, kill or restart their database without disturbing the shared test server.
 */
export function ownServerSettings(name: string, portOffset: number): { settings: Settings; dataDir: string } {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `citegraph-${name}-`));
  const settings = loadSettings({
    ...process.env,
    NEO4J_URI: '',
    CITEGRAPH_NEO4J_PORT: String(Number(TEST_PORT) + portOffset),
    CITEGRAPH_NEO4J_DATA: dataDir,
    CITEGRAPH_NEO4J_HEAP: '512m',
    CITEGRAPH_NEO4J_PAGECACHE: '64m',
  });
  return { settings, dataDir };
}

/** ../shared, beside the project (tests and benchmarks may read it; the product does not). */
export const SHARED_DIR = path.resolve(PROJECT_ROOT, '..', 'shared');
