/** What a private document set and its documents are, as stored and as shown: sections, pages, sizes, expiry. */
import path from 'node:path';
import { pagesOf } from '../documents/document-text';
import { type SetDocumentRow } from './set-corpus';

/** Who holds a set: `key:<name>` for an API key, `anonymous` for a caller without one on a loopback server. */
export type SetOwner = string;

export interface SetSection {
  title: string;
  kind: string;
  pageStart: number | null;
  pageEnd: number | null;
}

/** A document of a set as its owner sees it (no text). */
export interface SetDocumentInfo {
  id: string;
  name: string;
  format: string;
  title: string | null;
  year: number | null;
  doi: string | null;
  authors: string[];
  pageCount: number | null;
  chunkCount: number;
  sections: SetSection[];
  references: number;
  referencesResolved: number;
  contentHash: string;
  addedAt: string;
}

export interface DocumentSetInfo {
  id: string;
  createdAt: string;
  expiresAt: string;
  documents: SetDocumentInfo[];
}

/** The outcome of one upload: the document, and whether the same file was already in the set. */
export interface AddedDocument {
  set: DocumentSetInfo;
  document: SetDocumentInfo;
  unchanged: boolean;
}

export interface StoredSetRow {
  set: { id: string; owner: string; createdAt: number; expiresAt: number };
  documents: Array<
    Omit<SetDocumentRow, 'setId' | 'abstract'> & {
      documentHash: string;
      chunkCount: number | null;
      sectionTitles: string[];
      sectionKinds: string[];
      sectionStarts: number[];
      sectionEnds: number[];
      pageStarts: number[];
      pageNumbers: number[];
      referenceEntries: number | null;
      addedAt: number;
      resolved: number;
    }
  >;
}

/** Longest file name kept (its extension always kept). */
const MAX_FILE_NAME = 200;

/**
 * A file name as a client sent it, made safe to store, show and log: its last path component only (no `../`), no
 * control characters (NUL, CR, LF), no markup characters, white space folded, at most MAX_FILE_NAME characters with
 * its extension kept. Empty when nothing is left.
 */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, '')
    .replace(/[<>"'`]/g, '_')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  if (clean.length <= MAX_FILE_NAME) return clean;
  const extension = path.extname(clean).slice(0, 16);
  return clean.slice(0, MAX_FILE_NAME - extension.length) + extension;
}

export function documentInfo(row: StoredSetRow['documents'][number]): SetDocumentInfo {
  const textEnd = row.sectionEnds.length > 0 ? Math.max(...row.sectionEnds) : 0;
  const pages = row.pageStarts.map((start, index) => ({
    number: row.pageNumbers[index] ?? index + 1,
    start,
    end: row.pageStarts[index + 1] ?? textEnd,
  }));
  return {
    id: row.id,
    name: row.documentName,
    format: row.documentFormat,
    title: row.title,
    year: row.year,
    doi: row.doi,
    authors: row.documentAuthors ?? [],
    pageCount: row.pageCount,
    chunkCount: row.chunkCount ?? 0,
    sections: row.sectionTitles.map((title, index) => {
      const start = row.sectionStarts[index] ?? 0;
      return {
        title,
        kind: row.sectionKinds[index] ?? 'other',
        ...pagesOf(pages, start, row.sectionEnds[index] ?? start),
      };
    }),
    references: row.referenceEntries ?? 0,
    referencesResolved: row.resolved,
    contentHash: row.documentHash,
    addedAt: new Date(row.addedAt).toISOString(),
  };
}

export function setInfo(row: StoredSetRow): DocumentSetInfo {
  return {
    id: row.set.id,
    createdAt: new Date(row.set.createdAt).toISOString(),
    expiresAt: new Date(row.set.expiresAt).toISOString(),
    documents: row.documents.map(documentInfo),
  };
}
