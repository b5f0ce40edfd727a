import type { ChunkingSettings } from '../config/settings';
import { DocumentError, readDocumentHere, type ReadDocument, type ReadLimits } from '../documents/read-document';
import { WordPieceTokenizer } from '../embedding/wordpiece-tokenizer';
import { type DocumentChunk, documentChunks } from './document-ingest';

/**
 * The document reader process: started by `readDocument` (src/ingest/document-reader.ts) for one document, it reads
 * the bytes it is sent — and, when asked, chunks the text with the model's tokenizer — answers once and exits.
 * Whatever a hostile file makes the parsers do — allocate a gigabyte, recurse until the stack ends, loop for minutes —
 * happens here, where the parent watches memory and time and kills the process, and never on the event loop that
 * serves requests.
 */

/** Chunking asked of the reader: the chunks' id prefix, the chunking settings and the tokenizer's vocabulary. */
export interface ChunkRequest {
  readonly idPrefix: string;
  readonly chunking: ChunkingSettings;
  readonly vocabFile: string;
}

export interface ReadRequest {
  readonly name: string;
  readonly data: Uint8Array;
  readonly limits: ReadLimits;
  readonly chunk?: ChunkRequest;
}

/** The answer sent back: the document read (and chunked), or why not. */
export type ReaderAnswer =
  | { readonly ok: { readonly read: ReadDocument; readonly chunks: DocumentChunk[] | null } }
  | { readonly error: { readonly kind: DocumentError['kind']; readonly message: string } };

function answerOf(error: unknown): ReaderAnswer {
  if (error instanceof DocumentError) return { error: { kind: error.kind, message: error.message } };
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { error: { kind: 'unsupported', message: 'the document is nested too deeply to read' } };
  }
  const message = String((error as Error | undefined)?.message ?? error).slice(0, 200);
  return { error: { kind: 'failed', message: `reading failed: ${message}` } };
}

async function answer(request: ReadRequest): Promise<ReaderAnswer> {
  try {
    const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
    const read = await readDocumentHere(request.name, data, request.limits);
    const chunks = request.chunk
      ? documentChunks(
          read,
          request.chunk.idPrefix,
          request.chunk.chunking,
          WordPieceTokenizer.fromVocabFile(request.chunk.vocabFile),
        )
      : null;
    return { ok: { read, chunks } };
  } catch (error) {
    return answerOf(error);
  }
}

if (require.main === module) {
  process.once('message', (request: ReadRequest) => {
    void answer(request).then((reply) => process.send!(reply, undefined, {}, () => process.exit(0)));
  });
}
