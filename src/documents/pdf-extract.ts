import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** One run of text on a PDF page as pdf.js reports it; x/y are the baseline origin in PDF points (y grows upward). */
export interface PdfTextItem {
  readonly s: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  /** Font size (the text's height). */
  readonly h: number;
  readonly font: string;
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
  readonly pages: readonly PdfPage[];
}

/** Why a PDF could not be read; `reason` is for people, `kind` for code. */
export class PdfError extends Error {
  constructor(
    readonly kind: 'encrypted' | 'corrupt' | 'too-many-pages' | 'timeout' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/*
 * pdf.js ships as ES modules only; this service is CommonJS. The extraction runs in a worker thread that imports it,
 * which also keeps a slow or hostile PDF off the event loop that serves requests, and lets a stuck one be terminated.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  try {
    const pdfjs = await import(workerData.module);
    const task = pdfjs.getDocument({
      data: workerData.data, verbosity: 0, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
      stopAtErrors: false,
    });
    const doc = await task.promise;
    if (doc.numPages > workerData.maxPages) {
      parentPort.postMessage({ error: { name: 'TooManyPages', message: String(doc.numPages) } });
      await doc.destroy();
      return;
    }
    let info = {};
    try { info = (await doc.getMetadata()).info || {}; } catch { info = {}; }
    const pages = [];
    for (let number = 1; number <= doc.numPages; number += 1) {
      const page = await doc.getPage(number);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent({ disableNormalization: false });
      const items = [];
      for (const item of content.items) {
        if (typeof item.str !== 'string' || item.str.length === 0) continue;
        const t = item.transform;
        items.push({ s: item.str, x: t[4], y: t[5], w: item.width, h: item.height || Math.hypot(t[2], t[3]), font: item.fontName });
      }
      pages.push({ number, width: viewport.width, height: viewport.height, items });
      page.cleanup();
    }
    parentPort.postMessage({ pageCount: doc.numPages, info: JSON.parse(JSON.stringify(info)), pages });
    await doc.destroy();
  } catch (error) {
    parentPort.postMessage({ error: { name: (error && error.name) || 'Error', message: String((error && error.message) || error) } });
  }
})();
`;

let moduleUrl: string | undefined;
function pdfjsModule(): string {
  moduleUrl ??= pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
  return moduleUrl;
}

/**
 * Reads the text runs of every page of a PDF with pdf.js in a worker thread. Encrypted, corrupt and over-long PDFs
 * and extraction that takes longer than `timeoutMs` end in a `PdfError`.
 */
export function extractPdf(data: Uint8Array, options: { maxPages: number; timeoutMs: number }): Promise<PdfContent> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: pdfjsModule(), data, maxPages: options.maxPages },
      resourceLimits: { maxOldGenerationSizeMb: 1024 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      action();
      void worker.terminate();
    };
    const timer = setTimeout(
      () => finish(() => reject(new PdfError('timeout', `text extraction took longer than ${options.timeoutMs} ms`))),
      options.timeoutMs,
    );
    worker.on('message', (message: PdfContent | { error: { name: string; message: string } }) => {
      if ('error' in message) {
        const { name, message: text } = message.error;
        const error =
          name === 'PasswordException'
            ? new PdfError('encrypted', 'the PDF is encrypted (password protected)')
            : name === 'TooManyPages'
              ? new PdfError('too-many-pages', `${text} pages, over the cap of ${options.maxPages}`)
              : name === 'InvalidPDFException' || name === 'FormatError' || name === 'UnknownErrorException'
                ? new PdfError('corrupt', `not a readable PDF (${text})`)
                : new PdfError('failed', `text extraction failed: ${text}`);
        finish(() => reject(error));
      } else finish(() => resolve(message));
    });
    worker.on('error', (error) =>
      finish(() => reject(new PdfError('failed', `text extraction failed: ${error.message}`))),
    );
    worker.on('exit', (code) =>
      finish(() => reject(new PdfError('failed', `text extraction stopped (worker exit ${code})`))),
    );
  });
}
