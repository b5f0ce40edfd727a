import { rmSync } from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../app-context';
import { PROJECT_ROOT } from '../config/settings';
import { badInput } from '../errors';
import { importIntoEmbeddedStore } from '../graph/bulk-import';
import { startEmbedded, stopEmbedded } from '../graph/embedded-server';
import { applySchema } from '../graph/schema';
import { BulkCsvWriter } from '../ingest/bulk-csv';
import type { IngestSummary } from '../ingest/ingest-types';

export interface BulkLoadResult {
  readonly summary: IngestSummary;
  readonly counts: BulkCsvWriter['counts'];
  /** Reading, mapping, chunking and writing CSV; neo4j-admin import; indexes and stored aggregates. */
  readonly seconds: { csv: number; import: number; schema: number; total: number };
}

/**
 * The bulk path for loads too large for transactional ingest: records are read, mapped and chunked exactly as
 * `citegraph ingest` does, written as CSV, loaded by `neo4j-admin database import full` into a new embedded store
 * (the old one is replaced — the caller asked for that), then the schema is applied (indexes, and the stored
 * aggregates, counted by the same Cypher as after every Bolt write). Embeddings are left for `citegraph embed`.
 */
export async function bulkLoad(
  app: AppContext,
  files: readonly string[],
  options: { collection?: string; progress?: boolean },
): Promise<BulkLoadResult> {
  if (app.settings.neo4j.uri) throw badInput('bulk-load writes the embedded store; unset NEO4J_URI (docs/scaling.md)');
  const started = Date.now();
  const dir = path.join(PROJECT_ROOT, '.cache', 'bulk', `${process.pid}-${Date.now()}`);
  const writer = new BulkCsvWriter(dir);
  try {
    const summary = await app.ingest.exportFiles(
      files,
      { ...(options.collection ? { collection: options.collection } : {}), progress: options.progress ?? false },
      (papers, chunks, collection) => writer.add(papers, chunks, collection),
    );
    const groups = await writer.finish();
    summary.authorships = writer.counts.authored;
    summary.citationEdges = writer.counts.cites;
    const csvDone = Date.now();
    await stopEmbedded(app.settings);
    await importIntoEmbeddedStore(app.settings, groups);
    const importDone = Date.now();
    await startEmbedded(app.settings);
    await app.executor.verifyConnectivity();
    await applySchema(app.executor);
    const finished = Date.now();
    return {
      summary,
      counts: writer.counts,
      seconds: {
        csv: (csvDone - started) / 1000,
        import: (importDone - csvDone) / 1000,
        schema: (finished - importDone) / 1000,
        total: (finished - started) / 1000,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
