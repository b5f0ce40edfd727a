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

/** ../shared, beside the project (tests and benchmarks may read it; the product does not). */
export const SHARED_DIR = path.resolve(PROJECT_ROOT, '..', 'shared');
