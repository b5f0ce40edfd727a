import { documentFormat } from '../documents/read-document';
import type { WorkRecord } from '../domain';
import { type CollectionDeletion, deleteCollection } from './collection-admin';
import { ingestDocumentFile } from './document-file';
import { embedMissing } from './embedding-backfill';
import { emptySummary, type IngestDependencies, type IngestOptions, type IngestSummary } from './ingest-types';
import type { ChunkRow, PreparedPaper } from './paper-rows';
import { RecordIngest } from './record-ingest';

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
    summary.timings.totalMs = Date.now() - started;
    return summary;
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
  writeRecords(
    records: readonly WorkRecord[],
    options: { collection: string; embed: 'now' | 'defer'; fetchedAt?: string },
  ): Promise<IngestSummary & { paperIds: string[] }> {
    return this.records.writeRecords(records, options);
  }

  /**
   * Writes works found by the scholarly APIs into the `external` collection, embedded now and stamped with the time
   * they were fetched; returns the graph ids they got (a work already known by its DOI keeps its id).
   */
  writeFetched(records: readonly WorkRecord[]): Promise<IngestSummary & { paperIds: string[] }> {
    return this.writeRecords(records, { collection: 'external', embed: 'now', fetchedAt: new Date().toISOString() });
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
}
