import { pathToFileURL } from 'node:url';
import { importModule } from '../esm-import';

/** One run of text on a PDF page as pdf.js reports it; x/y are the baseline origin in PDF points (y grows upward). */
export interface PdfTextItem {
  readonly s: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  /** Font size (the text's height). */
  readonly h: number;
  readonly font: string;
  /** Set sideways (turned a quarter or more): margin text such as an arXiv stamp, not the page's flow. */
  readonly rotated?: boolean;
}

export interface PdfPage {
  readonly number: number;
  readonly width: number;
  readonly height: number;
  readonly items: readonly PdfTextItem[];
}

export interface PdfContent {
  readonly pageCount: number;
  /** The document information dictionary (Title, Author, Subject, Keywords, Producer, …). */
  readonly info: Record<string, unknown>;
  /** The XMP properties that say who a document is (dc:title, dc:creator, prism:doi, prism:coverdate, …). */
  readonly xmp: Record<string, string | string[]>;
  readonly pages: readonly PdfPage[];
}

/** Why a PDF could not be read; `reason` is for people, `kind` for code. */
export class PdfError extends Error {
  constructor(
    readonly kind: 'encrypted' | 'corrupt' | 'too-many-pages' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

interface PdfjsTextItem {
  str?: unknown;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

interface Pdfjs {
  getDocument(options: Record<string, unknown>): {
    promise: Promise<{
      numPages: number;
      getMetadata(): Promise<{ info?: unknown; metadata?: Iterable<[string, unknown]> | null }>;
      getPage(number: number): Promise<{
        getViewport(options: { scale: number }): { width: number; height: number };
        getTextContent(options: Record<string, unknown>): Promise<{ items: PdfjsTextItem[] }>;
        cleanup(): void;
      }>;
      destroy(): Promise<void>;
    }>;
  };
}

/** The error names pdf.js gives, as the kinds citegraph reports. */
function pdfError(error: unknown, maxPages: number): PdfError {
  const name = (error as Error | undefined)?.name ?? 'Error';
  const text = String((error as Error | undefined)?.message ?? error);
  if (name === 'PasswordException') return new PdfError('encrypted', 'the PDF is encrypted (password protected)');
  if (name === 'TooManyPages') return new PdfError('too-many-pages', `${text} pages, over the cap of ${maxPages}`);
  if (name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException') {
    return new PdfError('corrupt', `not a readable PDF (${text.slice(0, 200)})`);
  }
  return new PdfError('failed', `text extraction failed: ${text.slice(0, 200)}`);
}

/** XMP properties read (the rest — thumbnails, schemas, edit histories — can be large and say nothing of identity). */
const XMP_IDENTITY = new Set([
  'dc:title',
  'dc:creator',
  'dc:date',
  'prism:doi',
  'prism:coverdate',
  'prism:publicationdate',
  'prism:coverdisplaydate',
]);

/** A page size that is a number and not absurd: layout never allocates by it, but it bounds what it reads. */
const saneSize = (value: number): number => (Number.isFinite(value) && value > 0 ? Math.min(value, 1e6) : 612);

/**
 * Reads the text runs of every page of a PDF with pdf.js, in this process. Call it only inside the document reader
 * process (src/ingest/document-reader-process.ts), whose memory, CPU time and wall time the service bounds and which it
 * kills when the client goes away; encrypted, corrupt and over-long PDFs end in a `PdfError`.
 */
export async function extractPdf(data: Uint8Array, options: { maxPages: number }): Promise<PdfContent> {
  try {
    const pdfjs = (await importModule(pdfjsModule())) as Pdfjs;
    const doc = await pdfjs.getDocument({
      data,
      verbosity: 0,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    }).promise;
    try {
      if (doc.numPages > options.maxPages) {
        throw Object.assign(new Error(String(doc.numPages)), { name: 'TooManyPages' });
      }
      let info: Record<string, unknown> = {};
      const xmp: Record<string, string | string[]> = {};
      try {
        const metadata = await doc.getMetadata();
        info = JSON.parse(JSON.stringify(metadata.info ?? {})) as Record<string, unknown>;
        for (const [key, value] of metadata.metadata ?? []) {
          if (!XMP_IDENTITY.has(key.toLowerCase())) continue;
          if (typeof value === 'string') xmp[key.toLowerCase()] = value.slice(0, 1000);
          else if (Array.isArray(value))
            xmp[key.toLowerCase()] = value
              .filter((v): v is string => typeof v === 'string')
              .map((v) => v.slice(0, 300));
        }
      } catch {
        info = {};
      }
      const pages: PdfPage[] = [];
      for (let number = 1; number <= doc.numPages; number += 1) {
        const page = await doc.getPage(number);
        const viewport = page.getViewport({ scale: 1 });
        const content = await page.getTextContent({ disableNormalization: false });
        const items: PdfTextItem[] = [];
        for (const item of content.items) {
          if (typeof item.str !== 'string' || item.str.length === 0) continue;
          const t = item.transform;
          items.push({
            s: item.str,
            x: t[4]!,
            y: t[5]!,
            w: item.width,
            h: item.height || Math.hypot(t[2]!, t[3]!),
            font: item.fontName,
            // The text matrix turns the baseline more than it keeps it: set sideways.
            ...(Math.abs(t[1]!) > Math.abs(t[0]!) ? { rotated: true } : {}),
          });
        }
        pages.push({ number, width: saneSize(viewport.width), height: saneSize(viewport.height), items });
        page.cleanup();
      }
      return { pageCount: doc.numPages, info, xmp, pages };
    } finally {
      await doc.destroy();
    }
  } catch (error) {
    throw error instanceof PdfError ? error : pdfError(error, options.maxPages);
  }
}

let moduleUrl: string | undefined;
function pdfjsModule(): string {
  moduleUrl ??= pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
  return moduleUrl;
}
