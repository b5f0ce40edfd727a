import type { ClientSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import { mapOpenAlexWork } from '../ingest/openalex';
import type { RequestContext } from '../request-context';
import { isJsonObject, type JsonObject, normaliseDoi, shortOpenAlexId } from '../text';
import type { ProviderQuery } from './portfolios';
import { ProviderBase } from './provider-base';
import type { ResponseCache } from './response-cache';
import { type ExternalAuthor, int, type ScholarlyClient, text } from './scholarly-client';

/** OpenAlex: works, citations (filter=cites:), references (filter=cited_by:), authors; cursor paging. */
export class OpenAlexClient extends ProviderBase implements ScholarlyClient {
  constructor(client: ClientSettings, cache: ResponseCache) {
    super('openalex', client.openalex, client, cache);
  }

  protected override defaultParams(): Record<string, string> {
    const params: Record<string, string> = {};
    if (this.settings.apiKey) params.api_key = this.settings.apiKey;
    if (this.settings.mailto) params.mailto = this.settings.mailto;
    return params;
  }

  /** Follows `meta.next_cursor` until `cap` results or the last page. */
  private async pagedWorks(
    ctx: RequestContext,
    params: Record<string, string>,
    cap: number,
    path = '/works',
  ): Promise<JsonObject[]> {
    const results: JsonObject[] = [];
    let cursor: string | null = '*';
    while (cursor && results.length < cap) {
      const page: { results?: unknown[]; meta?: { next_cursor?: string | null } } | null = await this.getJson(
        ctx,
        path,
        {
          ...params,
          'per-page': Math.min(200, cap),
          cursor,
        },
      );
      const items: JsonObject[] = (page?.results ?? []).filter(isJsonObject);
      results.push(...items);
      // Stop at the last (empty) page, or as soon as meta.count says everything is here.
      const count: unknown = (page?.meta as { count?: unknown } | undefined)?.count;
      const complete: boolean = typeof count === 'number' && results.length >= count;
      cursor = items.length > 0 && !complete ? (page?.meta?.next_cursor ?? null) : null;
    }
    return results.slice(0, cap);
  }

  private map(works: JsonObject[]): WorkRecord[] {
    const out: WorkRecord[] = [];
    for (const work of works) {
      try {
        out.push(mapOpenAlexWork(work));
      } catch {
        // A result without a work id cannot become a paper; the others still count.
      }
    }
    return out;
  }

  /** Titles and abstracts by default (`title_and_abstract.search`); `search` also reaches full texts. */
  async searchWorks(
    ctx: RequestContext,
    query: string,
    cap = 25,
    kind: ProviderQuery['kind'] = 'title_abstract',
  ): Promise<WorkRecord[]> {
    const params: Record<string, string> =
      kind === 'search' ? { search: query } : { filter: `title_and_abstract.search:${query.replace(/[,:|]/g, ' ')}` };
    return this.map(await this.pagedWorks(ctx, params, cap));
  }

  /** Works matching a raw OpenAlex filter (e.g. `openalex:W1|W2`), cursor-paged to the last page or `cap`. */
  async filterWorks(ctx: RequestContext, filter: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks(ctx, { filter }, cap));
  }

  /** Several ids OR-ed as OpenAlex allows (`W1|W2`). */
  private static ids(id: string): string {
    return id
      .split('|')
      .map((part) => shortOpenAlexId(part) ?? part)
      .join('|');
  }

  async getWork(ctx: RequestContext, id: string): Promise<WorkRecord | null> {
    const doi = normaliseDoi(id);
    const key = doi ? `doi:${doi}` : (shortOpenAlexId(id) ?? id);
    const work = await this.getJson<JsonObject>(ctx, `/works/${key}`);
    return work ? (this.map([work])[0] ?? null) : null;
  }

  async citations(ctx: RequestContext, id: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks(ctx, { filter: `cites:${OpenAlexClient.ids(id)}` }, cap));
  }

  async references(ctx: RequestContext, id: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks(ctx, { filter: `cited_by:${OpenAlexClient.ids(id)}` }, cap));
  }

  async searchAuthors(ctx: RequestContext, name: string, cap = 25): Promise<ExternalAuthor[]> {
    const page = await this.getJson<{ results?: unknown[] }>(ctx, '/authors', {
      search: name,
      'per-page': Math.min(cap, 200),
    });
    return (page?.results ?? []).filter(isJsonObject).map((author) => ({
      id: shortOpenAlexId(author.id) ?? String(author.id),
      name: text(author.display_name) ?? 'Unknown author',
      worksCount: int(author.works_count),
      citationCount: int(author.cited_by_count),
      source: 'openalex' as const,
    }));
  }

  async authorWorks(ctx: RequestContext, authorId: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks(ctx, { filter: `author.id:${shortOpenAlexId(authorId) ?? authorId}` }, cap));
  }
}
