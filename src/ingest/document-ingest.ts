import { createHash } from 'node:crypto';
import type { ChunkingSettings } from '../config/settings';
import { type DocumentSection, pagesOf } from '../documents/document-text';
import { type ReferenceEntry, titleKey } from '../documents/identity';
import type { ReadDocument } from '../documents/read-document';
import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import { contentTerms } from '../text';
import { chunkText, type StoredChunk, type TokenCounter } from './chunker';

/**
 * From a read document to what is written: chunks per section (never across one) with page numbers and offsets into
 * the stored text, the paper the document is (matched by DOI or normalised title and year), and its references
 * resolved to papers of the graph. Writing into the shared graph is `writeDocument`; a private document set writes
 * the same prepared document elsewhere (src/sets/document-sets.ts).
 */

/** A chunk of a document's section, with the section's kind and the pages it spans. */
export interface DocumentChunk extends StoredChunk {
  sectionKind: string;
  pageStart: number | null;
  pageEnd: number | null;
}

/** Sections whose text is retrieved: all but the reference list (and the front matter when there is more). */
function chunkedSections(sections: readonly DocumentSection[]): DocumentSection[] {
  const body = sections.filter((section) => section.kind !== 'references' && section.end > section.bodyStart);
  const withoutFront = body.filter((section) => section.kind !== 'front');
  return withoutFront.length > 0 ? withoutFront : body;
}

/** Chunks of a document's sections; `idPrefix` + ordinal is each chunk's id. */
export function documentChunks(
  read: ReadDocument,
  idPrefix: string,
  chunking: ChunkingSettings,
  counter: TokenCounter,
): DocumentChunk[] {
  const { text, pages, sections } = read.document;
  const chunks: DocumentChunk[] = [];
  for (const section of chunkedSections(sections)) {
    const body = text.slice(section.bodyStart, section.end);
    for (const piece of chunkText(body, chunking, counter)) {
      const start = section.bodyStart + piece.start;
      const end = section.bodyStart + piece.end;
      chunks.push({
        id: `${idPrefix}${chunks.length}`,
        ordinal: chunks.length,
        text: piece.text,
        start,
        end,
        tokenCount: piece.tokenCount,
        section: section.title,
        sectionKind: section.kind,
        ...pagesOf(pages, start, end),
        embedding: null,
      });
    }
  }
  return chunks;
}

/** The abstract of a document: its abstract section's text, when it has one. */
export function documentAbstract(read: ReadDocument): string | null {
  const section = read.document.sections.find((s) => s.kind === 'abstract' && s.end > s.bodyStart);
  return section ? read.document.text.slice(section.bodyStart, section.end).trim() : null;
}

/** A title-field Lucene query of a text's content terms (letters and digits only: no syntax survives). */
function titleQuery(text: string): string {
  const terms = [...new Set(contentTerms(text))].slice(0, 40);
  return terms.length > 0 ? `title:(${terms.join(' ')})` : '';
}

export interface DocumentMatch {
  /** The graph id the document is written under. */
  paperId: string;
  /** How the paper was found: the same file, its DOI, its title and year, or not at all (a new paper). */
  by: 'hash' | 'doi' | 'title' | 'new';
  /** The same file, chunked the same way, is already stored: nothing to do. */
  unchanged: boolean;
}

/** A fingerprint of what chunking depends on: a document chunked under other settings is chunked again. */
export function chunkingKey(chunking: ChunkingSettings): string {
  return `${chunking.maxTokens}/${chunking.overlapTokens}`;
}

/** The paper a document is: the one holding the same file, else by DOI, else by normalised title (and year). */
export async function matchDocument(
  executor: GraphExecutor,
  read: ReadDocument,
  chunking: ChunkingSettings,
): Promise<DocumentMatch> {
  const { identity } = read;
  const rows = await executor.read<{
    id: string;
    title: string | null;
    year: number | null;
    doi: string | null;
    stub: boolean;
    documentHash: string | null;
    documentChunking: string | null;
    by: 'hash' | 'doi' | 'title';
  }>(
    queries().documentCandidates({
      hash: read.contentHash,
      doi: identity.doi,
      titleQuery: identity.title ? titleQuery(identity.title) || 'title:(zzzz)' : 'title:(zzzz)',
    }),
  );
  const sameFile = rows.find((row) => row.by === 'hash');
  if (sameFile) {
    return { paperId: sameFile.id, by: 'hash', unchanged: sameFile.documentChunking === chunkingKey(chunking) };
  }
  const byDoi = rows.filter((row) => row.by === 'doi').sort((a, b) => Number(a.stub) - Number(b.stub))[0];
  if (byDoi) return { paperId: byDoi.id, by: 'doi', unchanged: false };
  if (identity.title) {
    const key = titleKey(identity.title);
    const byTitle = rows.find(
      (row) =>
        row.by === 'title' &&
        !row.stub &&
        row.title !== null &&
        titleKey(row.title) === key &&
        (identity.year === null || row.year === null || Math.abs(identity.year - row.year) <= 1),
    );
    if (byTitle) return { paperId: byTitle.id, by: 'title', unchanged: false };
  }
  return { paperId: `doc:${read.contentHash.slice(0, 20)}`, by: 'new', unchanged: false };
}

export interface ResolvedReference {
  entry: ReferenceEntry;
  /** The graph paper cited, or null when none matched (a stub keeps the raw text). */
  paperId: string | null;
}

/** A reference entry identified through the scholarly APIs: the work's id (OpenAlex, else `doi:`) and metadata. */
export interface OnlineMatch {
  id: string;
  doi: string | null;
  title: string | null;
  year: number | null;
  via: 'openalex' | 'crossref';
}

/** Looks up reference entries the graph did not resolve; returns matches by entry index. */
export type OnlineReferenceResolver = (entries: readonly ReferenceEntry[]) => Promise<Map<number, OnlineMatch>>;

/** A reference as written: the paper it cites (in the graph, or a stub) and what is known of it. */
export interface DocumentReference {
  id: string;
  doi: string | null;
  raw: string;
  title: string | null;
  year: number | null;
  resolvedBy: 'graph' | 'openalex' | 'crossref' | null;
}

/**
 * The references of a document as written: each entry resolved in the graph, else (when allowed) through the
 * scholarly APIs — a DOI found online that a graph paper has joins that paper — else a stub keeping the raw text.
 */
export async function documentReferences(
  executor: GraphExecutor,
  entries: readonly ReferenceEntry[],
  online: OnlineReferenceResolver | null,
): Promise<DocumentReference[]> {
  const resolved = await resolveReferences(executor, entries);
  const unresolved = resolved.filter((ref) => ref.paperId === null).map((ref) => ref.entry);
  const matches = online && unresolved.length > 0 ? await online(unresolved) : new Map<number, OnlineMatch>();
  const dois = [...new Set([...matches.values()].map((m) => m.doi).filter((d): d is string => d !== null))];
  const byDoi =
    dois.length === 0
      ? new Map<string, string>()
      : new Map(
          (await executor.read<{ doi: string; id: string }>(queries().papersByDoi({ dois }))).map((row) => [
            row.doi,
            row.id,
          ]),
        );
  return resolved.map(({ entry, paperId }) => {
    const base = { doi: entry.doi, raw: entry.raw, title: null, year: null };
    if (paperId) return { ...base, id: paperId, resolvedBy: 'graph' as const };
    const match = matches.get(entry.index);
    if (!match) return { ...base, id: referenceStubId(entry), resolvedBy: null };
    const known = match.doi ? byDoi.get(match.doi) : undefined;
    return {
      id: known ?? match.id,
      doi: match.doi,
      raw: entry.raw,
      title: match.title,
      year: match.year,
      resolvedBy: match.via,
    };
  });
}

/**
 * Resolves reference entries to graph papers: by DOI, else by a title match — a candidate whose normalised title
 * (of four words or more) stands in the normalised entry, with a year of the entry within one of the paper's.
 */
export async function resolveReferences(
  executor: GraphExecutor,
  entries: readonly ReferenceEntry[],
): Promise<ResolvedReference[]> {
  if (entries.length === 0) return [];
  const rows = await executor.read<{
    index: number;
    candidates: Array<{ id: string; title: string | null; year: number | null; doi: string | null }>;
  }>(
    queries().referenceCandidates({
      entries: entries.map((entry) => ({
        index: entry.index,
        doi: entry.doi,
        query: titleQuery(entry.raw) || 'title:(zzzz)',
      })),
    }),
  );
  const byIndex = new Map(rows.map((row) => [row.index, row.candidates]));
  return entries.map((entry) => {
    const candidates = byIndex.get(entry.index) ?? [];
    const doiMatch = entry.doi ? candidates.find((candidate) => candidate.doi === entry.doi) : undefined;
    if (doiMatch) return { entry, paperId: doiMatch.id };
    // Compared without spaces: a hyphen joined at a line end ("non-hormonal" → "nonhormonal") still matches.
    const raw = titleKey(entry.raw).replace(/ /g, '');
    const titleMatch = candidates.find((candidate) => {
      if (!candidate.title) return false;
      const key = titleKey(candidate.title);
      if (key.split(' ').length < 4 || !raw.includes(key.replace(/ /g, ''))) return false;
      const year = candidate.year;
      return entry.years.length === 0 || year === null || entry.years.some((y) => Math.abs(y - year) <= 1);
    });
    return { entry, paperId: titleMatch?.id ?? null };
  });
}

/** The id of the stub that keeps an unresolved reference: its DOI, or a hash of its normalised text. */
export function referenceStubId(entry: ReferenceEntry): string {
  if (entry.doi) return `doi:${entry.doi}`;
  return `ref:${createHash('sha256').update(titleKey(entry.raw)).digest('hex').slice(0, 20)}`;
}

/** Properties a document sets on its paper, whether new or matched: text, pages, sections, provenance. */
export function documentProps(read: ReadDocument, chunking: ChunkingSettings): Record<string, unknown> {
  const { document } = read;
  return {
    text: document.text,
    documentHash: read.contentHash,
    documentName: read.name,
    documentFormat: document.format,
    documentChunking: chunkingKey(chunking),
    pageCount: document.pages.length > 0 ? document.pages[document.pages.length - 1]!.number : null,
    pageStarts: document.pages.map((page) => page.start),
    pageNumbers: document.pages.map((page) => page.number),
    sectionTitles: document.sections.map((section) => section.title),
    sectionKinds: document.sections.map((section) => section.kind),
    sectionStarts: document.sections.map((section) => section.start),
    sectionEnds: document.sections.map((section) => section.end),
    referenceEntries: read.references.length,
    arxivId: read.identity.arxiv?.id ?? null,
    arxivVersion: read.identity.arxiv?.version ?? null,
    arxivCategory: read.identity.arxiv?.category ?? null,
    arxivDate: read.identity.arxiv?.date ?? null,
  };
}

/** Properties of a paper that the document creates (a matched paper keeps its own). */
export function newPaperProps(read: ReadDocument): Record<string, unknown> {
  return {
    title: read.identity.title,
    year: read.identity.year,
    doi: read.identity.doi,
    abstract: documentAbstract(read),
    source: 'document',
    type: 'document',
    citedByCount: 0,
    isRetracted: false,
    referenceCount: read.references.length,
    documentAuthors: read.identity.authors,
  };
}
