import type { ClientSettings } from '../config/settings';
import type { AuthorshipRecord, WorkDetails, WorkRecord } from '../domain';
import type { RequestContext } from '../request-context';
import { cleanTitle, isJsonObject, type JsonObject, normaliseDoi } from '../text';
import type { ProviderQuery } from './portfolios';
import { ProviderBase } from './provider-base';
import type { ResponseCache } from './response-cache';
import { emptyRecord, type ExternalAuthor, int, pageRange, type ScholarlyClient, text } from './scholarly-client';

/** Crossref abstracts are JATS XML fragments; keep the words. */
export function stripJats(value: string | null): string | null {
  if (!value) return null;
  const plain = value
    .replace(/<jats:title>[^<]*<\/jats:title>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 0 ? plain : null;
}

/** Volume, issue, pages, language and licence (the version of record's, else the first) of a Crossref work. */
function crossrefDetails(work: JsonObject): WorkDetails {
  const licenses = (Array.isArray(work.license) ? work.license : []).filter(isJsonObject);
  const license = licenses.find((entry) => entry['content-version'] === 'vor') ?? licenses[0];
  return {
    volume: text(work.volume),
    issue: text(work.issue),
    ...pageRange(text(work.page)),
    language: text(work.language),
    license: license ? text(license.URL) : null,
  };
}

/** Maps a Crossref work (`message` of /works/{doi}, or an item of /works). */
export function mapCrossrefWork(work: JsonObject): WorkRecord | null {
  const doi = normaliseDoi(work.DOI);
  if (!doi) return null;
  const record = emptyRecord(`doi:${doi}`, 'crossref');
  record.ids = { doi };
  record.doi = doi;
  const title = Array.isArray(work.title) ? text(work.title[0]) : text(work.title);
  record.title = title === null ? null : cleanTitle(title);
  record.abstract = stripJats(text(work.abstract));
  const parts = [work.issued, work['published-print'], work['published-online'], work.created]
    .filter(isJsonObject)
    .map((date) => (Array.isArray(date['date-parts']) ? (date['date-parts'][0] as unknown[]) : null))
    .find((first) => Array.isArray(first) && typeof first[0] === 'number');
  if (parts) {
    record.year = parts[0] as number;
    record.publicationDate = parts.map((part) => String(part).padStart(2, '0')).join('-');
  }
  record.type = text(work.type);
  record.citedByCount = int(work['is-referenced-by-count']);
  const updates = Array.isArray(work['updated-by']) ? work['updated-by'] : [];
  record.isRetracted = updates.some((update) => isJsonObject(update) && /retraction/i.test(String(update.type)));
  const container = Array.isArray(work['container-title']) ? text(work['container-title'][0]) : null;
  const issn = Array.isArray(work.ISSN) ? work.ISSN.filter((x): x is string => typeof x === 'string') : [];
  if (container) {
    record.venue = {
      id: issn[0] ? `issn:${issn[0]}` : `crossref-venue:${container.toLowerCase()}`,
      name: container,
      issnL: issn[0] ?? null,
      issn,
      type: null,
      publisher: text(work.publisher),
    };
  }
  Object.assign(record, crossrefDetails(work));
  record.authorships = (Array.isArray(work.author) ? work.author : [])
    .filter(isJsonObject)
    .map((author, order): AuthorshipRecord => {
      const orcid = text(author.ORCID);
      const name =
        [text(author.given), text(author.family)].filter(Boolean).join(' ') || text(author.name) || 'Unknown author';
      return {
        // Crossref has no author ids; an ORCID identifies a person, otherwise the author stays per work.
        authorId: orcid ? `orcid:${orcid.replace(/^https?:\/\/orcid\.org\//, '')}` : null,
        name,
        orcid: orcid ? orcid.replace(/^https?:\/\/orcid\.org\//, '') : null,
        position: author.sequence === 'first' ? 'first' : 'middle',
        order,
        corresponding: false,
        institutions: [],
      };
    });
  record.references = [
    ...new Set(
      (Array.isArray(work.reference) ? work.reference : [])
        .filter(isJsonObject)
        .map((reference) => normaliseDoi(reference.DOI))
        .filter((ref): ref is string => ref !== null)
        .map((ref) => `doi:${ref}`),
    ),
  ];
  return record;
}

/** Crossref: works by query (offset and cursor paging), by DOI with their reference lists; no citation lists. */
export class CrossrefClient extends ProviderBase implements ScholarlyClient {
  constructor(client: ClientSettings, cache: ResponseCache) {
    super(
      'crossref',
      client.crossref,
      client,
      cache,
      client.crossref.apiKey ? { 'Crossref-Plus-API-Token': `Bearer ${client.crossref.apiKey}` } : {},
    );
  }

  protected override defaultParams(): Record<string, string> {
    return this.settings.mailto ? { mailto: this.settings.mailto } : {};
  }

  /** Deep paging with `cursor=*` up to `cap` items. */
  private async pagedItems(
    ctx: RequestContext,
    path: string,
    params: Record<string, string>,
    cap: number,
  ): Promise<JsonObject[]> {
    const items: JsonObject[] = [];
    let cursor: string | null = '*';
    while (cursor && items.length < cap) {
      const page: { message?: { items?: unknown[]; 'next-cursor'?: string } } | null = await this.getJson(ctx, path, {
        ...params,
        rows: Math.min(cap, 1000),
        cursor,
      });
      const batch: JsonObject[] = (page?.message?.items ?? []).filter(isJsonObject);
      items.push(...batch);
      cursor = batch.length > 0 ? (page?.message?.['next-cursor'] ?? null) : null;
    }
    return items.slice(0, cap);
  }

  /** `query` (every field) by default; `bibliographic` searches titles, authors, venues and years only. */
  async searchWorks(
    ctx: RequestContext,
    query: string,
    cap = 20,
    kind: ProviderQuery['kind'] = 'search',
  ): Promise<WorkRecord[]> {
    if (kind === 'bibliographic') return this.matchReference(ctx, query, Math.min(cap, 1000));
    if (cap <= 1000) {
      // One page with offset paging is what most searches need, and what the polite pool prefers.
      const page = await this.getJson<{ message?: { items?: unknown[] } }>(ctx, '/works', { query, rows: cap });
      return (page?.message?.items ?? [])
        .filter(isJsonObject)
        .map(mapCrossrefWork)
        .filter((w): w is WorkRecord => w !== null);
    }
    return (await this.pagedItems(ctx, '/works', { query }, cap))
      .map(mapCrossrefWork)
      .filter((w): w is WorkRecord => w !== null);
  }

  /**
   * Works matching a reference as written (`query.bibliographic`, Crossref's field for citation strings), best first;
   * the caller decides whether the best is the work cited.
   */
  async matchReference(ctx: RequestContext, citation: string, rows = 3): Promise<WorkRecord[]> {
    const page = await this.getJson<{ message?: { items?: unknown[] } }>(ctx, '/works', {
      'query.bibliographic': citation.slice(0, 500),
      rows,
    });
    return (page?.message?.items ?? [])
      .filter(isJsonObject)
      .map(mapCrossrefWork)
      .filter((w): w is WorkRecord => w !== null);
  }

  async getWork(ctx: RequestContext, id: string): Promise<WorkRecord | null> {
    const doi = normaliseDoi(id.replace(/^doi:/, ''));
    if (!doi) return null;
    const body = await this.getJson<{ message?: JsonObject }>(ctx, `/works/${doi}`);
    return body?.message ? mapCrossrefWork(body.message) : null;
  }

  async references(ctx: RequestContext, id: string, cap = 1000): Promise<WorkRecord[]> {
    const work = await this.getWork(ctx, id);
    if (!work) return [];
    return work.references.slice(0, cap).map((ref) => {
      const record = emptyRecord(ref, 'crossref');
      record.doi = ref.slice('doi:'.length);
      record.ids = { doi: record.doi };
      return record;
    });
  }

  citations(_ctx: RequestContext): Promise<WorkRecord[]> {
    return Promise.resolve([]); // Crossref does not publish who cites a work (cited-by is for members only).
  }

  async searchAuthors(ctx: RequestContext, name: string, cap = 20): Promise<ExternalAuthor[]> {
    const page = await this.getJson<{ message?: { items?: unknown[] } }>(ctx, '/works', {
      'query.author': name,
      rows: cap,
    });
    const authors = new Map<string, ExternalAuthor>();
    for (const item of (page?.message?.items ?? []).filter(isJsonObject)) {
      for (const author of (Array.isArray(item.author) ? item.author : []).filter(isJsonObject)) {
        const full = [text(author.given), text(author.family)].filter(Boolean).join(' ');
        if (!full || !full.toLowerCase().includes(name.toLowerCase().split(/\s+/).pop() ?? '')) continue;
        const id = text(author.ORCID)?.replace(/^https?:\/\/orcid\.org\//, '') ?? full;
        const current = authors.get(id) ?? {
          id,
          name: full,
          worksCount: 0,
          citationCount: null,
          source: 'crossref' as const,
        };
        current.worksCount = (current.worksCount ?? 0) + 1;
        authors.set(id, current);
      }
    }
    return [...authors.values()];
  }

  async authorWorks(ctx: RequestContext, authorId: string, cap = 100): Promise<WorkRecord[]> {
    const page = await this.getJson<{ message?: { items?: unknown[] } }>(ctx, '/works', {
      'query.author': authorId,
      rows: cap,
    });
    return (page?.message?.items ?? [])
      .filter(isJsonObject)
      .map(mapCrossrefWork)
      .filter((w): w is WorkRecord => w !== null);
  }
}
