import { createAppContext, type AppContext } from '../../src/app-context';
import { loadSettings } from '../../src/config/settings';
import { queries } from '../../src/graph/query-registry';
import { MemoryLogger } from '../../src/logger';

/** An app context on the test database with a logger that records instead of printing. */
export function createTestContext(env: Record<string, string> = {}): { app: AppContext; logger: MemoryLogger } {
  const logger = new MemoryLogger();
  const app = createAppContext({ settings: loadSettings({ ...process.env, ...env }), logger });
  return { app, logger };
}

/** Empties the test database (schema kept): each suite starts from nothing. */
export async function clearDatabase(app: AppContext): Promise<void> {
  await app.executor.autoCommit(queries().clearDatabase({}));
}
