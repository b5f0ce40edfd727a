import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Settings } from '../config/settings';
import { PROJECT_ROOT } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import { GraphExecutor } from './executor';
import { embeddedBoltUri } from './embedded-uri';

/** Where `scripts/setup.js` puts the Neo4j jars resolved from Maven Central. */
export function neo4jLibDir(settings: Settings): string {
  return path.join(settings.cacheDir, 'neo4j', 'lib');
}

const LAUNCHER_SOURCE = path.join(PROJECT_ROOT, 'scripts', 'neo4j', 'EmbeddedNeo4j.java');

export interface EmbeddedStatus {
  readonly running: boolean;
  readonly pid: number | undefined;
  readonly uri: string;
  readonly dataDir: string;
  readonly reachable: boolean;
}

function pidFile(settings: Settings): string {
  return path.join(settings.neo4j.embeddedDataDir, 'citegraph-neo4j.pid');
}

function logFile(settings: Settings): string {
  return path.join(settings.neo4j.embeddedDataDir, 'neo4j.log');
}

function readPid(settings: Settings): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile(settings), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function reachable(settings: Settings): Promise<boolean> {
  const executor = new GraphExecutor({ ...settings.neo4j, uri: embeddedBoltUri(settings.neo4j) });
  try {
    await executor.verifyConnectivity();
    return true;
  } catch {
    return false;
  } finally {
    await executor.close();
  }
}

export async function embeddedStatus(settings: Settings): Promise<EmbeddedStatus> {
  const pid = readPid(settings);
  const running = pid !== undefined && alive(pid);
  return {
    running,
    pid: running ? pid : undefined,
    uri: embeddedBoltUri(settings.neo4j),
    dataDir: settings.neo4j.embeddedDataDir,
    reachable: await reachable(settings),
  };
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Starts the embedded Neo4j (detached, so it outlives the command that started it) and waits until Bolt answers.
 * Returns the status and whether this call started it: starting an already running server is a no-op, and a caller
 * that did not start the server must not stop it.
 */
export async function startEmbedded(settings: Settings): Promise<EmbeddedStatus & { started: boolean }> {
  const current = await embeddedStatus(settings);
  if (current.running && current.reachable) return { ...current, started: false };
  if (!current.running && current.reachable) {
    throw new CitegraphError(
      ErrorCode.DATABASE_ERROR,
      `port ${settings.neo4j.embeddedPort} already answers Bolt but is not citegraph's embedded server; set NEO4J_URI to use it or CITEGRAPH_NEO4J_PORT to pick another port`,
    );
  }
  const lib = neo4jLibDir(settings);
  if (!existsSync(lib) || readdirSync(lib).length === 0) {
    throw new CitegraphError(
      ErrorCode.DATABASE_UNAVAILABLE,
      `Neo4j jars are missing in ${lib}: run \`node scripts/setup.js\``,
    );
  }
  const { neo4j } = settings;
  mkdirSync(neo4j.embeddedDataDir, { recursive: true });
  const out = openSync(logFile(settings), 'a');
  const child = spawn(
    neo4j.javaBin,
    [
      `-Xmx${neo4j.embeddedHeap}`,
      '-XX:+UseG1GC',
      '-cp',
      `${lib}${path.sep}*`,
      LAUNCHER_SOURCE,
      '--home',
      neo4j.embeddedDataDir,
      '--port',
      String(neo4j.embeddedPort),
      '--pagecache',
      neo4j.embeddedPageCache,
    ],
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  if (child.pid === undefined)
    throw new CitegraphError(ErrorCode.DATABASE_UNAVAILABLE, `could not run ${neo4j.javaBin}`);
  writeFileSync(pidFile(settings), String(child.pid));
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  child.unref();

  const deadline = Date.now() + neo4j.startTimeoutSeconds * 1000;
  while (Date.now() < deadline) {
    if (exited || !alive(child.pid)) {
      rmSync(pidFile(settings), { force: true });
      throw new CitegraphError(
        ErrorCode.DATABASE_UNAVAILABLE,
        `embedded Neo4j exited during start:\n${tail(logFile(settings))}`,
      );
    }
    if (await reachable(settings)) return { ...(await embeddedStatus(settings)), started: true };
    await sleep(500);
  }
  throw new CitegraphError(
    ErrorCode.DATABASE_UNAVAILABLE,
    `embedded Neo4j did not answer within ${neo4j.startTimeoutSeconds}s:\n${tail(logFile(settings))}`,
    { retryable: true },
  );
}

/** Stops the embedded server cleanly (SIGTERM runs its shutdown hook), then forcibly after a grace period. */
export async function stopEmbedded(settings: Settings, graceSeconds = 60): Promise<boolean> {
  const pid = readPid(settings);
  if (pid === undefined || !alive(pid)) {
    rmSync(pidFile(settings), { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceSeconds * 1000;
  while (alive(pid) && Date.now() < deadline) await sleep(200);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(pidFile(settings), { force: true });
  return true;
}
