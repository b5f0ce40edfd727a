import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../config/settings';
import { CitegraphError, ErrorCode } from '../errors';
import { embeddedStatus, neo4jLibDir } from './embedded-server';

/**
 * Runs `neo4j-admin database import full` — Neo4j's offline bulk importer, from the jars the setup already took from
 * Maven Central (org.neo4j:neo4j-import-tool, neo4j-command-line) — into the embedded store. The store is replaced:
 * the embedded server must be stopped, and the caller has made sure the user asked for that. `groups` are the
 * `--nodes=…` and `--relationships=…` arguments of src/ingest/bulk-csv.ts. Returns the tool's output.
 */
export async function importIntoEmbeddedStore(settings: Settings, groups: readonly string[]): Promise<string> {
  if (settings.neo4j.uri)
    throw new CitegraphError(
      ErrorCode.BAD_USER_INPUT,
      'the bulk import writes the embedded store; with NEO4J_URI set run neo4j-admin on that server (docs/scaling.md)',
    );
  if ((await embeddedStatus(settings)).running)
    throw new CitegraphError(ErrorCode.BAD_USER_INPUT, 'stop the embedded server first (citegraph db stop)');
  const home = settings.neo4j.embeddedDataDir;
  const conf = path.join(home, 'conf');
  mkdirSync(conf, { recursive: true });
  // The embedded server keeps its databases under <home>/data, which is neo4j-admin's default for that home.
  writeFileSync(path.join(conf, 'neo4j.conf'), '');
  const args = [
    `-Xmx${settings.neo4j.embeddedHeap}`,
    '-cp',
    `${neo4jLibDir(settings)}${path.sep}*`,
    'org.neo4j.cli.AdminTool',
    'database',
    'import',
    'full',
    '--overwrite-destination=true',
    '--multiline-fields=true',
    '--array-delimiter=U+001F',
    '--ignore-empty-strings=true',
    '--bad-tolerance=0',
    // Its report goes beside the store, not into the caller's working folder.
    `--report-file=${path.join(home, 'import.report')}`,
    // The database name before the groups: a group's file list would take it for one more file.
    'neo4j',
    ...groups,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(settings.neo4j.javaBin, args, {
      env: { ...process.env, NEO4J_HOME: home, NEO4J_CONF: conf },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', (error) =>
      reject(
        new CitegraphError(ErrorCode.DATABASE_UNAVAILABLE, `could not run ${settings.neo4j.javaBin}: ${error.message}`),
      ),
    );
    child.on('exit', (code) => {
      if (code === 0) resolve(output);
      else
        reject(
          new CitegraphError(
            ErrorCode.DATABASE_ERROR,
            `neo4j-admin database import failed (exit ${code}):\n${output.slice(-4000)}`,
          ),
        );
    });
  });
}
