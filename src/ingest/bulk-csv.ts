import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { ChunkRow, PreparedPaper } from './paper-rows';
import { graphRows, paperProps } from './paper-rows';

/** A value as a CSV field for neo4j-admin import: quoted, inner quotes doubled; null (and undefined) empty. */
export function importField(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return importField(value.map(String).join(ARRAY_DELIMITER));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return `"${text.replace(/"/g, '""')}"`;
}

/** Array fields are joined by this character (`--array-delimiter`): one that no id, name or ISSN holds. */
export const ARRAY_DELIMITER = '\u001f';

type Column = readonly [name: string, type: string];

/** A node file (`id:ID(Label)`, properties, `:LABEL`) or a relationship file (`:START_ID`, `:END_ID`, properties, `:TYPE`). */
type FileSpec =
  | { readonly label: string; readonly columns: readonly Column[] }
  | { readonly type: string; readonly from: string; readonly to: string; readonly columns: readonly Column[] };

/** Paper properties in the order of the papers file; types follow what the Bolt path stores. */
const PAPER_COLUMNS: readonly Column[] = [
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
  ['volume', 'string'],
  ['issue', 'string'],
  ['firstPage', 'string'],
  ['lastPage', 'string'],
  ['language', 'string'],
  ['license', 'string'],
  ['keywords', 'string[]'],
  ['contentHash', 'string'],
  ['affiliationsPerPaper', 'boolean'],
];

/** Every file of a bulk load: its columns, named as the properties the Bolt ingest writes. */
const FILES = {
  papers: { label: 'Paper', columns: [...PAPER_COLUMNS, ['stub', 'boolean'], ['collections', 'string[]']] },
  stubs: {
    label: 'Paper',
    columns: [
      ['stub', 'boolean'],
      ['doi', 'string'],
    ],
  },
  authors: {
    label: 'Author',
    columns: [
      ['name', 'string'],
      ['orcid', 'string'],
      ['anonymous', 'boolean'],
    ],
  },
  institutions: {
    label: 'Institution',
    columns: [
      ['name', 'string'],
      ['ror', 'string'],
      ['countryCode', 'string'],
      ['type', 'string'],
    ],
  },
  venues: {
    label: 'Venue',
    columns: [
      ['name', 'string'],
      ['issnL', 'string'],
      ['issn', 'string[]'],
      ['type', 'string'],
      ['publisher', 'string'],
    ],
  },
  topics: {
    label: 'Topic',
    columns: [
      ['name', 'string'],
      ['level', 'long'],
      ['kind', 'string'],
    ],
  },
  chunks: {
    label: 'Chunk',
    columns: [
      ['text', 'string'],
      ['ordinal', 'long'],
      ['tokenCount', 'long'],
      ['start', 'long'],
      ['end', 'long'],
      ['section', 'string'],
      ['paperId', 'string'],
      ['paperTitle', 'string'],
    ],
  },
  authored: {
    type: 'AUTHORED',
    from: 'Author',
    to: 'Paper',
    columns: [
      ['position', 'string'],
      ['order', 'long'],
      ['corresponding', 'boolean'],
      ['institutions', 'string[]'],
    ],
  },
  affiliated: { type: 'AFFILIATED_WITH', from: 'Author', to: 'Institution', columns: [] },
  published: { type: 'PUBLISHED_IN', from: 'Paper', to: 'Venue', columns: [] },
  'has-topic': { type: 'HAS_TOPIC', from: 'Paper', to: 'Topic', columns: [['score', 'double']] },
  cites: { type: 'CITES', from: 'Paper', to: 'Paper', columns: [] },
  'has-chunk': { type: 'HAS_CHUNK', from: 'Paper', to: 'Chunk', columns: [] },
} satisfies Record<string, FileSpec>;

type FileName = keyof typeof FILES;

function header(spec: FileSpec): string[] {
  const columns = spec.columns.map(([name, type]) => `${name}:${type}`);
  return 'label' in spec
    ? [`id:ID(${spec.label})`, ...columns, ':LABEL']
    : [`:START_ID(${spec.from})`, `:END_ID(${spec.to})`, ...columns, ':TYPE'];
}

/**
 * Writes the graph of a bulk load as CSV files for `neo4j-admin database import full`: nodes (papers, stubs, authors,
 * institutions, venues, topics, chunks) and relationships, with the same properties the Bolt ingest writes
 * (`graphRows`, `paperProps`). Authors, institutions, venues, topics and affiliations are written once each; a cited
 * work that no record holds becomes a stub, as in `replace-citations`. Stored aggregates and indexes are made after
 * the import (`applySchema`). Chunks come without embeddings: `citegraph embed` adds them.
 */
export class BulkCsvWriter {
  private readonly files = new Map<FileName, WriteStream>();
  /** Keys already written to the files that hold each node (or affiliation) once. */
  private readonly written = new Map<FileName, Set<string>>();
  private readonly papers = new Set<string>();
  private readonly cited = new Map<string, string | null>();
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
      await this.node('papers', record.id, { ...paperProps(record, hash), stub: false, collections: [collection] });
      this.counts.papers += 1;
    }
    for (const row of authorRows) {
      if (await this.once('authors', row.authorId, () => this.node('authors', row.authorId, row)))
        this.counts.authors += 1;
      await this.edge('authored', row.authorId, row.paperId, {
        ...row,
        institutions: row.institutions.map((institution) => institution.id),
      });
      this.counts.authored += 1;
      for (const institution of row.institutions) {
        await this.once('institutions', institution.id, () => this.node('institutions', institution.id, institution));
        await this.once('affiliated', `${row.authorId}\u0000${institution.id}`, () =>
          this.edge('affiliated', row.authorId, institution.id, {}),
        );
      }
    }
    for (const row of venueRows) {
      await this.once('venues', row.venueId, () => this.node('venues', row.venueId, row));
      await this.edge('published', row.paperId, row.venueId, {});
    }
    for (const row of topicRows) {
      await this.once('topics', row.topicId, () => this.node('topics', row.topicId, row));
      await this.edge('has-topic', row.paperId, row.topicId, row);
    }
    for (const row of citationRows) {
      if (!this.papers.has(row.to) && !this.cited.has(row.to)) this.cited.set(row.to, row.toDoi);
      await this.edge('cites', row.from, row.to, {});
      this.counts.cites += 1;
    }
    for (const chunk of chunks) {
      await this.node('chunks', chunk.id, chunk);
      await this.edge('has-chunk', chunk.paperId, chunk.id, {});
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
      await this.node('stubs', id, { stub: true, doi });
      this.counts.stubs += 1;
    }
    const args: string[] = [];
    for (const [name, stream] of this.files) {
      stream.end();
      await once(stream, 'finish');
      const kind = 'label' in FILES[name] ? '--nodes' : '--relationships';
      args.push(`${kind}=${path.join(this.dir, `${name}.csv`)}`);
    }
    return args;
  }

  /** Runs `write` the first time `key` is met for `name`; says whether it did. */
  private async once(name: FileName, key: string, write: () => Promise<void>): Promise<boolean> {
    let keys = this.written.get(name);
    if (!keys) this.written.set(name, (keys = new Set()));
    if (keys.has(key)) return false;
    keys.add(key);
    await write();
    return true;
  }

  private node(name: FileName, id: string, props: object): Promise<void> {
    const spec = FILES[name] as FileSpec & { label: string };
    return this.row(name, [id, ...this.values(spec, props), spec.label]);
  }

  private edge(name: FileName, from: string, to: string, props: object): Promise<void> {
    const spec = FILES[name] as FileSpec & { type: string };
    return this.row(name, [from, to, ...this.values(spec, props), spec.type]);
  }

  private values(spec: FileSpec, props: object): unknown[] {
    return spec.columns.map(([column]) => (props as Record<string, unknown>)[column]);
  }

  private async row(name: FileName, values: readonly unknown[]): Promise<void> {
    let stream = this.files.get(name);
    if (!stream) {
      stream = createWriteStream(path.join(this.dir, `${name}.csv`));
      this.files.set(name, stream);
      stream.write(`${header(FILES[name]).join(',')}\n`);
    }
    if (!stream.write(`${values.map(importField).join(',')}\n`)) await once(stream, 'drain');
  }
}
