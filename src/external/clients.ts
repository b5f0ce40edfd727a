import type { ClientSettings } from '../config/settings';
import type { AuthorshipRecord, WorkRecord } from '../domain';
import { mapOpenAlexWork, normaliseDoi, normalisePmid, shortOpenAlexId } from '../ingest/openalex';
import { type CallCounter, ProviderBase, type ProviderName } from './provider-base';
import type { ResponseCache } from './response-cache';

/** An author as a provider returns it. */
export interface ExternalAuthor {
  id: string;
  name: string;
  worksCount: number | null;
  citationCount: number | null;
  source: ProviderName;
}

/** What every scholarly API client offers, where the API allows it. */
export interface ScholarlyClient {
  readonly provider: ProviderName;
  searchWorks(text: string, cap?: number): Promise<WorkRecord[]>;
  getWork(id: string): Promise<WorkRecord | null>;
  /** Works this work cites. */
  references(id: string, cap?: number): Promise<WorkRecord[]>;
  /** Works that cite this work (not offered by Crossref). */
  citations(id: string, cap?: number): Promise<WorkRecord[]>;
  searchAuthors(name: string, cap?: number): Promise<ExternalAuthor[]>;
  authorWorks(authorId: string, cap?: number): Promise<WorkRecord[]>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;

/** Graph id of a work known only by DOI or a Semantic Scholar id. */
export function externalWorkId(ids: {
  openalex?: string | undefined;
  doi?: string | null | undefined;
  s2?: string | undefined;
}): string | null {
  if (ids.openalex) return ids.openalex;
  if (ids.doi) return `doi:${ids.doi}`;
  if (ids.s2) return `s2:${ids.s2}`;
  return null;
}

function emptyRecord(id: string, source: string): WorkRecord {
  return {
    id,
    ids: {},
    doi: null,
    title: null,
    abstract: null,
    year: null,
    publicationDate: null,
    type: null,
    citedByCount: null,
    isRetracted: false,
    source,
    authorships: [],
    venue: null,
    topics: [],
    references: [],
  };
}

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

// ---------------------------------------------------------------------------------------------------------- OpenAlex

/** OpenAlex: works, citations (filter=cites:), references (filter=cited_by:), authors; cursor paging. */
export class OpenAlexClient extends ProviderBase implements ScholarlyClient {
  constructor(client: ClientSettings, cache: ResponseCache, counter?: CallCounter) {
    super('openalex', client.openalex, client, cache, counter);
  }

  protected override defaultParams(): Record<string, string> {
    const params: Record<string, string> = {};
    if (this.settings.apiKey) params.api_key = this.settings.apiKey;
    if (this.settings.mailto) params.mailto = this.settings.mailto;
    return params;
  }

  /** Follows `meta.next_cursor` until `cap` results or the last page. */
  private async pagedWorks(params: Record<string, string>, cap: number, path = '/works'): Promise<Json[]> {
    const results: Json[] = [];
    let cursor: string | null = '*';
    while (cursor && results.length < cap) {
      const page: { results?: unknown[]; meta?: { next_cursor?: string | null } } | null = await this.getJson(path, {
        ...params,
        'per-page': Math.min(200, cap),
        cursor,
      });
      const items: Json[] = (page?.results ?? []).filter(isObject);
      results.push(...items);
      // Stop at the last (empty) page, or as soon as meta.count says everything is here.
      const count: unknown = (page?.meta as { count?: unknown } | undefined)?.count;
      const complete: boolean = typeof count === 'number' && results.length >= count;
      cursor = items.length > 0 && !complete ? (page?.meta?.next_cursor ?? null) : null;
    }
    return results.slice(0, cap);
  }

  private map(works: Json[]): WorkRecord[] {
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

  async searchWorks(query: string, cap = 25): Promise<WorkRecord[]> {
    return this.map(
      await this.pagedWorks({ filter: `title_and_abstract.search:${query.replace(/[,:|]/g, ' ')}` }, cap),
    );
  }

  /** Works matching a raw OpenAlex filter (e.g. `openalex:W1|W2`), cursor-paged to the last page or `cap`. */
  async filterWorks(filter: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks({ filter }, cap));
  }

  /** Several ids OR-ed as OpenAlex allows (`W1|W2`). */
  private static ids(id: string): string {
    return id
      .split('|')
      .map((part) => shortOpenAlexId(part) ?? part)
      .join('|');
  }

  async getWork(id: string): Promise<WorkRecord | null> {
    const doi = normaliseDoi(id);
    const key = doi ? `doi:${doi}` : (shortOpenAlexId(id) ?? id);
    const work = await this.getJson<Json>(`/works/${key}`);
    return work ? (this.map([work])[0] ?? null) : null;
  }

  async citations(id: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks({ filter: `cites:${OpenAlexClient.ids(id)}` }, cap));
  }

  async references(id: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks({ filter: `cited_by:${OpenAlexClient.ids(id)}` }, cap));
  }

  async searchAuthors(name: string, cap = 25): Promise<ExternalAuthor[]> {
    const page = await this.getJson<{ results?: unknown[] }>('/authors', {
      search: name,
      'per-page': Math.min(cap, 200),
    });
    return (page?.results ?? []).filter(isObject).map((author) => ({
      id: shortOpenAlexId(author.id) ?? String(author.id),
      name: text(author.display_name) ?? 'Unknown author',
      worksCount: int(author.works_count),
      citationCount: int(author.cited_by_count),
      source: 'openalex' as const,
    }));
  }

  async authorWorks(authorId: string, cap = 200): Promise<WorkRecord[]> {
    return this.map(await this.pagedWorks({ filter: `author.id:${shortOpenAlexId(authorId) ?? authorId}` }, cap));
  }
}

// ---------------------------------------------------------------------------------------------------------- Crossref

/** Maps a Crossref work (`message` of /works/{doi}, or an item of /works). */
export function mapCrossrefWork(work: Json): WorkRecord | null {
  const doi = normaliseDoi(work.DOI);
  if (!doi) return null;
  const record = emptyRecord(`doi:${doi}`, 'crossref');
  record.ids = { doi };
  record.doi = doi;
  record.title = Array.isArray(work.title) ? text(work.title[0]) : text(work.title);
  record.abstract = stripJats(text(work.abstract));
  const parts = [work.issued, work['published-print'], work['published-online'], work.created]
    .filter(isObject)
    .map((date) => (Array.isArray(date['date-parts']) ? (date['date-parts'][0] as unknown[]) : null))
    .find((first) => Array.isArray(first) && typeof first[0] === 'number');
  if (parts) {
    record.year = parts[0] as number;
    record.publicationDate = parts.map((part) => String(part).padStart(2, '0')).join('-');
  }
  record.type = text(work.type);
  record.citedByCount = int(work['is-referenced-by-count']);
  const updates = Array.isArray(work['updated-by']) ? work['updated-by'] : [];
  record.isRetracted = updates.some((update) => isObject(update) && /retraction/i.test(String(update.type)));
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
  record.authorships = (Array.isArray(work.author) ? work.author : [])
    .filter(isObject)
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
        .filter(isObject)
        .map((reference) => normaliseDoi(reference.DOI))
        .filter((ref): ref is string => ref !== null)
        .map((ref) => `doi:${ref}`),
    ),
  ];
  return record;
}

/** Crossref: works by query (offset and cursor paging), by DOI with their reference lists; no citation lists. */
export class CrossrefClient extends ProviderBase implements ScholarlyClient {
  constructor(client: ClientSettings, cache: ResponseCache, counter?: CallCounter) {
    super(
      'crossref',
      client.crossref,
      client,
      cache,
      counter,
      client.crossref.apiKey ? { 'Crossref-Plus-API-Token': `Bearer ${client.crossref.apiKey}` } : {},
    );
  }

  protected override defaultParams(): Record<string, string> {
    return this.settings.mailto ? { mailto: this.settings.mailto } : {};
  }

  /** Deep paging with `cursor=*` up to `cap` items. */
  private async pagedItems(path: string, params: Record<string, string>, cap: number): Promise<Json[]> {
    const items: Json[] = [];
    let cursor: string | null = '*';
    while (cursor && items.length < cap) {
      const page: { message?: { items?: unknown[]; 'next-cursor'?: string } } | null = await this.getJson(path, {
        ...params,
        rows: Math.min(cap, 1000),
        cursor,
      });
      const batch: Json[] = (page?.message?.items ?? []).filter(isObject);
      items.push(...batch);
      cursor = batch.length > 0 ? (page?.message?.['next-cursor'] ?? null) : null;
    }
    return items.slice(0, cap);
  }

  async searchWorks(query: string, cap = 20): Promise<WorkRecord[]> {
    if (cap <= 1000) {
      // One page with offset paging is what most searches need, and what the polite pool prefers.
      const page = await this.getJson<{ message?: { items?: unknown[] } }>('/works', { query, rows: cap });
      return (page?.message?.items ?? [])
        .filter(isObject)
        .map(mapCrossrefWork)
        .filter((w): w is WorkRecord => w !== null);
    }
    return (await this.pagedItems('/works', { query }, cap))
      .map(mapCrossrefWork)
      .filter((w): w is WorkRecord => w !== null);
  }

  async getWork(id: string): Promise<WorkRecord | null> {
    const doi = normaliseDoi(id.replace(/^doi:/, ''));
    if (!doi) return null;
    const body = await this.getJson<{ message?: Json }>(`/works/${doi}`);
    return body?.message ? mapCrossrefWork(body.message) : null;
  }

  async references(id: string, cap = 1000): Promise<WorkRecord[]> {
    const work = await this.getWork(id);
    if (!work) return [];
    return work.references.slice(0, cap).map((ref) => {
      const record = emptyRecord(ref, 'crossref');
      record.doi = ref.slice('doi:'.length);
      record.ids = { doi: record.doi };
      return record;
    });
  }

  citations(): Promise<WorkRecord[]> {
    return Promise.resolve([]); // Crossref does not publish who cites a work (cited-by is for members only).
  }

  async searchAuthors(name: string, cap = 20): Promise<ExternalAuthor[]> {
    const page = await this.getJson<{ message?: { items?: unknown[] } }>('/works', { 'query.author': name, rows: cap });
    const authors = new Map<string, ExternalAuthor>();
    for (const item of (page?.message?.items ?? []).filter(isObject)) {
      for (const author of (Array.isArray(item.author) ? item.author : []).filter(isObject)) {
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

  async authorWorks(authorId: string, cap = 100): Promise<WorkRecord[]> {
    const page = await this.getJson<{ message?: { items?: unknown[] } }>('/works', {
      'query.author': authorId,
      rows: cap,
    });
    return (page?.message?.items ?? [])
      .filter(isObject)
      .map(mapCrossrefWork)
      .filter((w): w is WorkRecord => w !== null);
  }
}

// -------------------------------------------------------------------------------------------------- Semantic Scholar

/** Fields asked of Semantic Scholar for a paper; tests may narrow them to what a recording asked for. */
export const S2_PAPER_FIELDS =
  'paperId,externalIds,title,abstract,year,venue,publicationDate,citationCount,authors,publicationTypes,journal';

/** Maps a Semantic Scholar paper object. */
export function mapS2Paper(paper: Json): WorkRecord | null {
  const s2 = text(paper.paperId);
  if (!s2) return null;
  const externalIds = isObject(paper.externalIds) ? paper.externalIds : {};
  const doi = normaliseDoi(externalIds.DOI);
  const pmid = normalisePmid(externalIds.PubMed);
  const mag =
    typeof externalIds.MAG === 'string' || typeof externalIds.MAG === 'number' ? String(externalIds.MAG) : undefined;
  const record = emptyRecord(externalWorkId({ doi, s2 })!, 's2');
  record.ids = { s2, ...(doi ? { doi } : {}), ...(pmid ? { pmid } : {}), ...(mag ? { mag } : {}) };
  record.doi = doi;
  record.title = text(paper.title);
  record.abstract = text(paper.abstract);
  record.year = int(paper.year);
  record.publicationDate = text(paper.publicationDate);
  record.citedByCount = int(paper.citationCount);
  record.type = Array.isArray(paper.publicationTypes) ? text(paper.publicationTypes[0]) : null;
  const venue = text(paper.venue) ?? (isObject(paper.journal) ? text(paper.journal.name) : null);
  if (venue)
    record.venue = {
      id: `s2-venue:${venue.toLowerCase()}`,
      name: venue,
      issnL: null,
      issn: [],
      type: null,
      publisher: null,
    };
  record.authorships = (Array.isArray(paper.authors) ? paper.authors : []).filter(isObject).map((author, order) => ({
    authorId: text(author.authorId) ? `s2a:${text(author.authorId)}` : null,
    name: text(author.name) ?? 'Unknown author',
    orcid: null,
    position: order === 0 ? 'first' : 'middle',
    order,
    corresponding: false,
    institutions: [],
  }));
  record.references = (Array.isArray(paper.references) ? paper.references : [])
    .filter(isObject)
    .map((reference) =>
      externalWorkId({
        doi: normaliseDoi(isObject(reference.externalIds) ? reference.externalIds.DOI : null),
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
    counter?: CallCounter,
    private readonly fields = S2_PAPER_FIELDS,
  ) {
    super(
      's2',
      client.semanticScholar,
      client,
      cache,
      counter,
      client.semanticScholar.apiKey ? { 'x-api-key': client.semanticScholar.apiKey } : {},
    );
  }

  /** The API answers 400 for ids it cannot parse; that is "no such paper" to a caller. */
  protected override notFoundStatuses(status: number, body: string): boolean {
    return status === 400 && /paper id|not found/i.test(body);
  }

  private async offsetPaged(
    path: string,
    params: Record<string, string>,
    cap: number,
    pageSize = 100,
  ): Promise<Json[]> {
    const items: Json[] = [];
    let offset = 0;
    while (items.length < cap) {
      const page = await this.getJson<{ data?: unknown[]; next?: number }>(path, {
        ...params,
        offset,
        limit: Math.min(pageSize, cap),
      });
      const batch = (page?.data ?? []).filter(isObject);
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

  private mapAll(items: Json[]): WorkRecord[] {
    return items.map(mapS2Paper).filter((work): work is WorkRecord => work !== null);
  }

  async searchWorks(query: string, cap = 25): Promise<WorkRecord[]> {
    return this.mapAll(await this.offsetPaged('/graph/v1/paper/search', { query, fields: this.fields }, cap));
  }

  /** Bulk search: up to 1,000 per page, continued by a token. */
  async bulkSearch(query: string, cap = 1000, sort?: string): Promise<WorkRecord[]> {
    const items: Json[] = [];
    let token: string | undefined;
    do {
      const page: { data?: unknown[]; token?: string | null } | null = await this.getJson(
        '/graph/v1/paper/search/bulk',
        {
          query,
          ...(sort ? { sort } : {}),
          ...(token ? { token } : { fields: this.fields }),
        },
      );
      const batch = (page?.data ?? []).filter(isObject);
      items.push(...batch);
      token = batch.length > 0 ? (page?.token ?? undefined) : undefined;
    } while (token && items.length < cap);
    return this.mapAll(items.slice(0, cap));
  }

  async getWork(id: string): Promise<WorkRecord | null> {
    const paper = await this.getJson<Json>(`/graph/v1/paper/${SemanticScholarClient.id(id)}`, { fields: this.fields });
    return paper ? mapS2Paper(paper) : null;
  }

  async citations(id: string, cap = 1000): Promise<WorkRecord[]> {
    const rows = await this.offsetPaged(
      `/graph/v1/paper/${SemanticScholarClient.id(id)}/citations`,
      { fields: this.fields },
      cap,
    );
    return this.mapAll(rows.map((row) => (isObject(row.citingPaper) ? row.citingPaper : {})));
  }

  async references(id: string, cap = 1000): Promise<WorkRecord[]> {
    const rows = await this.offsetPaged(
      `/graph/v1/paper/${SemanticScholarClient.id(id)}/references`,
      { fields: this.fields },
      cap,
      50,
    );
    return this.mapAll(rows.map((row) => (isObject(row.citedPaper) ? row.citedPaper : {})));
  }

  async searchAuthors(name: string, cap = 25): Promise<ExternalAuthor[]> {
    const rows = await this.offsetPaged('/graph/v1/author/search', { query: name, fields: 'name' }, cap);
    return rows.map((author) => ({
      id: String(author.authorId),
      name: text(author.name) ?? 'Unknown author',
      worksCount: int(author.paperCount),
      citationCount: int(author.citationCount),
      source: 's2' as const,
    }));
  }

  async authorWorks(authorId: string, cap = 1000): Promise<WorkRecord[]> {
    return this.mapAll(
      await this.offsetPaged(`/graph/v1/author/${authorId.replace(/^s2a:/, '')}/papers`, { fields: this.fields }, cap),
    );
  }
}
