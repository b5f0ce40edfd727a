import { fork } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DocumentError, type DocumentLimits, type ReadDocument } from '../documents/read-document';
import type { DocumentChunk } from './document-ingest';
import type { ChunkRequest, ReaderAnswer, ReadRequest } from './document-reader-process';

/**
 * Reading a document in a process of its own. A worker thread's heap limit does not cover ArrayBuffers (where pdf.js
 * inflates streams), and a thread that overflows or loops shares the server's process; a child process is bounded as a
 * whole: its resident memory (buffers included) is sampled and the process is killed past `maxMemoryMb`, it is killed
 * past `timeoutMs` of wall time or of CPU time, and when `signal` aborts (the client hung up). Whatever happens in it,
 * the server's event loop goes on serving.
 */

/** How often the reader's memory and CPU time are sampled. */
const SAMPLE_MS = 50;

/** The compiled entry point: next to this file when running from dist/, else in dist/ of the project. */
function readerScript(): string {
  const here = path.join(__dirname, 'document-reader-process.js');
  if (existsSync(here)) return here;
  const root = path.resolve(__dirname, '..', '..');
  const built = path.join(root, 'dist', 'src', 'ingest', 'document-reader-process.js');
  if (existsSync(built)) return built;
  throw new DocumentError('failed', 'the document reader is not built: run `npm run build` (or node scripts/setup.js)');
}

const PAGE_BYTES = 4096;

/** Resident bytes and CPU milliseconds of a process, from /proc (Linux); null where /proc is not there. */
export function processUsage(pid: number): { rssBytes: number; cpuMs: number } | null {
  try {
    const statm = readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, so read from its closing parenthesis): utime is 14th
    // and stime 15th of the whole line, in clock ticks (100 per second on Linux).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rssBytes: Number(statm[1]) * PAGE_BYTES, cpuMs: ticks * 10 };
  } catch {
    return null;
  }
}

/**
 * Reads one document (see `readDocumentHere`) in a reader process bounded by `limits`; a document that breaks a
 * bound, crashes the reader or is cancelled ends in a `DocumentError` that says which.
 */
export async function readDocument(
  name: string,
  data: Buffer,
  limits: DocumentLimits,
  signal?: AbortSignal,
): Promise<ReadDocument> {
  return (await runReader(name, data, limits, undefined, signal)).read;
}

/** Reads one document and chunks its text in the reader process (chunking a long text takes a while too). */
export async function readAndChunkDocument(
  name: string,
  data: Buffer,
  limits: DocumentLimits,
  chunk: ChunkRequest,
  signal?: AbortSignal,
): Promise<{ read: ReadDocument; chunks: DocumentChunk[] }> {
  const { read, chunks } = await runReader(name, data, limits, chunk, signal);
  return { read, chunks: chunks ?? [] };
}

function runReader(
  name: string,
  data: Buffer,
  limits: DocumentLimits,
  chunk: ChunkRequest | undefined,
  signal?: AbortSignal,
): Promise<{ read: ReadDocument; chunks: DocumentChunk[] | null }> {
  if (signal?.aborted) return Promise.reject(new DocumentError('cancelled', 'the reading was cancelled'));
  // Early refusals cost no process.
  if (data.length === 0) return Promise.reject(new DocumentError('empty', 'the file is empty'));
  if (data.length > limits.maxBytes) {
    return Promise.reject(
      new DocumentError(
        'too-large',
        `${data.length} bytes, over the cap of ${limits.maxBytes} (${limits.settingNames?.maxBytes ?? 'CITEGRAPH_DOCUMENT_MAX_BYTES'})`,
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = fork(readerScript(), [], {
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      // The heap is bounded by V8 too, so that most runaway parsers fail with an error before the sampler kills them.
      execArgv: [`--max-old-space-size=${Math.max(32, Math.floor(limits.maxMemoryMb * 0.75))}`],
    });
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearInterval(sampler);
      signal?.removeEventListener('abort', onAbort);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      outcome();
    };
    const fail = (kind: DocumentError['kind'], message: string) =>
      finish(() => reject(new DocumentError(kind, message)));
    const onAbort = () => fail('cancelled', 'the reading was cancelled (the client went away)');
    signal?.addEventListener('abort', onAbort, { once: true });
    const maxBytes = limits.maxMemoryMb * 1024 * 1024;
    const sampler = setInterval(() => {
      const usage = child.pid === undefined ? null : processUsage(child.pid);
      if (usage && usage.rssBytes > maxBytes) {
        fail(
          'too-large',
          `reading it needed more than ${limits.maxMemoryMb} MB (CITEGRAPH_DOCUMENT_MAX_MEMORY_MB; a compressed stream that inflates without end?)`,
        );
      } else if (Date.now() - started > limits.timeoutMs || (usage && usage.cpuMs > limits.timeoutMs)) {
        fail('failed', `reading it took longer than ${limits.timeoutMs} ms (CITEGRAPH_DOCUMENT_TIMEOUT_MS)`);
      }
    }, SAMPLE_MS);
    child.once('message', (answer: ReaderAnswer) => {
      if ('ok' in answer) {
        finish(() =>
          resolve({ read: { ...answer.ok.read, extractMs: Date.now() - started }, chunks: answer.ok.chunks }),
        );
      } else fail(answer.error.kind, answer.error.message);
    });
    child.once('error', (error) => fail('failed', `the document reader could not run: ${error.message}`));
    child.once('close', (code, killed) =>
      fail(
        'failed',
        killed === 'SIGKILL' || code === 134 || code === 133
          ? 'reading it ran out of memory'
          : `the document reader stopped (exit ${code ?? killed})`,
      ),
    );
    const request: ReadRequest = {
      name,
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      limits: {
        maxBytes: limits.maxBytes,
        maxPages: limits.maxPages,
        maxTextChars: limits.maxTextChars,
        ...(limits.settingNames ? { settingNames: limits.settingNames } : {}),
      },
      ...(chunk ? { chunk } : {}),
    };
    child.send(request);
  });
}
