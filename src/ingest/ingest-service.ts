import { createHash } from 'node:crypto';
import path from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import type { ChunkingSettings, DocumentSettings, IngestSettings } from '../config/settings';
import { readDocument } from './document-reader';
import { DocumentError, documentFormat } from '../documents/read-document';
import type { WorkRecord } from '../domain';
import { anonymousAuthorId } from '../domain';
import type { Embedder } from '../embedding/embedder';
import { CitegraphError } from '../errors';
import type { GraphExecutor, TransactionRunner } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { STRONG_TOPIC_SCORE } from '../graph/schema';
import type { Logger } from '../logger';
import { chunkText, type TokenCounter } from './chunker';
import {
  documentChunks,
  documentProps,
  matchDocument,
  newPaperProps,
  documentReferences,
  type OnlineReferenceResolver,
} from './document-ingest';
import { mapBeirDocument, mapOpenAlexWork, RecordError } from './openalex';
import { Progress } from './progress';
import { readRecords } from './record-reader';

export type IngestFormat = 'openalex' | 'beir';

export interface IngestOptions {
  readonly format?: IngestFormat | undefined;
  /** Collection name; defaults from the file name (or its folder, for a BEIR corpus.jsonl). */
  readonly collection?: string | undefined;
  /** Embed chunks now, or leave them for `citegraph embed`. */
  readonly embed: 'now' | 'defer';
  readonly progress?: boolean;
  /** Resolve document references the graph does not hold through Crossref and OpenAlex (default: the setting). */
  readonly resolveOnline?: boolean | undefined;
}

export interface SkippedRecord {
  readonly where: string;
  readonly reason: string;
}

/** What deleting a collection did. */
export interface CollectionDeletion {
  collection: string;
  /** Papers that were in the collection. */
  papers: number;
  /** Papers removed from the graph (in no other collection, cited by no full paper). */
  deleted: number;
  /** Papers kept as stubs because a full paper still cites them. */
  stubbed: number;
  /** Stubs, authors, institutions, venues and topics removed because nothing refers to them any more. */
  orphans: number;
}

/** What one ingest run did; counts are of what this run wrote. */
export interface IngestSummary {
  files: number;
  records: number;
  papersWritten: number;
  papersUnchanged: number;
  authorships: number;
  chunks: number;
  chunksEmbedded: number;
  citationEdges: number;
  selfCitationsSkipped: number;
  duplicatesInInput: number;
  /** Records not ingested, and where they were. */
  skipped: SkippedRecord[];
  /** Fields of ingested records not stored as given (wrong type, out of range, cut to the size cap). */
  warnings: SkippedRecord[];
  collections: string[];
  /** Documents (PDF, Markdown, HTML, text) of this run. */
  documents: DocumentCounts;
  timings: { totalMs: number; embedMs: number; writeMs: number; chunkMs: number; extractMs: number };
}

export interface DocumentCounts {
  /** Documents written (new papers and full texts joined to papers already in the graph). */
  written: number;
  /** Of those, documents that became the full text of a paper already in the graph. */
  joined: number;
  /** The same file again: nothing written. */
  unchanged: number;
  pages: number;
  sections: number;
  chunks: number;
  references: number;
  /** Resolved in the graph or online. */
  referencesResolved: number;
  /** Of which through Crossref/OpenAlex (papers the graph did not hold). */
  referencesResolvedOnline: number;
}

export interface IngestDependencies {
  readonly executor: GraphExecutor;
  /** Needed when embedding now; loaded lazily by the caller. */
  readonly embedder: () => Promise<Embedder>;
  readonly tokenCounter: () => Promise<TokenCounter>;
  readonly chunking: ChunkingSettings;
  readonly ingest: IngestSettings;
  readonly documents: DocumentSettings;
  readonly logger: Logger;
  /** Resolves references through the scholarly APIs (wired by the app); without it, references resolve locally. */
  readonly onlineReferences?: OnlineReferenceResolver;
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

export interface PreparedPaper {
  record: WorkRecord;
  hash: string;
}

export interface ChunkRow {
  id: string;
  paperId: string;
  ordinal: number;
  text: string;
  start: number;
  end: number;
  tokenCount: number;
  section: string;
  paperTitle: string | null;
  embedding: number[] | null;
}

/** The text that is embedded for a chunk: the paper title travels with every chunk. */
export function embeddingInput(paperTitle: string | null, chunk: string, section: string): string {
  if (section === 'title' || !paperTitle) return chunk;
  return `${paperTitle}. ${chunk}`;
}

function contentHash(record: WorkRecord, chunking: ChunkingSettings): string {
  return createHash('sha256').update(JSON.stringify({ record, chunking })).digest('hex').slice(0, 24);
}

export function paperProps(record: WorkRecord, hash: string): Record<string, unknown> {
  return {
    s2Id: record.ids.s2 ?? null,
    doi: record.doi,
    title: record.title,
    abstract: record.abstract,
    year: record.year,
    publicationDate: record.publicationDate,
    type: record.type,
    citedByCount: record.citedByCount,
    isRetracted: record.isRetracted,
    source: record.source,
    openalexId: record.ids.openalex ?? null,
    pmid: record.ids.pmid ?? null,
    mag: record.ids.mag ?? null,
    referenceCount: record.references.length,
    // Parallel lists (Neo4j stores no maps on nodes): OpenAlex's citations per year.
    citationYears: record.countsByYear?.length ? record.countsByYear.map((entry) => entry.year) : null,
    citationCounts: record.countsByYear?.length ? record.countsByYear.map((entry) => entry.citations) : null,
    contentHash: hash,
    // Authorships carry their own institutions (AUTHORED.institutions): per-paper affiliations are known. Papers
    // stored before that have only the authors' affiliations over all their papers (AFFILIATED_WITH).
    affiliationsPerPaper: true,
  };
}

function emptySummary(): IngestSummary {
  return {
    files: 0,
    records: 0,
    papersWritten: 0,
    papersUnchanged: 0,
    authorships: 0,
    chunks: 0,
    chunksEmbedded: 0,
    citationEdges: 0,
    selfCitationsSkipped: 0,
    duplicatesInInput: 0,
    skipped: [],
    warnings: [],
    collections: [],
    documents: {
      written: 0,
      joined: 0,
      unchanged: 0,
      pages: 0,
      sections: 0,
      chunks: 0,
      references: 0,
      referencesResolved: 0,
      referencesResolvedOnline: 0,
    },
    timings: { totalMs: 0, embedMs: 0, writeMs: 0, chunkMs: 0, extractMs: 0 },
  };
}

/**
 * Ingests files into the graph in batches. Each batch is one write transaction, so a record is written whole or
 * not at all; a batch that fails is retried record by record so that one bad record costs only itself. Unchanged
 * papers (same content hash) are not rewritten, which makes a second run cheap and a crashed run resumable.
 */
export class IngestService {
  constructor(private readonly deps: IngestDependencies) {}

  async ingestFiles(files: readonly string[], options: IngestOptions): Promise<IngestSummary> {
    const summary = emptySummary();
    const started = Date.now();
    for (const file of files) {
      if (documentFormat(file)) await this.ingestDocument(file, options, summary);
      else await this.ingestFile(file, options, summary);
      summary.files += 1;
    }
    summary.timings.totalMs = Date.now() - started;
    return summary;
  }

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
        const chunks = await this.prepareChunks(batch, deferred, summary);
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

  private async ingestFile(
    file: string,
    options: IngestOptions,
    summary: IngestSummary,
    write: (batch: PreparedPaper[], where: string[], collection: string) => Promise<void> = (
      batch,
      where,
      collection,
    ) => this.writeBatch(batch, where, collection, options, summary),
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

  /**
   * Ingests one document file (PDF, Markdown, HTML, text) in one write transaction: a file that cannot be read is
   * skipped with the reason and nothing of it is written; the same file again changes nothing.
   */
  private async ingestDocument(file: string, options: IngestOptions, summary: IngestSummary): Promise<void> {
    const collection = options.collection ?? 'documents';
    if (!summary.collections.includes(collection)) summary.collections.push(collection);
    const skip = (reason: string): void => {
      summary.skipped.push({ where: file, reason });
      this.deps.logger.warn(`${file}: ${reason}`);
    };
    summary.records += 1;
    let read;
    const started = Date.now();
    try {
      const size = (await stat(file)).size;
      if (size > this.deps.documents.maxBytes) {
        throw new DocumentError(
          'too-large',
          `${size} bytes, over the cap of ${this.deps.documents.maxBytes} (CITEGRAPH_DOCUMENT_MAX_BYTES)`,
        );
      }
      read = await readDocument(path.basename(file), await readFile(file), {
        ...this.deps.documents,
        // An operator's own file: its text is kept whole, however long (uploads are capped, see document sets).
        maxTextChars: Number.MAX_SAFE_INTEGER,
      });
    } catch (error) {
      summary.timings.extractMs += Date.now() - started;
      if (error instanceof DocumentError) return skip(`${error.kind}: ${error.message}`);
      return skip(`cannot read: ${(error as Error).message}`);
    }
    summary.timings.extractMs += read.extractMs;
    const match = await matchDocument(this.deps.executor, read, this.deps.chunking);
    if (match.unchanged) {
      await this.deps.executor.write(queries().touchCollections({ ids: [match.paperId], collection }));
      summary.documents.unchanged += 1;
      summary.papersUnchanged += 1;
      return;
    }
    const chunkStarted = Date.now();
    const chunks = documentChunks(read, `${match.paperId}#t`, this.deps.chunking, await this.deps.tokenCounter());
    summary.timings.chunkMs += Date.now() - chunkStarted;
    if (options.embed === 'now' && chunks.length > 0) {
      const embedStarted = Date.now();
      const embedder = await this.deps.embedder();
      const title = read.identity.title;
      const vectors = await embedder.embed(chunks.map((chunk) => embeddingInput(title, chunk.text, 'text')));
      chunks.forEach((chunk, index) => {
        chunk.embedding = Array.from(vectors[index]!);
      });
      summary.timings.embedMs += Date.now() - embedStarted;
    }
    const online = (options.resolveOnline ?? this.deps.documents.resolveOnline) ? this.deps.onlineReferences : null;
    const resolved = await documentReferences(this.deps.executor, read.references, online ?? null);
    const references = resolved.filter((ref) => ref.id !== match.paperId);
    const writeStarted = Date.now();
    try {
      await this.deps.executor.writeTransaction('ingest-document', async (tx) => {
        const before = await affectedBefore(tx, [match.paperId]);
        await tx.run(
          queries().writeDocument({
            paperId: match.paperId,
            newProps: newPaperProps(read),
            documentProps: documentProps(read, this.deps.chunking),
            collection,
            chunks,
            references,
          }),
        );
        if (match.by === 'new') {
          await tx.run(
            queries().replaceAuthorships({
              papers: [match.paperId],
              rows: read.identity.authors.map((name, order) => ({
                paperId: match.paperId,
                authorId: anonymousAuthorId(match.paperId, order),
                anonymous: true,
                name,
                orcid: null,
                position: order === 0 ? 'first' : order === read.identity.authors.length - 1 ? 'last' : 'middle',
                order,
                corresponding: false,
                institutions: [],
              })),
            }),
          );
        }
        await tx.run(refreshAggregates(before, [match.paperId]));
      });
    } catch (error) {
      const reason = error instanceof CitegraphError ? `${error.code}: ${error.message}` : String(error);
      if (error instanceof CitegraphError && error.retryable) throw error;
      return skip(`write failed: ${reason}`);
    }
    summary.timings.writeMs += Date.now() - writeStarted;
    summary.papersWritten += 1;
    summary.documents.written += 1;
    if (match.by === 'new') summary.authorships += read.identity.authors.length;
    if (match.by === 'doi' || match.by === 'title') summary.documents.joined += 1;
    summary.documents.pages += read.document.pages.length;
    summary.documents.sections += read.document.sections.length;
    summary.documents.chunks += chunks.length;
    summary.chunks += chunks.length;
    summary.chunksEmbedded += chunks.filter((chunk) => chunk.embedding !== null).length;
    summary.documents.references += resolved.length;
    summary.documents.referencesResolved += resolved.filter((ref) => ref.resolvedBy !== null).length;
    summary.documents.referencesResolvedOnline += resolved.filter(
      (ref) => ref.resolvedBy === 'openalex' || ref.resolvedBy === 'crossref',
    ).length;
    summary.citationEdges += references.length;
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
    const q = queries();
    const existing = await this.deps.executor.read<{ id: string; contentHash: string | null; stub: boolean }>(
      q.existingPapers({ ids: batch.map((paper) => paper.record.id) }),
    );
    const stored = new Map(existing.map((row) => [row.id, row]));
    const isUnchanged = (paper: PreparedPaper): boolean => {
      const row = stored.get(paper.record.id);
      return row !== undefined && !row.stub && row.contentHash === paper.hash;
    };
    const unchanged = batch.filter(isUnchanged);
    const changedIndexes = batch.map((_, index) => index).filter((index) => !isUnchanged(batch[index]!));
    if (unchanged.length > 0) {
      await this.deps.executor.write(
        q.touchCollections({ ids: unchanged.map((paper) => paper.record.id), collection }),
      );
      summary.papersUnchanged += unchanged.length;
    }
    if (changedIndexes.length === 0) return;
    const changed = changedIndexes.map((index) => batch[index]!);
    const chunkRows = await this.prepareChunks(changed, options, summary);
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

  private async prepareChunks(
    papers: PreparedPaper[],
    options: IngestOptions,
    summary: IngestSummary,
  ): Promise<ChunkRow[]> {
    const started = Date.now();
    const counter = await this.deps.tokenCounter();
    const rows: ChunkRow[] = [];
    for (const { record } of papers) {
      const source = record.abstract ?? record.title;
      if (!source) continue;
      const section = record.abstract ? 'abstract' : 'title';
      for (const chunk of chunkText(source, this.deps.chunking, counter)) {
        rows.push({
          id: `${record.id}#${chunk.ordinal}`,
          paperId: record.id,
          ordinal: chunk.ordinal,
          text: chunk.text,
          start: chunk.start,
          end: chunk.end,
          tokenCount: chunk.tokenCount,
          section,
          paperTitle: record.title,
          embedding: null,
        });
      }
    }
    summary.timings.chunkMs += Date.now() - started;
    if (options.embed === 'now' && rows.length > 0) {
      const embedStarted = Date.now();
      const embedder = await this.deps.embedder();
      const vectors = await embedder.embed(rows.map((row) => embeddingInput(row.paperTitle, row.text, row.section)));
      rows.forEach((row, index) => {
        row.embedding = Array.from(vectors[index]!);
      });
      summary.timings.embedMs += Date.now() - embedStarted;
    }
    return rows;
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

  /**
   * Writes works found by the scholarly APIs into the `external` collection, embedded now and stamped with the time
   * they were fetched; returns the graph ids they got (a work already known by its DOI keeps its id).
   */
  writeFetched(records: readonly WorkRecord[]): Promise<IngestSummary & { paperIds: string[] }> {
    return this.writeRecords(records, { collection: 'external', embed: 'now', fetchedAt: new Date().toISOString() });
  }

  /**
   * Deletes a collection: its papers leave it; a paper in no other collection goes with its chunks and edges (or stays
   * as a stub while a full paper still cites it), and the stubs, authors, institutions, venues and topics left with no
   * reason to exist go too. Each batch is one transaction; a re-run finishes an interrupted deletion.
   */
  async deleteCollection(collection: string): Promise<CollectionDeletion> {
    const q = queries();
    const ids = (await this.deps.executor.read<{ id: string }>(q.papersInCollection({ collection }))).map(
      (row) => row.id,
    );
    const result: CollectionDeletion = { collection, papers: ids.length, deleted: 0, stubbed: 0, orphans: 0 };
    for (let offset = 0; offset < ids.length; offset += this.deps.ingest.batchSize) {
      const batch = ids.slice(offset, offset + this.deps.ingest.batchSize);
      await this.deps.executor.writeTransaction(`delete collection ${collection}`, async (tx) => {
        const left = await tx.run<{
          id: string;
          stubs: string[];
          authors: string[];
          venues: string[];
          topics: string[];
        }>(q.leaveCollection({ ids: batch, collection }));
        if (left.length === 0) return;
        const before = await affectedBefore(
          tx,
          left.map((row) => row.id),
        );
        const [removed] = await tx.run<{ deleted: number; stubbed: string[] }>(
          q.removePapers({ ids: left.map((row) => row.id) }),
        );
        const unique = (lists: string[][]) => [...new Set(lists.flat())];
        const [orphans] = await tx.run<Record<string, number>>(
          q.removeOrphans({
            stubs: unique([...left.map((row) => row.stubs), removed?.stubbed ?? []]),
            authors: unique(left.map((row) => row.authors)),
            venues: unique(left.map((row) => row.venues)),
            topics: unique(left.map((row) => row.topics)),
          }),
        );
        // The papers left are deleted or, still cited by a full paper, made stubs: either way written.
        await tx.run(
          refreshAggregates(
            before,
            left.map((row) => row.id),
          ),
        );
        result.deleted += removed?.deleted ?? 0;
        result.stubbed += removed?.stubbed.length ?? 0;
        result.orphans += Object.values(orphans ?? {}).reduce((sum, n) => sum + n, 0);
      });
    }
    return result;
  }

  /** Embeds every chunk that has no embedding yet (chunks ingested with deferred embedding). Resumable. */
  async embedMissing(
    batchSize = 256,
    progressEnabled = Boolean(process.stderr.isTTY),
  ): Promise<{ embedded: number; embedMs: number; writeMs: number }> {
    const q = queries();
    const progress = new Progress(progressEnabled);
    const [{ missing } = { missing: 0 }] = await this.deps.executor.read<{ missing: number }>(
      q.countChunksMissingEmbedding({}),
    );
    let embedded = 0;
    let embedMs = 0;
    let writeMs = 0;
    for (;;) {
      const rows = await this.deps.executor.read<{
        id: string;
        text: string;
        paperTitle: string | null;
        section: string;
      }>(q.chunksMissingEmbedding({ limit: batchSize }));
      if (rows.length === 0) break;
      const embedder = await this.deps.embedder();
      let started = Date.now();
      const vectors = await embedder.embed(
        rows.map((row) => embeddingInput(row.paperTitle, row.text, row.section ?? 'abstract')),
      );
      embedMs += Date.now() - started;
      started = Date.now();
      await this.deps.executor.write(
        q.setChunkEmbeddings({
          rows: rows.map((row, index) => ({ id: row.id, embedding: Array.from(vectors[index]!) })),
        }),
      );
      writeMs += Date.now() - started;
      embedded += rows.length;
      progress.update('embedding:', embedded, 'chunks', missing > 0 ? embedded / missing : undefined);
    }
    progress.done();
    return { embedded, embedMs, writeMs };
  }
}

/** The summary as text for people. */
export function formatSummary(summary: IngestSummary): string {
  const lines = [
    `files: ${summary.files}  collections: ${summary.collections.join(', ')}`,
    `records read: ${summary.records}  papers written: ${summary.papersWritten}  unchanged: ${summary.papersUnchanged}  duplicates in input: ${summary.duplicatesInInput}`,
    `authorships: ${summary.authorships}  chunks: ${summary.chunks} (embedded ${summary.chunksEmbedded})  citation edges: ${summary.citationEdges}  self-citations skipped: ${summary.selfCitationsSkipped}`,
    `time: ${(summary.timings.totalMs / 1000).toFixed(1)}s (embedding ${(summary.timings.embedMs / 1000).toFixed(1)}s, writing ${(summary.timings.writeMs / 1000).toFixed(1)}s, chunking ${(summary.timings.chunkMs / 1000).toFixed(1)}s)`,
    `skipped: ${summary.skipped.length}  warnings: ${summary.warnings.length}`,
  ];
  const docs = summary.documents;
  if (docs.written + docs.unchanged > 0) {
    lines.splice(
      3,
      0,
      `documents: ${docs.written} written (${docs.joined} joined to papers in the graph), ${docs.unchanged} unchanged  pages: ${docs.pages}  sections: ${docs.sections}  chunks: ${docs.chunks}  references: ${docs.referencesResolved}/${docs.references} resolved (${docs.referencesResolvedOnline} online)  extraction: ${(summary.timings.extractMs / 1000).toFixed(1)}s`,
    );
  }
  const reasons = new Map<string, number>();
  for (const skip of summary.skipped) {
    const key = skip.reason.replace(/\d+/g, 'N').slice(0, 80);
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) lines.push(`  ${count} × ${reason}`);
  for (const skip of summary.skipped.slice(0, 20)) lines.push(`  ${skip.where}: ${skip.reason}`);
  if (summary.skipped.length > 20) lines.push(`  … and ${summary.skipped.length - 20} more`);
  for (const warning of summary.warnings.slice(0, 10)) lines.push(`  warning ${warning.where}: ${warning.reason}`);
  if (summary.warnings.length > 10) lines.push(`  … and ${summary.warnings.length - 10} more warnings`);
  return lines.join('\n');
}

/**
 * A paper's part in the stored aggregates as it stood before a write (aggregates/affected-before): whether it is
 * full, what it cites, its venue, its people (each once), its citation counts, year and topics.
 */
interface PaperPart {
  id: string;
  full: boolean;
  cited: string[];
  venue: string | null;
  people: string[];
  global: number;
  internal: number;
  year: number | null;
  topics: Array<{ id: string; score: number | null }>;
}

/** Reads the parts of `papers` in the stored aggregates; run in the write's transaction, before the write. */
async function affectedBefore(tx: TransactionRunner, papers: readonly string[]): Promise<PaperPart[]> {
  // Each paper once: a part counted twice would be taken off twice.
  const rows = await tx.run<{ state: PaperPart }>(queries().affectedBefore({ papers: [...new Set(papers)] }));
  return rows.map((row) => row.state);
}

/**
 * The update of the stored aggregates that follows a write to `written`, whose parts before it are `before`: it takes
 * off what they counted for and adds what they count for now (aggregates/refresh).
 */
function refreshAggregates(before: PaperPart[], written: readonly string[]) {
  return queries().refreshAggregates({ written: [...new Set(written)], before, strongScore: STRONG_TOPIC_SCORE });
}

/** One authorship as the graph stores it: the AUTHORED edge, its Author and the author's institutions. */
export interface AuthorshipRow {
  paperId: string;
  authorId: string;
  anonymous: boolean;
  name: string;
  orcid: string | null;
  position: string;
  order: number;
  corresponding: boolean;
  institutions: WorkRecord['authorships'][number]['institutions'];
}

/** The rows a batch of papers writes besides the papers themselves: the one mapping the Bolt and bulk paths share. */
export function graphRows(papers: readonly PreparedPaper[]): {
  authorRows: AuthorshipRow[];
  venueRows: Array<NonNullable<WorkRecord['venue']> & { paperId: string; venueId: string }>;
  topicRows: Array<WorkRecord['topics'][number] & { paperId: string; topicId: string }>;
  citationRows: Array<{ from: string; to: string; toDoi: string | null }>;
  selfCitations: number;
} {
  const authorRows: AuthorshipRow[] = [];
  const venueRows: Array<NonNullable<WorkRecord['venue']> & { paperId: string; venueId: string }> = [];
  const topicRows: Array<WorkRecord['topics'][number] & { paperId: string; topicId: string }> = [];
  const citationRows: Array<{ from: string; to: string; toDoi: string | null }> = [];
  let selfCitations = 0;
  for (const { record } of papers) {
    for (const authorship of record.authorships) {
      authorRows.push({
        paperId: record.id,
        authorId: authorship.authorId ?? anonymousAuthorId(record.id, authorship.order),
        anonymous: authorship.authorId === null,
        name: authorship.name,
        orcid: authorship.orcid,
        position: authorship.position,
        order: authorship.order,
        corresponding: authorship.corresponding,
        institutions: authorship.institutions,
      });
    }
    if (record.venue) venueRows.push({ paperId: record.id, venueId: record.venue.id, ...record.venue });
    for (const topic of record.topics) topicRows.push({ paperId: record.id, topicId: topic.id, ...topic });
    for (const reference of record.references) {
      if (reference === record.id) selfCitations += 1;
      else
        citationRows.push({
          from: record.id,
          to: reference,
          toDoi: reference.startsWith('doi:') ? reference.slice(4) : null,
        });
    }
  }
  return { authorRows, venueRows, topicRows, citationRows, selfCitations };
}
