import { documentFormat } from '../documents/read-document';
import type { WorkRecord } from '../domain';
import { type CollectionDeletion, deleteCollection } from './collection-admin';
import { ingestDocumentFile } from './document-file';
import { COMPANION_VECTORS } from '../embedding/embedding-space';
import { CitegraphError, ErrorCode } from '../errors';
import { embedMissing } from './embedding-backfill';
import { emptySummary, type IngestDependencies, type IngestOptions, type IngestSummary } from './ingest-types';
import type { ChunkRow, PreparedPaper } from './paper-rows';
import { RecordIngest } from './record-ingest';

/** The collection works found by the scholarly APIs are written to (created by the first such write). */
export const EXTERNAL_COLLECTION = 'external';

/**
 * Ingestion as the app offers it: files of records and documents, records fetched from the scholarly APIs, the bulk
 * path's export, collection deletion and the embedding backfill. Each job lives in a module of its own (record-ingest,
 * document-file, collection-admin, embedding-backfill); this class wires them to one set of dependencies.
 */
export class IngestService {
  private readonly records: RecordIngest;

  constructor(private readonly deps: IngestDependencies) {
    this.records = new RecordIngest(deps);
  }

  async ingestFiles(files: readonly string[], options: IngestOptions): Promise<IngestSummary> {
    const summary = emptySummary();
    const started = Date.now();
    for (const file of files) {
      if (documentFormat(file)) await ingestDocumentFile(this.deps, file, options, summary);
      else await this.records.ingestFile(file, options, summary);
      summary.files += 1;
    }
    if (options.embed === 'now') await this.embedCompanion(summary);
    summary.timings.totalMs = Date.now() - started;
    return summary;
  }

  /**
   * The companion model's vectors of every chunk without one, the chunks just written among them, when a companion is
   * set: after the run rather than beside the model's, so that an ingest never holds two models' batches at once.
   */
  private async embedCompanion(summary: IngestSummary): Promise<void> {
    let result: Awaited<ReturnType<typeof embedMissing>>;
    try {
      result = await this.embedCompanionMissing(256, false);
    } catch (error) {
      // What was written stands; only the companion's vectors wait (its model is missing, or the graph's companion
      // vectors are another model's), and search leaves its list out until `citegraph embed` makes them.
      if (!(error instanceof CitegraphError) || error.code !== ErrorCode.MODEL_UNAVAILABLE) throw error;
      summary.warnings.push({ where: 'companion model', reason: error.message });
      return;
    }
    summary.companionEmbedded += result.embedded;
    summary.timings.embedMs += result.embedMs;
    summary.timings.writeMs += result.writeMs;
  }

  /** See RecordIngest.exportFiles: the bulk path's batches, handed to `sink` instead of written over Bolt. */
  exportFiles(
    files: readonly string[],
    options: Omit<IngestOptions, 'embed'>,
    sink: (papers: readonly PreparedPaper[], chunks: readonly ChunkRow[], collection: string) => Promise<void>,
  ): Promise<IngestSummary> {
    return this.records.exportFiles(files, options, sink);
  }

  /** See RecordIngest.writeRecords: records from the scholarly APIs, joined to the papers known by DOI. */
  async writeRecords(
    records: readonly WorkRecord[],
    options: { collection: string; embed: 'now' | 'defer'; fetchedAt?: string },
  ): Promise<IngestSummary & { paperIds: string[] }> {
    const summary = await this.records.writeRecords(records, options);
    if (options.embed === 'now') await this.embedCompanion(summary);
    return summary;
  }

  /**
   * Writes works found by the scholarly APIs into the `external` collection, embedded now and stamped with the time
   * they were fetched; returns the graph ids they got (a work already known by its DOI keeps its id).
   */
  writeFetched(records: readonly WorkRecord[]): Promise<IngestSummary & { paperIds: string[] }> {
    return this.writeRecords(records, {
      collection: EXTERNAL_COLLECTION,
      embed: 'now',
      fetchedAt: new Date().toISOString(),
    });
  }

  deleteCollection(collection: string): Promise<CollectionDeletion> {
    return deleteCollection(this.deps, collection);
  }

  embedMissing(
    batchSize?: number,
    progressEnabled?: boolean,
  ): Promise<{ embedded: number; embedMs: number; writeMs: number }> {
    return embedMissing(this.deps, batchSize, progressEnabled);
  }

  /** The companion model's vectors of every chunk without one; nothing without a companion. */
  embedCompanionMissing(
    batchSize?: number,
    progressEnabled?: boolean,
  ): Promise<{ embedded: number; embedMs: number; writeMs: number }> {
    if (!this.deps.companionEmbedder) return Promise.resolve({ embedded: 0, embedMs: 0, writeMs: 0 });
    return embedMissing(
      { executor: this.deps.executor, embedder: this.deps.companionEmbedder },
      batchSize,
      progressEnabled,
      COMPANION_VECTORS,
    );
  }
}
