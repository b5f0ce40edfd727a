import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { ChunkRow, PreparedPaper } from './ingest-service';
import { graphRows, paperProps } from './ingest-service';

/** A value as a CSV field for neo4j-admin import: quoted, inner quotes doubled; null (and undefined) empty. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return csvField(value.map(String).join(ARRAY_DELIMITER));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** Array fields are joined by this character (`--array-delimiter`): one that no id, name or ISSN holds. */
export const ARRAY_DELIMITER = '\u001f';

/** The columns of one CSV file: `name:type` headers as neo4j-admin reads them, and how a row fills them. */
interface CsvFile {
  readonly header: readonly string[];
  readonly stream: WriteStream;
}

/** Paper properties in the order of the papers file; types follow what the Bolt path stores. */
const PAPER_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['s2Id', 'string'],
  ['doi', 'string'],
  ['title', 'string'],
  ['abstract', 'string'],
  ['year', 'long'],
  ['publicationDate', 'string'],
  ['type', 'string'],
  ['citedByCount', 'long'],
  ['isRetracted', 'boolean'],
  ['source', 'string'],
  ['openalexId', 'string'],
  ['pmid', 'string'],
  ['mag', 'string'],
  ['referenceCount', 'long'],
  ['citationYears', 'long[]'],
  ['citationCounts', 'long[]'],
  ['contentHash', 'string'],
];

/**
 * Writes the graph of a bulk load as CSV files for `neo4j-admin database import full`: nodes (papers, stubs, authors,
 * institutions, venues, topics, chunks) and relationships, with the same properties the Bolt ingest writes
 * (`graphRows`, `paperProps`). Authors, institutions, venues and topics are written once each; a cited work that no
 * record holds becomes a stub, as in `replace-citations`. Stored aggregates and indexes are made after the import
 * (`applySchema`). Chunks come without embeddings: `citegraph embed` adds them.
 */
export class BulkCsvWriter {
  private readonly files = new Map<string, CsvFile>();
  private readonly papers = new Set<string>();
  private readonly cited = new Map<string, string | null>();
  private readonly seen = {
    authors: new Set<string>(),
    institutions: new Set<string>(),
    venues: new Set<string>(),
    topics: new Set<string>(),
  };
  private readonly affiliations = new Set<string>();
  readonly counts = { papers: 0, stubs: 0, authors: 0, chunks: 0, cites: 0, authored: 0 };

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Adds a batch of papers of `collection` with their chunks. */
  async add(papers: readonly PreparedPaper[], chunks: readonly ChunkRow[], collection: string): Promise<void> {
    const { authorRows, venueRows, topicRows, citationRows } = graphRows(papers);
    for (const { record, hash } of papers) {
      this.papers.add(record.id);
      this.cited.delete(record.id);
      const props = paperProps(record, hash);
      await this.row(
        'papers',
        [
          'id:ID(Paper)',
          ...PAPER_COLUMNS.map(([name, type]) => `${name}:${type}`),
          'stub:boolean',
          'collections:string[]',
          ':LABEL',
        ],
        [record.id, ...PAPER_COLUMNS.map(([name]) => props[name]), false, [collection], 'Paper'],
      );
      this.counts.papers += 1;
    }
    for (const row of authorRows) {
      if (!this.seen.authors.has(row.authorId)) {
        this.seen.authors.add(row.authorId);
        this.counts.authors += 1;
        await this.row(
          'authors',
          ['id:ID(Author)', 'name:string', 'orcid:string', 'anonymous:boolean', ':LABEL'],
          [row.authorId, row.name, row.orcid, row.anonymous, 'Author'],
        );
      }
      await this.row(
        'authored',
        [':START_ID(Author)', ':END_ID(Paper)', 'position:string', 'order:long', 'corresponding:boolean', ':TYPE'],
        [row.authorId, row.paperId, row.position, row.order, row.corresponding, 'AUTHORED'],
      );
      this.counts.authored += 1;
      for (const institution of row.institutions) {
        if (!this.seen.institutions.has(institution.id)) {
          this.seen.institutions.add(institution.id);
          await this.row(
            'institutions',
            ['id:ID(Institution)', 'name:string', 'ror:string', 'countryCode:string', 'type:string', ':LABEL'],
            [
              institution.id,
              institution.name,
              institution.ror,
              institution.countryCode,
              institution.type,
              'Institution',
            ],
          );
        }
        const key = `${row.authorId}\u0000${institution.id}`;
        if (!this.affiliations.has(key)) {
          this.affiliations.add(key);
          await this.row(
            'affiliated',
            [':START_ID(Author)', ':END_ID(Institution)', ':TYPE'],
            [row.authorId, institution.id, 'AFFILIATED_WITH'],
          );
        }
      }
    }
    for (const row of venueRows) {
      if (!this.seen.venues.has(row.venueId)) {
        this.seen.venues.add(row.venueId);
        await this.row(
          'venues',
          ['id:ID(Venue)', 'name:string', 'issnL:string', 'issn:string[]', 'type:string', 'publisher:string', ':LABEL'],
          [row.venueId, row.name, row.issnL, row.issn, row.type, row.publisher, 'Venue'],
        );
      }
      await this.row(
        'published',
        [':START_ID(Paper)', ':END_ID(Venue)', ':TYPE'],
        [row.paperId, row.venueId, 'PUBLISHED_IN'],
      );
    }
    for (const row of topicRows) {
      if (!this.seen.topics.has(row.topicId)) {
        this.seen.topics.add(row.topicId);
        await this.row(
          'topics',
          ['id:ID(Topic)', 'name:string', 'level:long', 'kind:string', ':LABEL'],
          [row.topicId, row.name, row.level, row.kind, 'Topic'],
        );
      }
      await this.row(
        'has-topic',
        [':START_ID(Paper)', ':END_ID(Topic)', 'score:double', ':TYPE'],
        [row.paperId, row.topicId, row.score, 'HAS_TOPIC'],
      );
    }
    for (const row of citationRows) {
      if (!this.papers.has(row.to) && !this.cited.has(row.to)) this.cited.set(row.to, row.toDoi);
      await this.row('cites', [':START_ID(Paper)', ':END_ID(Paper)', ':TYPE'], [row.from, row.to, 'CITES']);
      this.counts.cites += 1;
    }
    for (const chunk of chunks) {
      await this.row(
        'chunks',
        [
          'id:ID(Chunk)',
          'text:string',
          'ordinal:long',
          'tokenCount:long',
          'start:long',
          'end:long',
          'section:string',
          'paperId:string',
          'paperTitle:string',
          ':LABEL',
        ],
        [
          chunk.id,
          chunk.text,
          chunk.ordinal,
          chunk.tokenCount,
          chunk.start,
          chunk.end,
          chunk.section,
          chunk.paperId,
          chunk.paperTitle,
          'Chunk',
        ],
      );
      await this.row(
        'has-chunk',
        [':START_ID(Paper)', ':END_ID(Chunk)', ':TYPE'],
        [chunk.paperId, chunk.id, 'HAS_CHUNK'],
      );
      this.counts.chunks += 1;
    }
  }

  /**
   * Writes the stubs (works cited that no record held) and closes every file. Returns the import arguments: the
   * `--nodes` and `--relationships` groups.
   */
  async finish(): Promise<string[]> {
    for (const [id, doi] of this.cited) {
      if (this.papers.has(id)) continue;
      await this.row('stubs', ['id:ID(Paper)', 'stub:boolean', 'doi:string', ':LABEL'], [id, true, doi, 'Paper']);
      this.counts.stubs += 1;
    }
    const args: string[] = [];
    for (const [name, file] of this.files) {
      file.stream.end();
      await once(file.stream, 'finish');
      const kind = file.header.includes(':TYPE') ? '--relationships' : '--nodes';
      args.push(`${kind}=${path.join(this.dir, `${name}.csv`)}`);
    }
    return args;
  }

  private async row(name: string, header: readonly string[], values: readonly unknown[]): Promise<void> {
    let file = this.files.get(name);
    if (!file) {
      const stream = createWriteStream(path.join(this.dir, `${name}.csv`));
      file = { header, stream };
      this.files.set(name, file);
      stream.write(`${header.join(',')}\n`);
    }
    if (!file.stream.write(`${values.map(csvField).join(',')}\n`)) await once(file.stream, 'drain');
  }
}
