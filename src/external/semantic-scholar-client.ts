import type { ClientSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import type { RequestContext } from '../request-context';
import { cleanTitle, isJsonObject, type JsonObject, normaliseDoi, normalisePmid } from '../text';
import type { ProviderQuery } from './portfolios';
import { ProviderBase } from './provider-base';
import type { ResponseCache } from './response-cache';
import {
  emptyRecord,
  type ExternalAuthor,
  externalWorkId,
  int,
  pageRange,
  type ScholarlyClient,
  text,
} from './scholarly-client';

/** Fields asked of Semantic Scholar for a paper; tests may narrow them to what a recording asked for. */
export const S2_PAPER_FIELDS =
  'paperId,externalIds,title,abstract,year,venue,publicationDate,citationCount,authors,publicationTypes,journal';

/** Maps a Semantic Scholar paper object. */
export function mapS2Paper(paper: JsonObject): WorkRecord | null {
  const s2 = text(paper.paperId);
  if (!s2) return null;
  const externalIds = isJsonObject(paper.externalIds) ? paper.externalIds : {};
  const doi = normaliseDoi(externalIds.DOI);
  const pmid = normalisePmid(externalIds.PubMed);
  const mag =
    typeof externalIds.MAG === 'string' || typeof externalIds.MAG === 'number' ? String(externalIds.MAG) : undefined;
  const record = emptyRecord(externalWorkId({ doi, s2 })!, 's2');
  record.ids = { s2, ...(doi ? { doi } : {}), ...(pmid ? { pmid } : {}), ...(mag ? { mag } : {}) };
  record.doi = doi;
  const title = text(paper.title);
  record.title = title === null ? null : cleanTitle(title);
  record.abstract = text(paper.abstract);
  record.year = int(paper.year);
  record.publicationDate = text(paper.publicationDate);
  record.citedByCount = int(paper.citationCount);
  record.type = Array.isArray(paper.publicationTypes) ? text(paper.publicationTypes[0]) : null;
  const venue = text(paper.venue) ?? (isJsonObject(paper.journal) ? text(paper.journal.name) : null);
  if (venue)
    record.venue = {
      id: `s2-venue:${venue.toLowerCase()}`,
      name: venue,
      issnL: null,
      issn: [],
      type: null,
      publisher: null,
    };
  if (isJsonObject(paper.journal)) {
    record.volume = text(paper.journal.volume);
    Object.assign(record, pageRange(text(paper.journal.pages)));
  }
  record.authorships = (Array.isArray(paper.authors) ? paper.authors : [])
    .filter(isJsonObject)
    .map((author, order) => ({
      authorId: text(author.authorId) ? `s2a:${text(author.authorId)}` : null,
      name: text(author.name) ?? 'Unknown author',
      orcid: null,
      position: order === 0 ? 'first' : 'middle',
      order,
      corresponding: false,
      institutions: [],
    }));
  record.references = (Array.isArray(paper.references) ? paper.references : [])
    .filter(isJsonObject)
    .map((reference) =>
      externalWorkId({
        doi: normaliseDoi(isJsonObject(reference.externalIds) ? reference.externalIds.DOI : null),
        s2: text(reference.paperId) ?? undefined,
      }),
    )
    .filter((id): id is string => id !== null);
  return record;
}

/** Semantic Scholar Graph API: search (offset and bulk token paging), papers, citations, references, authors. */
export class SemanticScholarClient extends ProviderBase implements ScholarlyClient {
  constructor(
    client: ClientSettings,
    cache: ResponseCache,
    private readonly fields = S2_PAPER_FIELDS,
  ) {
    super(
      's2',
      client.semanticScholar,
      client,
      cache,
      client.semanticScholar.apiKey ? { 'x-api-key': client.semanticScholar.apiKey } : {},
    );
  }

  /** The API answers 400 for ids it cannot parse; that is "no such paper" to a caller. */
  protected override notFoundStatuses(status: number, body: string): boolean {
    return status === 400 && /paper id|not found/i.test(body);
  }

  private async offsetPaged(
    ctx: RequestContext,
    path: string,
    params: Record<string, string>,
    cap: number,
    pageSize = 100,
  ): Promise<JsonObject[]> {
    const items: JsonObject[] = [];
    let offset = 0;
    while (items.length < cap) {
      const page = await this.getJson<{ data?: unknown[]; next?: number }>(ctx, path, {
        ...params,
        offset,
        limit: Math.min(pageSize, cap),
      });
      const batch = (page?.data ?? []).filter(isJsonObject);
      items.push(...batch);
      if (batch.length === 0 || page?.next === undefined) break;
      offset = page.next;
    }
    return items.slice(0, cap);
  }

  private static id(id: string): string {
    const doi = normaliseDoi(id.replace(/^doi:/i, ''));
    if (doi) return doi;
    return id.replace(/^s2:/, '');
  }

  private mapAll(items: JsonObject[]): WorkRecord[] {
    return items.map(mapS2Paper).filter((work): work is WorkRecord => work !== null);
  }

  /** Relevance-ranked search by default; `bulk` takes boolean syntax and truncation, most cited first. */
  async searchWorks(
    ctx: RequestContext,
    query: string,
    cap = 25,
    kind: ProviderQuery['kind'] = 'search',
  ): Promise<WorkRecord[]> {
    if (kind === 'bulk') return this.bulkSearch(ctx, query, cap, 'citationCount:desc');
    return this.mapAll(await this.offsetPaged(ctx, '/graph/v1/paper/search', { query, fields: this.fields }, cap));
  }

  /** Bulk search: up to 1,000 per page, continued by a token. */
  async bulkSearch(ctx: RequestContext, query: string, cap = 1000, sort?: string): Promise<WorkRecord[]> {
    const items: JsonObject[] = [];
    let token: string | undefined;
    do {
      const page: { data?: unknown[]; token?: string | null } | null = await this.getJson(
        ctx,
        '/graph/v1/paper/search/bulk',
        {
          query,
          ...(sort ? { sort } : {}),
          ...(token ? { token } : { fields: this.fields }),
        },
      );
      const batch = (page?.data ?? []).filter(isJsonObject);
      items.push(...batch);
      token = batch.length > 0 ? (page?.token ?? undefined) : undefined;
    } while (token && items.length < cap);
    return this.mapAll(items.slice(0, cap));
  }

  async getWork(ctx: RequestContext, id: string): Promise<WorkRecord | null> {
    const paper = await this.getJson<JsonObject>(ctx, `/graph/v1/paper/${SemanticScholarClient.id(id)}`, {
      fields: this.fields,
    });
    return paper ? mapS2Paper(paper) : null;
  }

  async citations(ctx: RequestContext, id: string, cap = 1000): Promise<WorkRecord[]> {
    const rows = await this.offsetPaged(
      ctx,
      `/graph/v1/paper/${SemanticScholarClient.id(id)}/citations`,
      { fields: this.fields },
      cap,
    );
    return this.mapAll(rows.map((row) => (isJsonObject(row.citingPaper) ? row.citingPaper : {})));
  }

  async references(ctx: RequestContext, id: string, cap = 1000): Promise<WorkRecord[]> {
    const rows = await this.offsetPaged(
      ctx,
      `/graph/v1/paper/${SemanticScholarClient.id(id)}/references`,
      { fields: this.fields },
      cap,
      50,
    );
    return this.mapAll(rows.map((row) => (isJsonObject(row.citedPaper) ? row.citedPaper : {})));
  }

  async searchAuthors(ctx: RequestContext, name: string, cap = 25): Promise<ExternalAuthor[]> {
    const rows = await this.offsetPaged(ctx, '/graph/v1/author/search', { query: name, fields: 'name' }, cap);
    return rows.map((author) => ({
      id: String(author.authorId),
      name: text(author.name) ?? 'Unknown author',
      worksCount: int(author.paperCount),
      citationCount: int(author.citationCount),
      source: 's2' as const,
    }));
  }

  async authorWorks(ctx: RequestContext, authorId: string, cap = 1000): Promise<WorkRecord[]> {
    return this.mapAll(
      await this.offsetPaged(
        ctx,
        `/graph/v1/author/${authorId.replace(/^s2a:/, '')}/papers`,
        { fields: this.fields },
        cap,
      ),
    );
  }
}
