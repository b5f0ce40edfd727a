import type { ChunkingSettings, DocumentSettings, IngestSettings } from '../config/settings';
import type { Embedder } from '../embedding/embedder';
import type { GraphExecutor } from '../graph/executor';
import type { Logger } from '../logger';
import type { TokenCounter } from './chunker';
import type { OnlineReferenceResolver } from './document-ingest';

/** What an ingest run is given and what it reports: options, dependencies, the summary and its text. */

export type IngestFormat = 'openalex' | 'beir';

export interface IngestOptions {
  readonly format?: IngestFormat | undefined;
  /** Collection name; defaults from the file name (or its folder, for a BEIR corpus.jsonl). */
  readonly collection?: string | undefined;
  /** Embed chunks now, or leave them for `citegraph embed`. */
  readonly embed: 'now' | 'defer';
  readonly progress?: boolean;
  /** Resolve document references the graph does not hold through Crossref and OpenAlex (default: the setting). */
  readonly resolveOnline?: boolean | undefined;
}

export interface SkippedRecord {
  readonly where: string;
  readonly reason: string;
}

/** What one ingest run did; counts are of what this run wrote. */
export interface IngestSummary {
  files: number;
  records: number;
  papersWritten: number;
  papersUnchanged: number;
  authorships: number;
  chunks: number;
  chunksEmbedded: number;
  /** Chunks the companion model embedded after the run (CITEGRAPH_COMPANION_MODEL). */
  companionEmbedded: number;
  citationEdges: number;
  selfCitationsSkipped: number;
  duplicatesInInput: number;
  /** Records not ingested, and where they were. */
  skipped: SkippedRecord[];
  /** Fields of ingested records not stored as given (wrong type, out of range, cut to the size cap). */
  warnings: SkippedRecord[];
  collections: string[];
  /** Documents (PDF, Markdown, HTML, text) of this run. */
  documents: DocumentCounts;
  timings: { totalMs: number; embedMs: number; writeMs: number; chunkMs: number; extractMs: number };
}

export interface DocumentCounts {
  /** Documents written (new papers and full texts joined to papers already in the graph). */
  written: number;
  /** Of those, documents that became the full text of a paper already in the graph. */
  joined: number;
  /** The same file again: nothing written. */
  unchanged: number;
  pages: number;
  sections: number;
  chunks: number;
  references: number;
  /** Resolved in the graph or online. */
  referencesResolved: number;
  /** Of which through Crossref/OpenAlex (papers the graph did not hold). */
  referencesResolvedOnline: number;
}

export interface IngestDependencies {
  readonly executor: GraphExecutor;
  /** Needed when embedding now; loaded lazily by the caller. */
  readonly embedder: () => Promise<Embedder>;
  /** The companion model's (CITEGRAPH_COMPANION_MODEL), when one is set: it embeds what an ingest wrote, after it. */
  readonly companionEmbedder?: () => Promise<Embedder>;
  readonly tokenCounter: () => Promise<TokenCounter>;
  readonly chunking: ChunkingSettings;
  readonly ingest: IngestSettings;
  readonly documents: DocumentSettings;
  readonly logger: Logger;
  /** Resolves references through the scholarly APIs (wired by the app); without it, references resolve locally. */
  readonly onlineReferences?: OnlineReferenceResolver;
}

export function emptySummary(): IngestSummary {
  return {
    files: 0,
    records: 0,
    papersWritten: 0,
    papersUnchanged: 0,
    authorships: 0,
    chunks: 0,
    chunksEmbedded: 0,
    companionEmbedded: 0,
    citationEdges: 0,
    selfCitationsSkipped: 0,
    duplicatesInInput: 0,
    skipped: [],
    warnings: [],
    collections: [],
    documents: {
      written: 0,
      joined: 0,
      unchanged: 0,
      pages: 0,
      sections: 0,
      chunks: 0,
      references: 0,
      referencesResolved: 0,
      referencesResolvedOnline: 0,
    },
    timings: { totalMs: 0, embedMs: 0, writeMs: 0, chunkMs: 0, extractMs: 0 },
  };
}

/** The summary as text for people. */
export function formatSummary(summary: IngestSummary): string {
  const lines = [
    `files: ${summary.files}  collections: ${summary.collections.join(', ')}`,
    `records read: ${summary.records}  papers written: ${summary.papersWritten}  unchanged: ${summary.papersUnchanged}  duplicates in input: ${summary.duplicatesInInput}`,
    `authorships: ${summary.authorships}  chunks: ${summary.chunks} (embedded ${summary.chunksEmbedded}${summary.companionEmbedded ? `, by the companion model ${summary.companionEmbedded}` : ''})  citation edges: ${summary.citationEdges}  self-citations skipped: ${summary.selfCitationsSkipped}`,
    `time: ${(summary.timings.totalMs / 1000).toFixed(1)}s (embedding ${(summary.timings.embedMs / 1000).toFixed(1)}s, writing ${(summary.timings.writeMs / 1000).toFixed(1)}s, chunking ${(summary.timings.chunkMs / 1000).toFixed(1)}s)`,
    `skipped: ${summary.skipped.length}  warnings: ${summary.warnings.length}`,
  ];
  const docs = summary.documents;
  if (docs.written + docs.unchanged > 0) {
    lines.splice(
      3,
      0,
      `documents: ${docs.written} written (${docs.joined} joined to papers in the graph), ${docs.unchanged} unchanged  pages: ${docs.pages}  sections: ${docs.sections}  chunks: ${docs.chunks}  references: ${docs.referencesResolved}/${docs.references} resolved (${docs.referencesResolvedOnline} online)  extraction: ${(summary.timings.extractMs / 1000).toFixed(1)}s`,
    );
  }
  const reasons = new Map<string, number>();
  for (const skip of summary.skipped) {
    const key = skip.reason.replace(/\d+/g, 'N').slice(0, 80);
    reasons.set(key, (reasons.get(key) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) lines.push(`  ${count} × ${reason}`);
  for (const skip of summary.skipped.slice(0, 20)) lines.push(`  ${skip.where}: ${skip.reason}`);
  if (summary.skipped.length > 20) lines.push(`  … and ${summary.skipped.length - 20} more`);
  for (const warning of summary.warnings.slice(0, 10)) lines.push(`  warning ${warning.where}: ${warning.reason}`);
  if (summary.warnings.length > 10) lines.push(`  … and ${summary.warnings.length - 10} more warnings`);
  return lines.join('\n');
}
