import { createHash } from 'node:crypto';
import type { ChunkingSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import { anonymousAuthorId } from '../domain';
import { chunkText, type StoredChunk } from './chunker';
import type { IngestDependencies, IngestOptions, IngestSummary } from './ingest-types';

/** What a batch of records becomes in the graph: papers' properties, chunks, authorships, venues, topics, citations. */

export interface PreparedPaper {
  record: WorkRecord;
  hash: string;
}

/** A chunk of a record's abstract (or title), with the paper it belongs to. */
export interface ChunkRow extends StoredChunk {
  paperId: string;
  paperTitle: string | null;
}

/** The text that is embedded for a chunk: the paper title travels with every chunk. */
export function embeddingInput(paperTitle: string | null, chunk: string, section: string): string {
  if (section === 'title' || !paperTitle) return chunk;
  return `${paperTitle}. ${chunk}`;
}

export function contentHash(record: WorkRecord, chunking: ChunkingSettings): string {
  return createHash('sha256').update(JSON.stringify({ record, chunking })).digest('hex').slice(0, 24);
}

export function paperProps(record: WorkRecord, hash: string): Record<string, unknown> {
  return {
    s2Id: record.ids.s2 ?? null,
    doi: record.doi,
    title: record.title,
    abstract: record.abstract,
    year: record.year,
    publicationDate: record.publicationDate,
    type: record.type,
    citedByCount: record.citedByCount,
    isRetracted: record.isRetracted,
    source: record.source,
    openalexId: record.ids.openalex ?? null,
    pmid: record.ids.pmid ?? null,
    mag: record.ids.mag ?? null,
    referenceCount: record.references.length,
    // Parallel lists (Neo4j stores no maps on nodes): OpenAlex's citations per year.
    citationYears: record.countsByYear?.length ? record.countsByYear.map((entry) => entry.year) : null,
    citationCounts: record.countsByYear?.length ? record.countsByYear.map((entry) => entry.citations) : null,
    volume: record.volume ?? null,
    issue: record.issue ?? null,
    firstPage: record.firstPage ?? null,
    lastPage: record.lastPage ?? null,
    language: record.language ?? null,
    license: record.license ?? null,
    keywords: record.keywords?.length ? record.keywords : null,
    contentHash: hash,
    // Authorships carry their own institutions (AUTHORED.institutions): per-paper affiliations are known. Papers
    // stored before that have only the authors' affiliations over all their papers (AFFILIATED_WITH).
    affiliationsPerPaper: true,
  };
}

/** The chunks of records' abstracts (or titles), embedded now when asked; the time each part took goes to the summary. */
export async function chunkRecords(
  deps: Pick<IngestDependencies, 'chunking' | 'tokenCounter' | 'embedder'>,
  papers: readonly PreparedPaper[],
  options: Pick<IngestOptions, 'embed'>,
  summary: IngestSummary,
): Promise<ChunkRow[]> {
  const started = Date.now();
  const counter = await deps.tokenCounter();
  const rows: ChunkRow[] = [];
  for (const { record } of papers) {
    const source = record.abstract ?? record.title;
    if (!source) continue;
    const section = record.abstract ? 'abstract' : 'title';
    for (const chunk of chunkText(source, deps.chunking, counter)) {
      rows.push({
        id: `${record.id}#${chunk.ordinal}`,
        paperId: record.id,
        ordinal: chunk.ordinal,
        text: chunk.text,
        start: chunk.start,
        end: chunk.end,
        tokenCount: chunk.tokenCount,
        section,
        paperTitle: record.title,
        embedding: null,
      });
    }
  }
  summary.timings.chunkMs += Date.now() - started;
  if (options.embed === 'now' && rows.length > 0) {
    const embedStarted = Date.now();
    const embedder = await deps.embedder();
    const vectors = await embedder.embed(rows.map((row) => embeddingInput(row.paperTitle, row.text, row.section)));
    rows.forEach((row, index) => {
      row.embedding = Array.from(vectors[index]!);
    });
    summary.timings.embedMs += Date.now() - embedStarted;
  }
  return rows;
}

/** One authorship as the graph stores it: the AUTHORED edge, its Author and the author's institutions. */
export interface AuthorshipRow {
  paperId: string;
  authorId: string;
  anonymous: boolean;
  name: string;
  orcid: string | null;
  position: string;
  order: number;
  corresponding: boolean;
  institutions: WorkRecord['authorships'][number]['institutions'];
}

/** The rows a batch of papers writes besides the papers themselves: the one mapping the Bolt and bulk paths share. */
export function graphRows(papers: readonly PreparedPaper[]): {
  authorRows: AuthorshipRow[];
  venueRows: Array<NonNullable<WorkRecord['venue']> & { paperId: string; venueId: string }>;
  topicRows: Array<WorkRecord['topics'][number] & { paperId: string; topicId: string }>;
  citationRows: Array<{ from: string; to: string; toDoi: string | null }>;
  selfCitations: number;
} {
  const authorRows: AuthorshipRow[] = [];
  const venueRows: Array<NonNullable<WorkRecord['venue']> & { paperId: string; venueId: string }> = [];
  const topicRows: Array<WorkRecord['topics'][number] & { paperId: string; topicId: string }> = [];
  const citationRows: Array<{ from: string; to: string; toDoi: string | null }> = [];
  let selfCitations = 0;
  for (const { record } of papers) {
    for (const authorship of record.authorships) {
      authorRows.push({
        paperId: record.id,
        authorId: authorship.authorId ?? anonymousAuthorId(record.id, authorship.order),
        anonymous: authorship.authorId === null,
        name: authorship.name,
        orcid: authorship.orcid,
        position: authorship.position,
        order: authorship.order,
        corresponding: authorship.corresponding,
        institutions: authorship.institutions,
      });
    }
    if (record.venue) venueRows.push({ paperId: record.id, venueId: record.venue.id, ...record.venue });
    for (const topic of record.topics) topicRows.push({ paperId: record.id, topicId: topic.id, ...topic });
    for (const reference of record.references) {
      if (reference === record.id) selfCitations += 1;
      else
        citationRows.push({
          from: record.id,
          to: reference,
          toDoi: reference.startsWith('doi:') ? reference.slice(4) : null,
        });
    }
  }
  return { authorRows, venueRows, topicRows, citationRows, selfCitations };
}
