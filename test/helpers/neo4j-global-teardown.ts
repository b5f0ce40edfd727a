import { stopEmbedded } from '../../src/graph/embedded-server';
import { testServerSettings } from './test-database';

const state = globalThis as { citegraphTestDb?: { startedHere: boolean }; citegraphTestDbStopped?: boolean };

export default async function globalTeardown(): Promise<void> {
  if (!state.citegraphTestDb?.startedHere || state.citegraphTestDbStopped) return;
  state.citegraphTestDbStopped = true;
  await stopEmbedded(testServerSettings());
}
