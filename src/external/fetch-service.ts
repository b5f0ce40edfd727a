import type { ClientSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import { badInput } from '../errors';
import type { RequestContext } from '../request-context';
import { CrossrefClient } from './crossref-client';
import { mergeWorks, type MergedWork } from './merge';
import { OpenAlexClient } from './openalex-client';
import type { ExternalError, ProviderName } from './provider-base';
import { ResponseCache } from './response-cache';
import type { ScholarlyClient } from './scholarly-client';
import { SemanticScholarClient } from './semantic-scholar-client';

export interface FetchRequest {
  doi?: string | undefined;
  search?: string | undefined;
  sources?: ProviderName[] | undefined;
  /** Results per source for a search. */
  cap?: number | undefined;
}

export interface FetchReport {
  perSource: Array<{
    source: ProviderName;
    found: number;
    error: { code: string; message: string; retryable: boolean } | null;
  }>;
  /** What the sources said, merged by DOI and by normalised title and year. Writing it is the caller's choice. */
  merged: MergedWork[];
  /** Calls made for this fetch, per provider and outcome. */
  calls: Record<string, Record<string, number>>;
}

/** The scholarly APIs together: asks each, and merges what they say into records. It never writes the graph. */
export class FetchService {
  readonly clients: Record<ProviderName, ScholarlyClient>;

  constructor(settings: ClientSettings, clients?: Partial<Record<ProviderName, ScholarlyClient>>) {
    const cache = new ResponseCache(settings.cacheTtlSeconds * 1000, settings.cacheEntries);
    this.clients = {
      openalex: clients?.openalex ?? new OpenAlexClient(settings, cache),
      crossref: clients?.crossref ?? new CrossrefClient(settings, cache),
      s2: clients?.s2 ?? new SemanticScholarClient(settings, cache),
    };
  }

  async fetch(ctx: RequestContext, request: FetchRequest): Promise<FetchReport> {
    if (!request.doi === !request.search) throw badInput('give exactly one of a DOI or a search text');
    const sources = request.sources?.length ? request.sources : (['openalex', 'crossref', 's2'] as ProviderName[]);
    // The calls of this fetch alone, whatever else the request is doing at the same time.
    const own = ctx.fork();
    const perSource: FetchReport['perSource'] = [];
    const records: WorkRecord[] = [];
    // One failing source weakens the answer; it does not fail the request.
    await Promise.all(
      sources.map(async (source) => {
        const client = this.clients[source];
        try {
          const found = request.doi
            ? [await client.getWork(own, request.doi)].filter((w): w is WorkRecord => w !== null)
            : await client.searchWorks(own, request.search!, request.cap ?? 10);
          records.push(...found);
          perSource.push({ source, found: found.length, error: null });
        } catch (error) {
          const e = error as ExternalError;
          perSource.push({
            source,
            found: 0,
            error: { code: String(e.code ?? 'INTERNAL'), message: e.message, retryable: Boolean(e.retryable) },
          });
        }
      }),
    );
    perSource.sort((a, b) => sources.indexOf(a.source) - sources.indexOf(b.source));
    return { perSource, merged: mergeWorks(records), calls: own.ledger.counts() };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.clients).map((client) => client.close()));
  }
}
