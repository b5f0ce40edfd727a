import path from 'node:path';
import { readFile, stat } from 'node:fs/promises';
import { DocumentError } from '../documents/read-document';
import { anonymousAuthorId } from '../domain';
import { CitegraphError } from '../errors';
import { queries } from '../graph/query-registry';
import { affectedBefore, refreshAggregates } from './aggregate-refresh';
import { readDocument } from './document-reader';
import { documentChunks, documentProps, documentReferences, matchDocument, newPaperProps } from './document-ingest';
import type { IngestDependencies, IngestOptions, IngestSummary } from './ingest-types';
import { embeddingInput } from './paper-rows';

/**
 * Ingests one document file (PDF, Markdown, HTML, text) in one write transaction: a file that cannot be read is
 * skipped with the reason and nothing of it is written; the same file again changes nothing.
 */
export async function ingestDocumentFile(
  deps: IngestDependencies,
  file: string,
  options: IngestOptions,
  summary: IngestSummary,
): Promise<void> {
  const collection = options.collection ?? 'documents';
  if (!summary.collections.includes(collection)) summary.collections.push(collection);
  const skip = (reason: string): void => {
    summary.skipped.push({ where: file, reason });
    deps.logger.warn(`${file}: ${reason}`);
  };
  summary.records += 1;
  let read;
  const started = Date.now();
  try {
    const size = (await stat(file)).size;
    if (size > deps.documents.maxBytes) {
      throw new DocumentError(
        'too-large',
        `${size} bytes, over the cap of ${deps.documents.maxBytes} (CITEGRAPH_DOCUMENT_MAX_BYTES)`,
      );
    }
    read = await readDocument(path.basename(file), await readFile(file), {
      ...deps.documents,
      // An operator's own file: its text is kept whole, however long (uploads are capped, see document sets).
      maxTextChars: Number.MAX_SAFE_INTEGER,
    });
  } catch (error) {
    summary.timings.extractMs += Date.now() - started;
    if (error instanceof DocumentError) return skip(`${error.kind}: ${error.message}`);
    return skip(`cannot read: ${(error as Error).message}`);
  }
  summary.timings.extractMs += read.extractMs;
  const match = await matchDocument(deps.executor, read, deps.chunking);
  if (match.unchanged) {
    await deps.executor.write(queries().touchCollections({ ids: [match.paperId], collection }));
    summary.documents.unchanged += 1;
    summary.papersUnchanged += 1;
    return;
  }
  const chunkStarted = Date.now();
  const chunks = documentChunks(read, `${match.paperId}#t`, deps.chunking, await deps.tokenCounter());
  summary.timings.chunkMs += Date.now() - chunkStarted;
  if (options.embed === 'now' && chunks.length > 0) {
    const embedStarted = Date.now();
    const embedder = await deps.embedder();
    const title = read.identity.title;
    const vectors = await embedder.embed(chunks.map((chunk) => embeddingInput(title, chunk.text, 'text')));
    chunks.forEach((chunk, index) => {
      chunk.embedding = Array.from(vectors[index]!);
    });
    summary.timings.embedMs += Date.now() - embedStarted;
  }
  const online = (options.resolveOnline ?? deps.documents.resolveOnline) ? deps.onlineReferences : null;
  const resolved = await documentReferences(deps.executor, read.references, online ?? null);
  const references = resolved.filter((ref) => ref.id !== match.paperId);
  const writeStarted = Date.now();
  try {
    await deps.executor.writeTransaction('ingest-document', async (tx) => {
      const before = await affectedBefore(tx, [match.paperId]);
      await tx.run(
        queries().writeDocument({
          paperId: match.paperId,
          newProps: newPaperProps(read),
          documentProps: documentProps(read, deps.chunking),
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
