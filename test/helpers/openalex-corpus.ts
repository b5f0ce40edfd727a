import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AppContext } from '../../src/app-context';
import { removeCollections } from './context';

/** An author of a made-up work; a null id is an authorship OpenAlex left unidentified. */
export interface CorpusAuthor {
  id: string | null;
  name: string;
  orcid?: string | null;
  institution?: { id: string; name: string; country: string };
}

/** A made-up work as a suite describes it; ids are short OpenAlex ids ("W9701", "A1", "S1", "C1", "I1"). */
export interface CorpusWork {
  id: string;
  title: string;
  abstract?: string;
  year: number;
  authors?: readonly CorpusAuthor[];
  refs?: readonly string[];
  venue?: { id: string; name: string };
  concepts?: ReadonlyArray<{ id: string; name: string; level: number; score?: number }>;
}

const openalex = (id: string) => `https://openalex.org/${id}`;

/** The work as an OpenAlex record (2023 schema), the shape the ingest reads. */
export function openAlexRecord(work: CorpusWork): Record<string, unknown> {
  return {
    id: openalex(work.id),
    title: work.title,
    abstract: work.abstract ?? `${work.title}: a study.`,
    publication_year: work.year,
    ...(work.venue
      ? {
          primary_location: { source: { id: openalex(work.venue.id), display_name: work.venue.name, type: 'journal' } },
        }
      : {}),
    authorships: (work.authors ?? []).map((author, order) => ({
      author_position: order === 0 ? 'first' : 'middle',
      author: { id: author.id ? openalex(author.id) : null, display_name: author.name, orcid: author.orcid ?? null },
      institutions: author.institution
        ? [
            {
              id: openalex(author.institution.id),
              display_name: author.institution.name,
              country_code: author.institution.country,
            },
          ]
        : [],
    })),
    ...(work.concepts
      ? {
          concepts: work.concepts.map((c) => ({
            id: openalex(c.id),
            display_name: c.name,
            level: c.level,
            score: c.score ?? 0.8,
          })),
        }
      : {}),
    referenced_works: (work.refs ?? []).map(openalex),
  };
}

/** Writes records, one JSON object a line, to a new temporary file named after the suite; returns its path. */
export function writeJsonl(prefix: string, records: readonly unknown[]): string {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), `${prefix}-`)), 'works.jsonl');
  writeFileSync(file, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
  return file;
}

/**
 * A suite's made-up works ingested with embeddings into its own collection, after removing what an interrupted run
 * may have left there.
 */
export async function ingestWorks(
  app: AppContext,
  collection: string,
  works: readonly CorpusWork[],
  embed: 'now' | 'defer' = 'now',
): Promise<void> {
  await removeCollections(app, [collection]);
  const file = writeJsonl(collection, works.map(openAlexRecord));
  await app.ingest.ingestFiles([file], { embed, collection, progress: false });
}
