import path from 'node:path';
import { stat } from 'node:fs/promises';
import type { WorkRecord } from '../domain';
import { CitegraphError } from '../errors';
import { queries } from '../graph/query-registry';
import { affectedBefore, refreshAggregates } from './aggregate-refresh';
import {
  emptySummary,
  type IngestDependencies,
  type IngestFormat,
  type IngestOptions,
  type IngestSummary,
} from './ingest-types';
import { mapBeirDocument, mapOpenAlexWork, RecordError } from './openalex';
import { type ChunkRow, chunkRecords, contentHash, graphRows, paperProps, type PreparedPaper } from './paper-rows';
import { Progress } from './progress';
import { readRecords } from './record-reader';
import { WriteBehind } from './write-behind';

/** A batch read and chunked, waiting for its write. */
interface ReadyBatch {
  batch: PreparedPaper[];
  unchanged: PreparedPaper[];
  changedIndexes: number[];
  chunkRows: ChunkRow[];
}

/** Collection name from a path: "works/Chou_2004.jsonl.gz" → "Chou_2004"; "scifact/corpus.jsonl.gz" → "scifact". */
export function defaultCollection(file: string): string {
  const base = path
    .basename(file)
    .replace(/\.(jsonl|ndjson|json)(\.gz)?$/i, '')
    .replace(/\.gz$/i, '');
  if (/^(corpus|works|data|part_\d+|updated_date=.*)$/i.test(base))
    return path.basename(path.dirname(path.resolve(file)));
  return base;
}

/** Guesses the format from the first record: BEIR lines have `_id`, OpenAlex works an `id` URL. */
function detectFormat(value: unknown): IngestFormat {
  return typeof value === 'object' && value !== null && '_id' in value ? 'beir' : 'openalex';
}

/**
 * Records (OpenAlex works, BEIR documents, works fetched from the scholarly APIs) into the graph in batches. Each batch
 * is one write transaction, so a record is written whole or not at all; a batch that fails is retried record by record
 * so that one bad record costs only itself. Unchanged papers (same content hash) are not rewritten, which makes a
 * second run cheap and a crashed run resumable.
 */
export class RecordIngest {
  constructor(private readonly deps: IngestDependencies) {}

  /**
   * Reads, maps and chunks files as `ingestFiles` does (same skips, warnings and duplicate checks) and hands every
   * batch to `sink` instead of writing it over Bolt: the bulk path (src/ingest/bulk-csv.ts) writes CSV files for
   * `neo4j-admin database import`. Embedding is left for `citegraph embed`.
   */
  async exportFiles(
    files: readonly string[],
    options: Omit<IngestOptions, 'embed'>,
    sink: (papers: readonly PreparedPaper[], chunks: readonly ChunkRow[], collection: string) => Promise<void>,
  ): Promise<IngestSummary> {
    const summary = emptySummary();
    const started = Date.now();
    const deferred: IngestOptions = { ...options, embed: 'defer' };
    for (const file of files) {
      await this.ingestFile(file, deferred, summary, async (batch, _where, collection) => {
        const chunks = await chunkRecords(this.deps, batch, deferred, summary);
        const writeStarted = Date.now();
        await sink(batch, chunks, collection);
        summary.timings.writeMs += Date.now() - writeStarted;
        summary.papersWritten += batch.length;
        summary.chunks += chunks.length;
      });
      summary.files += 1;
    }
    summary.timings.totalMs = Date.now() - started;
    return summary;
  }

  /**
   * One file's records in batches. Unless `write` is given (the bulk path's sink), each batch is committed while the
   * next is chunked and embedded: the model and Neo4j work at once instead of in turn. Commits stay in file order,
   * one transaction each; a batch's stored state is read before the previous batch commits, which is safe because an
   * id occurs once per file (repeats are skipped above) and a paper that batch creates as a citation stub is written
   * in full either way.
   */
  async ingestFile(
    file: string,
    options: IngestOptions,
    summary: IngestSummary,
    write?: (batch: PreparedPaper[], where: string[], collection: string) => Promise<void>,
  ): Promise<void> {
    const commits = new WriteBehind();
    const send = async (batch: PreparedPaper[], where: string[], collection: string): Promise<void> => {
      if (write) return write(batch, where, collection);
      const ready = await this.prepareBatch(batch, options, summary);
      await commits.push(() => this.commitBatch(ready, where, collection, summary));
    };
    try {
      await this.readBatches(file, options, summary, send);
    } catch (error) {
      await commits.settle();
      throw error;
    }
    await commits.drain();
  }

  private async readBatches(
    file: string,
    options: IngestOptions,
    summary: IngestSummary,
    write: (batch: PreparedPaper[], where: string[], collection: string) => Promise<void>,
  ): Promise<void> {
    const collection = options.collection ?? defaultCollection(file);
    if (!summary.collections.includes(collection)) summary.collections.push(collection);
    const progress = new Progress(options.progress ?? Boolean(process.stderr.isTTY));
    const meter = { bytes: 0 };
    const size = (await stat(file)).size;
    let format = options.format;
    let batch: PreparedPaper[] = [];
    let batchWhere: string[] = [];
    const seen = new Map<string, string>();
    for await (const raw of readRecords(file, meter)) {
      if (raw.kind === 'error') {
        summary.skipped.push({ where: raw.where, reason: raw.reason });
        this.deps.logger.warn(`${raw.where}: ${raw.reason}`);
        continue;
      }
      summary.records += 1;
      format ??= detectFormat(raw.value);
      let record: WorkRecord;
      const warn = (field: string, problem: string) => this.warn(summary, raw.where, `${field}: ${problem}`);
      try {
        record = this.capText(
          format === 'beir' ? mapBeirDocument(raw.value, collection, warn) : mapOpenAlexWork(raw.value, warn),
          warn,
        );
      } catch (error) {
        const reason = error instanceof RecordError ? error.message : `cannot map record: ${(error as Error).message}`;
        summary.skipped.push({ where: raw.where, reason });
        this.deps.logger.warn(`${raw.where}: ${reason}`);
        continue;
      }
      const first = seen.get(record.id);
      if (first !== undefined) {
        summary.duplicatesInInput += 1;
        const reason = `duplicate id ${record.id}: the record at ${first} was ingested, this one was not`;
        summary.skipped.push({ where: raw.where, reason });
        this.deps.logger.warn(`${raw.where}: ${reason}`);
        continue;
      }
      seen.set(record.id, raw.where);
      batch.push({ record, hash: contentHash(record, this.deps.chunking) });
      batchWhere.push(raw.where);
      if (batch.length >= this.deps.ingest.batchSize) {
        await write(batch, batchWhere, collection);
        batch = [];
        batchWhere = [];
        progress.update(
          `${path.basename(file)}:`,
          summary.records,
          'records',
          size > 0 ? meter.bytes / size : undefined,
        );
      }
    }
    if (batch.length > 0) await write(batch, batchWhere, collection);
    progress.done();
  }

  private warn(summary: IngestSummary, where: string, reason: string): void {
    summary.warnings.push({ where, reason });
    this.deps.logger.warn(`${where}: ${reason}`);
  }

  /** Abstracts (and titles) over the size cap are cut at a word boundary, so that no record makes thousands of chunks. */
  private capText(record: WorkRecord, warn: (field: string, problem: string) => void): WorkRecord {
    const cut = (value: string | null, field: string, max: number): string | null => {
      if (value === null || value.length <= max) return value;
      const end = value.lastIndexOf(' ', max);
      warn(
        field,
        `${value.length} characters, over the cap of ${max} (CITEGRAPH_MAX_TEXT_CHARS); the first ${end > 0 ? end : max} were kept`,
      );
      return value.slice(0, end > 0 ? end : max);
    };
    const max = this.deps.ingest.maxTextChars;
    return {
      ...record,
      title: cut(record.title, 'title', Math.min(max, 2000)),
      abstract: cut(record.abstract, 'abstract', max),
    };
  }

  private async writeBatch(
    batch: PreparedPaper[],
    where: string[],
    collection: string,
    options: IngestOptions,
    summary: IngestSummary,
    fetchedAt?: string,
  ): Promise<void> {
    await this.commitBatch(await this.prepareBatch(batch, options, summary), where, collection, summary, fetchedAt);
  }

  /** Everything before a batch's write: which papers are stored unchanged, and the others' chunks (embedded or not). */
  private async prepareBatch(
    batch: PreparedPaper[],
    options: IngestOptions,
    summary: IngestSummary,
  ): Promise<ReadyBatch> {
    const existing = await this.deps.executor.read<{ id: string; contentHash: string | null; stub: boolean }>(
      queries().existingPapers({ ids: batch.map((paper) => paper.record.id) }),
    );
    const stored = new Map(existing.map((row) => [row.id, row]));
    const isUnchanged = (paper: PreparedPaper): boolean => {
      const row = stored.get(paper.record.id);
      return row !== undefined && !row.stub && row.contentHash === paper.hash;
    };
    const unchanged = batch.filter(isUnchanged);
    const changedIndexes = batch.map((_, index) => index).filter((index) => !isUnchanged(batch[index]!));
    const changed = changedIndexes.map((index) => batch[index]!);
    const chunkRows = changed.length > 0 ? await chunkRecords(this.deps, changed, options, summary) : [];
    return { batch, unchanged, changedIndexes, chunkRows };
  }

  /** A prepared batch into the graph in one transaction; when that fails, each record alone, to find the one at fault. */
  private async commitBatch(
    { batch, unchanged, changedIndexes, chunkRows }: ReadyBatch,
    where: string[],
    collection: string,
    summary: IngestSummary,
    fetchedAt?: string,
  ): Promise<void> {
    if (unchanged.length > 0) {
      await this.deps.executor.write(
        queries().touchCollections({ ids: unchanged.map((paper) => paper.record.id), collection }),
      );
      summary.papersUnchanged += unchanged.length;
    }
    if (changedIndexes.length === 0) return;
    const changed = changedIndexes.map((index) => batch[index]!);
    try {
      await this.writePapers(changed, chunkRows, collection, summary, fetchedAt);
    } catch (error) {
      if (changed.length === 1) {
        const reason = error instanceof CitegraphError ? `${error.code}: ${error.message}` : String(error);
        summary.skipped.push({ where: where[changedIndexes[0]!]!, reason: `write failed: ${reason}` });
        this.deps.logger.warn(`${where[changedIndexes[0]!]}: write failed: ${reason}`);
        return;
      }
      if (error instanceof CitegraphError && error.retryable) throw error;
      // Find the record at fault: each record alone, in its own transaction.
      for (const index of changedIndexes) {
        const paper = batch[index]!;
        const own = chunkRows.filter((row) => row.paperId === paper.record.id);
        try {
          await this.writePapers([paper], own, collection, summary, fetchedAt);
        } catch (single) {
          const reason = single instanceof CitegraphError ? `${single.code}: ${single.message}` : String(single);
          summary.skipped.push({ where: where[index]!, reason: `write failed: ${reason}` });
          this.deps.logger.warn(`${where[index]}: write failed: ${reason}`);
        }
      }
    }
  }

  private async writePapers(
    papers: PreparedPaper[],
    chunks: ChunkRow[],
    collection: string,
    summary: IngestSummary,
    fetchedAt?: string,
  ): Promise<void> {
    const q = queries();
    const ids = papers.map((paper) => paper.record.id);
    const { authorRows, venueRows, topicRows, citationRows, selfCitations } = graphRows(papers);
    const started = Date.now();
    await this.deps.executor.writeTransaction('ingest-batch', async (tx) => {
      const before = await affectedBefore(tx, ids);
      await tx.run(
        q.upsertPapers({
          papers: papers.map(({ record, hash }) => ({
            id: record.id,
            props: { ...paperProps(record, hash), ...(fetchedAt ? { fetchedAt } : {}) },
          })),
          collection,
        }),
      );
      await tx.run(q.replaceAuthorships({ papers: ids, rows: authorRows }));
      await tx.run(q.replaceVenues({ papers: ids, rows: venueRows }));
      await tx.run(q.replaceTopics({ papers: ids, rows: topicRows }));
      await tx.run(q.replaceChunks({ papers: ids, chunks }));
      await tx.run(q.replaceCitations({ papers: ids, rows: citationRows }));
      await tx.run(refreshAggregates(before, ids));
    });
    summary.timings.writeMs += Date.now() - started;
    summary.papersWritten += papers.length;
    summary.authorships += authorRows.length;
    summary.chunks += chunks.length;
    summary.chunksEmbedded += chunks.filter((chunk) => chunk.embedding !== null).length;
    summary.citationEdges += citationRows.length;
    summary.selfCitationsSkipped += selfCitations;
  }

  /**
   * Writes records that came from the scholarly APIs (write-through): ids and references are first resolved against
   * papers already known by DOI, so a fetched work joins its graph paper (a stub becomes full) instead of
   * duplicating it. Same batching, atomicity and idempotency as file ingestion.
   */
  async writeRecords(
    records: readonly WorkRecord[],
    options: { collection: string; embed: 'now' | 'defer'; fetchedAt?: string },
  ): Promise<IngestSummary & { paperIds: string[] }> {
    const summary = emptySummary();
    summary.collections.push(options.collection);
    const started = Date.now();
    const dois = new Set<string>();
    for (const record of records) {
      if (record.doi) dois.add(record.doi);
      for (const ref of record.references) if (ref.startsWith('doi:')) dois.add(ref.slice(4));
    }
    const known = new Map<string, string>();
    if (dois.size > 0) {
      const rows = await this.deps.executor.read<{ doi: string; id: string }>(
        queries().papersByDoi({ dois: [...dois] }),
      );
      for (const row of rows) known.set(row.doi, row.id);
    }
    const resolve = (id: string, doi: string | null): string => {
      if (id.startsWith('W')) return id;
      const existing = doi ? known.get(doi) : undefined;
      return existing ?? id;
    };
    const prepared: PreparedPaper[] = [];
    const seen = new Set<string>();
    for (const original of records) {
      const record: WorkRecord = {
        ...original,
        id: resolve(original.id, original.doi),
        references: original.references.map((ref) => resolve(ref, ref.startsWith('doi:') ? ref.slice(4) : null)),
      };
      // Several sources' records of one work merge before they get here; a repeat is the same work again.
      if (seen.has(record.id)) {
        summary.duplicatesInInput += 1;
        continue;
      }
      seen.add(record.id);
      summary.records += 1;
      prepared.push({ record, hash: contentHash(record, this.deps.chunking) });
    }
    for (let offset = 0; offset < prepared.length; offset += this.deps.ingest.batchSize) {
      const batch = prepared.slice(offset, offset + this.deps.ingest.batchSize);
      await this.writeBatch(
        batch,
        batch.map((paper) => `${paper.record.source}:${paper.record.id}`),
        options.collection,
        { embed: options.embed, progress: false },
        summary,
        options.fetchedAt,
      );
    }
    summary.timings.totalMs = Date.now() - started;
    return { ...summary, paperIds: prepared.map((paper) => paper.record.id) };
  }
}
