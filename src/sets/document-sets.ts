import { createHash, randomBytes } from 'node:crypto';
import type { ChunkingSettings, DocumentSetSettings, DocumentSettings } from '../config/settings';
import { readAndChunkDocument } from '../ingest/document-reader';
import { DocumentError, documentFormat } from '../documents/read-document';
import type { Embedder } from '../embedding/embedder';
import { CitegraphError, ErrorCode, badInput } from '../errors';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { documentProps, newPaperProps, resolveReferences } from '../ingest/document-ingest';
import { embeddingInput } from '../ingest/paper-rows';
import type { Logger } from '../logger';
import { type SetChunkRow, SetCorpus, type SetDocumentRow } from './set-corpus';

import {
  type AddedDocument,
  documentInfo,
  type DocumentSetInfo,
  safeFileName,
  setInfo,
  type SetOwner,
  type StoredSetRow,
} from './set-info';

export interface DocumentSetDependencies {
  executor: GraphExecutor;
  embedder: () => Promise<Embedder>;
  chunking: ChunkingSettings;
  documents: DocumentSettings;
  sets: DocumentSetSettings;
  /** Longest stored text of an uploaded document (CITEGRAPH_MAX_TEXT_CHARS). */
  maxTextChars: number;
  /** The model's WordPiece vocabulary, for chunking in the reader process. */
  vocabFile: string;
  logger: Logger;
  now?: () => number;
}

const SET_ID = /^ds_[A-Za-z0-9_-]{22}$/;

const notFound = (id: string) =>
  new CitegraphError(ErrorCode.NOT_FOUND, `no document set ${id.slice(0, 60)} (it may have expired or been deleted)`, {
    details: { argument: 'documentSet' },
  });

const setFull = (max: number) =>
  badInput(`the set already holds ${max} documents (CITEGRAPH_DOCUMENT_SET_MAX_DOCUMENTS)`);

const cancelled = (fileName: string) =>
  new CitegraphError(
    ErrorCode.CANCELLED,
    `${fileName}: the upload was cancelled (the client went away); nothing was stored`,
  );

/** Chunks embedded at a time while a document is added. */
const EMBED_SLICE = 16;

/**
 * Private document sets: a client's own documents, read and chunked as `citegraph ingest` reads them, kept under
 * labels of their own (DocumentSet, SetDocument, SetChunk) that no shared index, analytics query or statistic reads, so
 * that they never appear to anyone else. A set belongs to the key that created it — anyone else is told it does not
 * exist — and is deleted with every node of it when its time is up or on request. Its references to graph papers are
 * REFERS_TO edges, which the citation analytics (over CITES) do not see.
 */
export class DocumentSetService {
  private readonly now: () => number;

  constructor(private readonly deps: DocumentSetDependencies) {
    this.now = deps.now ?? Date.now;
  }

  /** Creates an empty set for `owner`, living `ttlSeconds` (at most the setting's TTL, which is the default). */
  async create(owner: SetOwner, ttlSeconds?: number | null): Promise<DocumentSetInfo> {
    const max = this.deps.sets.ttlSeconds;
    if (ttlSeconds != null && (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > max)) {
      throw badInput(`ttlSeconds must be a whole number in [1, ${max}] (CITEGRAPH_DOCUMENT_SET_TTL_SECONDS)`, {
        argument: 'ttlSeconds',
      });
    }
    const now = this.now();
    const id = `ds_${randomBytes(16).toString('base64url')}`;
    const rows = await this.deps.executor.write<{ id: string }>(
      queries().createSet({
        id,
        owner,
        now,
        expiresAt: now + (ttlSeconds ?? max) * 1000,
        maxSets: this.deps.sets.maxSets,
      }),
    );
    if (rows.length === 0) {
      throw badInput(
        `this key already holds ${this.deps.sets.maxSets} live document sets (CITEGRAPH_DOCUMENT_SET_MAX_SETS); delete one first`,
      );
    }
    return this.get(owner, id);
  }

  /** The owner's live set with its documents; NOT_FOUND for a set of another owner, an expired or unknown one. */
  async get(owner: SetOwner, id: string): Promise<DocumentSetInfo> {
    return setInfo(await this.stored(owner, id));
  }

  /** The owner's live sets, newest first. */
  async list(owner: SetOwner): Promise<DocumentSetInfo[]> {
    const rows = await this.deps.executor.read<{ id: string }>(queries().setsOfOwner({ owner, now: this.now() }));
    const sets = await Promise.all(rows.map((row) => this.get(owner, row.id).catch(() => null)));
    return sets.filter((set): set is DocumentSetInfo => set !== null);
  }

  /** Deletes the owner's set and every node of it; false when there was no such set (of this owner). */
  async delete(owner: SetOwner, id: string): Promise<boolean> {
    try {
      await this.stored(owner, id);
    } catch (error) {
      if (error instanceof CitegraphError && error.code === ErrorCode.NOT_FOUND) return false;
      throw error;
    }
    await this.deps.executor.write(queries().deleteSet({ id }));
    return true;
  }

  /** Deletes every expired set; returns how many. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const rows = await this.deps.executor.read<{ id: string }>(
        queries().expiredSets({ now: this.now(), limit: 100 }),
      );
      for (const row of rows) await this.deps.executor.write(queries().deleteSet({ id: row.id }));
      removed += rows.length;
      if (rows.length < 100) return removed;
    }
  }

  /**
   * Reads one uploaded file into the owner's set: read under the upload caps, chunked per section, embedded, its
   * references resolved to graph papers, and written in one statement — a file that cannot be read writes nothing
   * and its error names it. The same bytes again are the same document (`unchanged`).
   */
  async addDocument(
    owner: SetOwner,
    setId: string,
    name: string,
    data: Buffer,
    signal?: AbortSignal,
  ): Promise<AddedDocument> {
    const stored = await this.stored(owner, setId);
    const limits = this.deps.sets;
    const fileName = safeFileName(name);
    if (!fileName) throw badInput('the document needs a file name (its extension gives the format)');
    if (!documentFormat(fileName)) {
      throw badInput(`${fileName}: not a document format citegraph reads (.pdf, .md, .markdown, .html, .htm, .txt)`);
    }
    if (data.length > limits.maxUploadBytes) {
      throw badInput(
        `${fileName}: ${data.length} bytes, over the upload cap of ${limits.maxUploadBytes} (CITEGRAPH_DOCUMENT_SET_MAX_BYTES)`,
      );
    }
    const hash = createHash('sha256').update(data).digest('hex');
    const same = stored.documents.find((doc) => doc.documentHash === hash);
    if (same) return { set: setInfo(stored), document: documentInfo(same), unchanged: true };
    if (stored.documents.length >= limits.maxDocuments) throw setFull(limits.maxDocuments);
    const documentId = `set:${setId}:${hash.slice(0, 16)}`;
    let read;
    let chunks;
    try {
      // Read and chunked in the bounded reader process: neither parsing nor chunking runs on this event loop.
      ({ read, chunks } = await readAndChunkDocument(
        fileName,
        data,
        {
          maxBytes: limits.maxUploadBytes,
          maxPages: limits.maxPages,
          timeoutMs: this.deps.documents.timeoutMs,
          maxMemoryMb: this.deps.documents.maxMemoryMb,
          maxTextChars: this.deps.maxTextChars,
          settingNames: { maxBytes: 'CITEGRAPH_DOCUMENT_SET_MAX_BYTES', maxPages: 'CITEGRAPH_DOCUMENT_SET_MAX_PAGES' },
        },
        { idPrefix: `${documentId}#t`, chunking: this.deps.chunking, vocabFile: this.deps.vocabFile },
        signal,
      ));
    } catch (error) {
      if (error instanceof DocumentError) {
        if (error.kind === 'cancelled') throw cancelled(fileName);
        throw badInput(`${fileName}: ${error.kind}: ${error.message}`, { kind: error.kind });
      }
      throw error;
    }
    const embedder = await this.deps.embedder();
    // A slice at a time, so that a client that hangs up stops the work at the next slice and nothing is stored.
    for (let from = 0; from < chunks.length; from += EMBED_SLICE) {
      if (signal?.aborted) throw cancelled(fileName);
      const slice = chunks.slice(from, from + EMBED_SLICE);
      const vectors = await embedder.embed(
        slice.map((chunk) => embeddingInput(read.identity.title, chunk.text, 'text')),
      );
      slice.forEach((chunk, index) => {
        chunk.embedding = Array.from(vectors[index]!);
      });
    }
    if (signal?.aborted) throw cancelled(fileName);
    const resolved = await resolveReferences(this.deps.executor, read.references);
    const { title, year, doi, abstract, documentAuthors } = newPaperProps(read);
    const written = await this.deps.executor.write<{ id: string; chunks: number; resolved: number }>(
      queries().addSetDocument({
        setId,
        now: this.now(),
        maxDocuments: limits.maxDocuments,
        document: {
          title,
          year,
          doi,
          abstract,
          documentAuthors,
          ...documentProps(read, this.deps.chunking),
          id: documentId,
          chunkCount: chunks.length,
        },
        chunks,
        references: [...new Set(resolved.map((r) => r.paperId).filter((id): id is string => id !== null))],
      }),
    );
    if (written.length === 0) {
      // Expired, or filled up by uploads that ran alongside this one.
      const now = await this.stored(owner, setId);
      if (now.documents.length >= limits.maxDocuments) throw setFull(limits.maxDocuments);
      throw notFound(setId);
    }
    this.deps.logger.info(
      `document set ${setId}: ${fileName} added (${chunks.length} chunks, ${written[0]!.resolved}/${read.references.length} references resolved)`,
    );
    const after = await this.stored(owner, setId);
    const document = after.documents.find((doc) => doc.id === documentId)!;
    return { set: setInfo(after), document: documentInfo(document), unchanged: false };
  }

  /** The owner's live sets loaded for ranking in this request; NOT_FOUND for any that is not the owner's. */
  async open(owner: SetOwner, ids: readonly string[]): Promise<SetCorpus> {
    const unique = [...new Set(ids)];
    for (const id of unique) await this.stored(owner, id);
    const chunks = await this.deps.executor.read<SetChunkRow>(queries().setChunks({ setIds: unique }));
    const documentIds = [...new Set(chunks.map((chunk) => chunk.documentId))];
    const documents =
      documentIds.length === 0
        ? []
        : await this.deps.executor.read<{ document: SetDocumentRow }>(queries().setDocuments({ ids: documentIds }));
    return new SetCorpus(unique, new Map(documents.map((row) => [row.document.id, row.document])), chunks);
  }

  /**
   * The stored text of set documents by id. Only for ids taken from a set the caller was shown (the resolvers reach it
   * through the owner's set), never for an id a client names.
   */
  async documentTexts(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.deps.executor.read<{ id: string; text: string }>(
      queries().setDocumentText({ ids: [...ids] }),
    );
    return new Map(rows.map((row) => [row.id, row.text]));
  }

  /** How many nodes of a set are stored (set, documents, chunks): all zero once it is gone. */
  async nodeCount(id: string): Promise<{ sets: number; documents: number; chunks: number }> {
    const [row] = await this.deps.executor.read<{ sets: number; documents: number; chunks: number }>(
      queries().setNodeCount({ id }),
    );
    return row ?? { sets: 0, documents: 0, chunks: 0 };
  }

  /** The stored set when it is the owner's and alive; an expired one is deleted on the way. */
  private async stored(owner: SetOwner, id: string): Promise<StoredSetRow> {
    if (!SET_ID.test(id)) throw notFound(id);
    const [row] = await this.deps.executor.read<StoredSetRow>(queries().setById({ id }));
    if (!row || row.set.owner !== owner) throw notFound(id);
    if (row.set.expiresAt <= this.now()) {
      await this.deps.executor.write(queries().deleteSet({ id }));
      throw notFound(id);
    }
    return row;
  }
}
