import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip, gunzipSync } from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { isResultPage } from './openalex';

/** One raw record, or the reason a part of the input could not be read; `where` is "file:line" or "file[item]". */
export type RawRecord =
  | { readonly kind: 'record'; readonly where: string; readonly value: unknown }
  | { readonly kind: 'error'; readonly where: string; readonly reason: string };

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(2);
    const { bytesRead } = await handle.read(buffer, 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

function* expand(value: unknown, where: string): Generator<RawRecord> {
  if (isResultPage(value)) {
    let index = 0;
    for (const item of value.results) yield { kind: 'record', where: `${where}[result ${index++}]`, value: item };
  } else {
    yield { kind: 'record', where, value };
  }
}

/** Reads a whole JSON document: an array of records or an API result page. */
async function* readDocument(file: string, gzip: boolean): AsyncGenerator<RawRecord> {
  let textContent: string;
  try {
    const buffer = await readFile(file);
    textContent = (gzip ? gunzipSync(buffer) : buffer).toString('utf8');
  } catch (error) {
    yield { kind: 'error', where: file, reason: `cannot read: ${(error as Error).message}` };
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(textContent);
  } catch (error) {
    yield { kind: 'error', where: file, reason: `invalid JSON document: ${(error as Error).message}` };
    return;
  }
  if (Array.isArray(parsed)) {
    let index = 0;
    for (const item of parsed) yield* expand(item, `${file}[item ${index++}]`);
  } else {
    yield* expand(parsed, file);
  }
}

/**
 * Streams the records of a file: JSON Lines (optionally gzip, the OpenAlex snapshot format), a JSON array, or an API
 * result page (`{meta, results}`, also one per line). A bad line is reported with its number and the rest is read;
 * a truncated gzip stops the file there with an error that says how far it got. `meter.bytes` counts the file's
 * bytes read so far.
 */
export async function* readRecords(file: string, meter?: { bytes: number }): AsyncGenerator<RawRecord> {
  let gzip: boolean;
  try {
    gzip = await isGzip(file);
  } catch (error) {
    yield { kind: 'error', where: file, reason: `cannot open: ${(error as Error).message}` };
    return;
  }
  const raw = createReadStream(file);
  // Bytes of the file read so far (compressed ones for gzip): how far through the file the reading is.
  if (meter) raw.on('data', (chunk) => (meter.bytes += chunk.length));
  const source = gzip ? raw.pipe(createGunzip()) : raw;
  let streamError: Error | undefined;
  const remember = (error: Error): void => {
    streamError ??= error;
  };
  raw.on('error', remember);
  source.on('error', remember);
  const lines = createInterface({ input: source, crlfDelay: Infinity });
  let lineNumber = 0;
  let firstContent: string | undefined;
  try {
    for await (const line of lines) {
      lineNumber += 1;
      const trimmed = line.trim();
      if (trimmed.length === 0) continue;
      let value: unknown;
      try {
        value = JSON.parse(trimmed);
      } catch (error) {
        if (firstContent === undefined && (trimmed.startsWith('[') || trimmed.startsWith('{'))) {
          // Not JSON Lines: a pretty-printed document. Read it whole instead.
          lines.close();
          raw.destroy();
          yield* readDocument(file, gzip);
          return;
        }
        yield { kind: 'error', where: `${file}:${lineNumber}`, reason: `invalid JSON: ${(error as Error).message}` };
        firstContent ??= trimmed;
        continue;
      }
      firstContent ??= trimmed;
      if (Array.isArray(value)) {
        let index = 0;
        for (const item of value) yield* expand(item, `${file}:${lineNumber}[item ${index++}]`);
      } else {
        yield* expand(value, `${file}:${lineNumber}`);
      }
    }
  } catch (error) {
    remember(error as Error);
  }
  if (streamError) {
    const reason = /unexpected end of file/i.test(streamError.message)
      ? `truncated gzip: input ends after line ${lineNumber}`
      : `read failed after line ${lineNumber}: ${streamError.message}`;
    yield { kind: 'error', where: `${file}:${lineNumber + 1}`, reason };
  }
}
