import { DocumentError, readDocumentHere, type ReadLimits } from './read-document';

/**
 * The document reader process: started by `readDocument` (src/documents/isolated-reader.ts) for one document, it reads
 * the bytes it is sent, answers once and exits. Whatever a hostile file makes the parsers do — allocate a gigabyte,
 * recurse until the stack ends, loop for minutes — happens here, where the parent watches memory and time and kills
 * the process, and never on the event loop that serves requests.
 */

interface ReadRequest {
  readonly name: string;
  readonly data: Uint8Array;
  readonly limits: ReadLimits;
}

/** The answer sent back: the document read, or why not. */
export type ReaderAnswer =
  | { readonly ok: Awaited<ReturnType<typeof readDocumentHere>> }
  | { readonly error: { readonly kind: DocumentError['kind']; readonly message: string } };

function answerOf(error: unknown): ReaderAnswer {
  if (error instanceof DocumentError) return { error: { kind: error.kind, message: error.message } };
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { error: { kind: 'unsupported', message: 'the document is nested too deeply to read' } };
  }
  return {
    error: { kind: 'failed', message: `reading failed: ${String((error as Error)?.message ?? error).slice(0, 200)}` },
  };
}

process.once('message', (request: ReadRequest) => {
  void (async () => {
    let answer: ReaderAnswer;
    try {
      const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
      answer = { ok: await readDocumentHere(request.name, data, request.limits) };
    } catch (error) {
      answer = answerOf(error);
    }
    process.send!(answer, undefined, {}, () => process.exit(0));
  })();
});
