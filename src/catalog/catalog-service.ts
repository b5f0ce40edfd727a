import type { GraphExecutor } from '../graph/executor';
import { queries } from '../graph/query-registry';
import type { AuthorRow, ChunkRow, InstitutionRow, PaperRow, TopicRow, VenueRow } from '../domain';
import { badInput } from '../errors';
import { normaliseDoi } from '../text';

export interface PaperFilter {
  collections?: string[] | null;
  yearFrom?: number | null;
  yearTo?: number | null;
  topic?: string | null;
  venue?: string | null;
}

export interface Page<T> {
  items: T[];
  hasNextPage: boolean;
  totalCount: () => Promise<number>;
}

/** Largest page or list a client may ask for, so that no request can walk the whole graph. */
export const MAX_PAGE = 200;

export function clampFirst(first: number | null | undefined, fallback = 20): number {
  const value = first ?? fallback;
  if (!Number.isInteger(value) || value < 0) throw badInput(`first must be a non-negative integer, got ${value}`);
  return Math.min(value, MAX_PAGE);
}

export function encodeCursor(id: string): string {
  return Buffer.from(`paper:${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith('paper:')) throw badInput(`invalid cursor ${cursor}`);
  return decoded.slice('paper:'.length);
}

/** Reads papers, authors and counts for the catalogue part of the API. */
export class CatalogService {
  constructor(private readonly executor: GraphExecutor) {}

  async health(): Promise<{ name: string; version: string; edition: string }> {
    const rows = await this.executor.read<{ name: string; version: string; edition: string }>(queries().health({}));
    return rows[0] ?? { name: 'unknown', version: 'unknown', edition: 'unknown' };
  }

  async stats(): Promise<{
    counts: Record<string, number>;
    collections: Array<{ collection: string; papers: number }>;
  }> {
    const [counts] = await this.executor.read<Record<string, number>>(queries().stats({}));
    const collections = await this.executor.read<{ collection: string; papers: number }>(queries().collectionStats({}));
    return { counts: counts ?? {}, collections };
  }

  async paperById(id: string): Promise<PaperRow | null> {
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().paperById({ id }));
    return rows[0]?.paper ?? null;
  }

  async paperByDoi(doi: string): Promise<PaperRow | null> {
    const normal = normaliseDoi(doi);
    if (!normal) throw badInput(`not a DOI: ${doi}`);
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().paperByDoi({ doi: normal }));
    return rows[0]?.paper ?? null;
  }

  async papersByIds(ids: string[]): Promise<PaperRow[]> {
    const rows = await this.executor.read<{ paper: PaperRow }>(queries().papersByIds({ ids }));
    const byId = new Map(rows.map((row) => [row.paper.id, row.paper]));
    return ids.map((id) => byId.get(id)).filter((paper): paper is PaperRow => paper !== undefined);
  }

  async paperAuthors(id: string): Promise<Array<{ author: AuthorRow; position: string; order: number }>> {
    return this.executor.read(queries().paperAuthors({ id }));
  }

  async paperVenue(id: string): Promise<VenueRow | null> {
    const rows = await this.executor.read<{ venue: VenueRow }>(queries().paperVenue({ id }));
    return rows[0]?.venue ?? null;
  }

  async paperTopics(id: string, first: number): Promise<Array<{ topic: TopicRow; score: number }>> {
    return this.executor.read(queries().paperTopics({ id, limit: clampFirst(first) }));
  }

  async paperReferences(id: string, first: number): Promise<PaperRow[]> {
    const rows = await this.executor.read<{ paper: PaperRow }>(
      queries().paperReferences({ id, limit: clampFirst(first) }),
    );
    return rows.map((row) => row.paper);
  }

  async paperChunks(id: string): Promise<ChunkRow[]> {
    const rows = await this.executor.read<{ chunk: ChunkRow }>(queries().paperChunks({ id }));
    return rows.map((row) => row.chunk);
  }

  async author(id: string): Promise<{ author: AuthorRow; institutions: InstitutionRow[]; paperCount: number } | null> {
    const rows = await this.executor.read<{
      author: AuthorRow;
      institutions: InstitutionRow[];
      paperCount: number;
    }>(queries().authorById({ id }));
    return rows[0] ?? null;
  }

  async authorPapers(id: string, first: number): Promise<PaperRow[]> {
    const rows = await this.executor.read<{ paper: PaperRow }>(
      queries().authorPapers({ id, limit: clampFirst(first) }),
    );
    return rows.map((row) => row.paper);
  }

  async papers(
    filter: PaperFilter | null | undefined,
    first: number | null | undefined,
    after: string | null | undefined,
  ): Promise<Page<PaperRow>> {
    const limit = clampFirst(first);
    const params = {
      collections: filter?.collections && filter.collections.length > 0 ? filter.collections : null,
      yearFrom: filter?.yearFrom ?? null,
      yearTo: filter?.yearTo ?? null,
      topicId: filter?.topic ?? null,
      venueId: filter?.venue ?? null,
    };
    const rows = await this.executor.read<{ paper: PaperRow }>(
      queries().papersPage({ ...params, after: after ? decodeCursor(after) : null, limit: limit + 1 }),
    );
    const items = rows.slice(0, limit).map((row) => row.paper);
    return {
      items,
      hasNextPage: rows.length > limit,
      totalCount: async () => {
        const [row] = await this.executor.read<{ total: number }>(queries().papersCount(params));
        return row?.total ?? 0;
      },
    };
  }
}
