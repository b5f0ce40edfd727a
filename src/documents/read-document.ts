import { createHash } from 'node:crypto';
import path from 'node:path';
import { buildDocument, type DocumentMetadata, type DocumentText } from './document-text';
import { arxivStamp, documentIdentity, type PdfSources, type ReferenceEntry, splitReferences } from './identity';
import { htmlBlocks, markdownBlocks, plainTextBlocks } from './markup';
import { extractPdf, PdfError } from './pdf-extract';
import { pdfBlocks, textDensity } from './pdf-layout';

/** File name endings read as documents (the rest of `citegraph ingest` reads records). */
export const DOCUMENT_EXTENSIONS: Readonly<Record<string, DocumentText['format']>> = {
  '.pdf': 'pdf',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.txt': 'text',
};

export function documentFormat(name: string): DocumentText['format'] | null {
  return DOCUMENT_EXTENSIONS[path.extname(name).toLowerCase()] ?? null;
}

export interface DocumentLimits {
  readonly maxBytes: number;
  readonly maxPages: number;
  /** Wall and CPU time of the reading (see src/ingest/document-reader.ts). */
  readonly timeoutMs: number;
  /** Resident memory of the reading process, buffers included. */
  readonly maxMemoryMb: number;
  /** Longest stored text; a longer document is refused (its text would make thousands of chunks). */
  readonly maxTextChars: number;
  /** The settings the byte and page caps come from, named in errors (uploads into sets have caps of their own). */
  readonly settingNames?: { readonly maxBytes: string; readonly maxPages: string };
}

const DOCUMENT_SETTINGS = { maxBytes: 'CITEGRAPH_DOCUMENT_MAX_BYTES', maxPages: 'CITEGRAPH_DOCUMENT_MAX_PAGES' };

/** What reading a document is bounded by in the process that reads it. */
export type ReadLimits = Pick<DocumentLimits, 'maxBytes' | 'maxPages' | 'maxTextChars' | 'settingNames'>;

/** Why a document was not ingested; the message names the problem, the caller names the file. */
export class DocumentError extends Error {
  constructor(
    readonly kind:
      | 'empty'
      | 'too-large'
      | 'too-many-pages'
      | 'no-text'
      | 'encrypted'
      | 'corrupt'
      | 'unsupported'
      | 'failed'
      | 'cancelled',
    message: string,
  ) {
    super(message);
  }
}

/** A document read whole: its stored text, identity and references, ready to chunk and write. */
export interface ReadDocument {
  readonly name: string;
  /** sha256 of the file's bytes: the same file again is the same document. */
  readonly contentHash: string;
  readonly bytes: number;
  readonly document: DocumentText;
  readonly identity: DocumentMetadata;
  readonly references: ReferenceEntry[];
  readonly extractMs: number;
}

/**
 * Reads one document from its bytes in this process; `name` gives the format (by extension) and appears in errors.
 * The service never calls it on its own event loop: `readDocument` (src/ingest/document-reader.ts) runs it in a
 * process of its own under memory, time and cancellation bounds.
 */
export async function readDocumentHere(name: string, data: Buffer, limits: ReadLimits): Promise<ReadDocument> {
  const started = Date.now();
  const format = documentFormat(name);
  if (!format)
    throw new DocumentError(
      'unsupported',
      `not a document format citegraph reads (${path.extname(name) || 'no extension'})`,
    );
  if (data.length === 0) throw new DocumentError('empty', 'the file is empty');
  if (data.length > limits.maxBytes) {
    throw new DocumentError(
      'too-large',
      `${data.length} bytes, over the cap of ${limits.maxBytes} (${(limits.settingNames ?? DOCUMENT_SETTINGS).maxBytes})`,
    );
  }
  let document: DocumentText;
  let sources: PdfSources = {};
  if (format === 'pdf') {
    if (data.subarray(0, 1024).indexOf('%PDF-') < 0) throw new DocumentError('corrupt', 'not a PDF (no %PDF- header)');
    let content;
    try {
      content = await extractPdf(new Uint8Array(data), { maxPages: limits.maxPages });
    } catch (error) {
      if (error instanceof PdfError) {
        const kind = error.kind;
        const suffix =
          error.kind === 'too-many-pages' ? ` (${(limits.settingNames ?? DOCUMENT_SETTINGS).maxPages})` : '';
        throw new DocumentError(kind, error.message + suffix);
      }
      throw error;
    }
    if (content.pageCount === 0) throw new DocumentError('no-text', 'the PDF has no pages');
    if (textDensity(content.pages) < 25) {
      throw new DocumentError(
        'no-text',
        `no text layer (${content.pageCount} page${content.pageCount === 1 ? '' : 's'} with almost no extractable text — a scanned PDF? run OCR first)`,
      );
    }
    // An arXiv stamp is set sideways in the first page's margin (read first), or printed whole among its lines.
    const first = content.pages[0]!.items;
    const arxiv =
      arxivStamp(
        first
          .filter((item) => item.rotated)
          .map((item) => item.s)
          .join(' '),
      ) ?? arxivStamp(first.map((item) => item.s).join(' '), true);
    sources = { info: content.info, xmp: content.xmp, arxiv };
    document = buildDocument('pdf', pdfBlocks(content.pages), { title: null, authors: [], doi: null, year: null });
  } else {
    if (data.includes(0)) throw new DocumentError('corrupt', 'binary content in a text document');
    const source = data.toString('utf8').replace(/^\uFEFF/, '');
    const { blocks, metadata } =
      format === 'markdown' ? markdownBlocks(source) : format === 'html' ? htmlBlocks(source) : plainTextBlocks(source);
    document = buildDocument(format, blocks, metadata);
    const pageCount = document.pages.length;
    if (pageCount > limits.maxPages) {
      throw new DocumentError(
        'too-many-pages',
        `${pageCount} pages, over the cap of ${limits.maxPages} (${(limits.settingNames ?? DOCUMENT_SETTINGS).maxPages})`,
      );
    }
  }
  if (document.text.trim().length === 0) throw new DocumentError('no-text', 'no text in the document');
  if (document.text.length > limits.maxTextChars) {
    throw new DocumentError(
      'too-large',
      `${document.text.length} characters of text, over the cap of ${limits.maxTextChars} (CITEGRAPH_MAX_TEXT_CHARS)`,
    );
  }
  const references = document.sections
    .filter((section) => section.kind === 'references')
    .flatMap((section) => splitReferences(document.text.slice(section.bodyStart, section.end)))
    .map((item, index) => ({ ...item, index: index + 1 }));
  return {
    name,
    contentHash: createHash('sha256').update(data).digest('hex'),
    bytes: data.length,
    document,
    identity: documentIdentity(document, sources),
    references,
    extractMs: Date.now() - started,
  };
}
