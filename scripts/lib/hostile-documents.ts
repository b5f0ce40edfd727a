/**
 * Hostile documents for uploads: PDFs with absurd page sizes, a page of 100,000 text runs, content streams that
 * inflate to a gigabyte, and Markdown and text made to trip quadratic or recursive parsers. Written byte by byte here
 * (a PDF is a text format with offsets), so that the same files can be made by the benchmark and by a test. Used by
 * scripts/bench/hostile (full sizes), scripts/bench/uploads and test/e2e/hostile-front.test.ts (smaller).
 */
import { createDeflate, deflateSync } from 'node:zlib';

/** One hostile file to upload: its name (the extension gives the format) and bytes. */
export interface HostileDocument {
  readonly name: string;
  readonly what: string;
  readonly bytes: Buffer;
}

/**
 * A one-page PDF: a Helvetica page of `width` × `height` points whose content stream is `content` (already encoded,
 * with `filters` naming its decoding, innermost last as PDF lists them).
 */
export function pdfOf(options: {
  width: number;
  height: number;
  content: Buffer;
  filters?: readonly string[];
}): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (chunk: Buffer | string): void => {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (number: number, body: Buffer | string, stream?: Buffer): void => {
    offsets[number] = length;
    add(`${number} 0 obj\n`);
    add(body);
    if (stream) {
      add('\nstream\n');
      add(stream);
      add('\nendstream');
    }
    add('\nendobj\n');
  };
  add('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${options.width} ${options.height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
  );
  const filters = options.filters ?? [];
  const filter = filters.length === 0 ? '' : ` /Filter [${filters.map((name) => `/${name}`).join(' ')}]`;
  object(4, `<< /Length ${options.content.length}${filter} >>`, options.content);
  object(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const xref = length;
  add(`xref\n0 6\n0000000000 65535 f \n`);
  for (let number = 1; number <= 5; number += 1) add(`${String(offsets[number]).padStart(10, '0')} 00000 n \n`);
  add(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

/** Text drawn as two columns of ordinary lines, enough for the layout to look for a gutter. */
function twoColumnText(width: number, height: number): string {
  const lines: string[] = [];
  for (let row = 0; row < 40; row += 1) {
    const y = Math.max(20, height - 60 - row * 14);
    lines.push(`BT /F1 10 Tf ${50} ${y} Td (Left column line ${row} of ordinary words.) Tj ET`);
    lines.push(`BT /F1 10 Tf ${Math.round(width / 2) + 20} ${y} Td (Right column line ${row} of other words.) Tj ET`);
  }
  return lines.join('\n');
}

/** A page `width` points wide (1e9 made the gutter finder allocate an array of that length on the main thread). */
export function widePagePdf(width: number): Buffer {
  return pdfOf({ width, height: 792, content: Buffer.from(twoColumnText(612, 792), 'latin1') });
}

/** One page with `runs` separate text runs (each its own BT … ET). */
export function manyRunsPdf(runs: number): Buffer {
  const parts: string[] = [];
  for (let index = 0; index < runs; index += 1) {
    const x = 40 + (index % 50) * 10;
    const y = 750 - (Math.floor(index / 50) % 70) * 10;
    parts.push(`BT /F1 8 Tf ${x} ${y} Td (w${index % 97}) Tj ET`);
  }
  return pdfOf({
    width: 612,
    height: 792,
    content: deflateSync(Buffer.from(parts.join('\n'), 'latin1')),
    filters: ['FlateDecode'],
  });
}

/**
 * A content stream of `inflatedBytes` zero bytes (white space to PDF) behind two FlateDecode filters: a few kilobytes
 * on disk for a gigabyte inflated. The zeros are compressed a megabyte at a time, so making it needs little memory.
 */
export async function deflateBombPdf(inflatedBytes: number): Promise<Buffer> {
  const deflater = createDeflate({ level: 9 });
  const chunks: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    deflater.once('end', resolve);
    deflater.once('error', reject);
  });
  const slice = Buffer.alloc(1 << 20);
  for (let left = inflatedBytes; left > 0; left -= slice.length) {
    const piece = left >= slice.length ? slice : slice.subarray(0, left);
    if (!deflater.write(piece)) await new Promise((resolve) => deflater.once('drain', resolve));
  }
  deflater.end();
  await done;
  const outer = deflateSync(Buffer.concat(chunks), { level: 9 });
  return pdfOf({ width: 612, height: 792, content: outer, filters: ['FlateDecode', 'FlateDecode'] });
}

/** Markdown and text that tripped the parsers: quadratic emphasis, deep nesting, a paragraph of one-word lines. */
export function hostileTextDocuments(scale = 1): HostileDocument[] {
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  return [
    {
      name: 'emphasis.md',
      what: 'Markdown of "a *" repeated (quadratic emphasis)',
      bytes: Buffer.from('a * '.repeat(n(13_333))),
    },
    {
      name: 'quotes.md',
      what: 'block quotes nested 20,000 deep',
      bytes: Buffer.from(`${'> '.repeat(n(20_000))}deep\n`),
    },
    { name: 'lists.md', what: 'list items nested 20,000 deep', bytes: Buffer.from(`${'1. '.repeat(n(20_000))}deep\n`) },
    {
      name: 'lines.txt',
      what: '40,000 one-word lines in one paragraph',
      bytes: Buffer.from('word\n'.repeat(n(40_000))),
    },
  ];
}

/** Every hostile document at full size (the benchmark's set). */
export async function hostileDocuments(): Promise<HostileDocument[]> {
  return [
    { name: 'wide-1e9.pdf', what: 'a page 1e9 points wide', bytes: widePagePdf(1e9) },
    { name: 'wide-1e7.pdf', what: 'a page 1e7 points wide', bytes: widePagePdf(1e7) },
    { name: 'runs-100k.pdf', what: '100,000 text runs on one page', bytes: manyRunsPdf(100_000) },
    { name: 'bomb-1g.pdf', what: 'a content stream inflating to 1 GiB', bytes: await deflateBombPdf(1 << 30) },
    ...hostileTextDocuments(),
  ];
}
