import type { ClientSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import type { IngestService, IngestSummary } from '../ingest/ingest-service';
import { badInput } from '../errors';
import { CrossrefClient, OpenAlexClient, SemanticScholarClient, type ScholarlyClient } from './clients';
import { mergeWorks, type MergedWork } from './merge';
import { CallStats, type ExternalError, type ProviderName } from './provider-base';
import { ResponseCache } from './response-cache';

export interface FetchRequest {
  doi?: string | undefined;
  search?: string | undefined;
  sources?: ProviderName[] | undefined;
  /** Results per source for a search. */
  cap?: number | undefined;
  /** Write what was found into the graph. */
  ingest?: boolean | undefined;
}

export interface FetchReport {
  perSource: Array<{
    source: ProviderName;
    found: number;
    error: { code: string; message: string; retryable: boolean } | null;
  }>;
  merged: MergedWork[];
  written: IngestSummary | null;
  calls: Record<string, Record<string, number>>;
}

/** The scholarly APIs together: asks each, merges what they say, and writes it through to the graph on request. */
export class FetchService {
  readonly stats = new CallStats();
  readonly clients: Record<ProviderName, ScholarlyClient>;

  constructor(
    settings: ClientSettings,
    private readonly ingest: IngestService,
    clients?: Partial<Record<ProviderName, ScholarlyClient>>,
  ) {
    const cache = new ResponseCache(settings.cacheTtlSeconds * 1000, settings.cacheEntries);
    this.clients = {
      openalex: clients?.openalex ?? new OpenAlexClient(settings, cache, this.stats),
      crossref: clients?.crossref ?? new CrossrefClient(settings, cache, this.stats),
      s2: clients?.s2 ?? new SemanticScholarClient(settings, cache, this.stats),
    };
  }

  async fetch(request: FetchRequest): Promise<FetchReport> {
    if (!request.doi === !request.search) throw badInput('give exactly one of a DOI or a search text');
    const sources = request.sources?.length ? request.sources : (['openalex', 'crossref', 's2'] as ProviderName[]);
    const perSource: FetchReport['perSource'] = [];
    const records: WorkRecord[] = [];
    // One failing source weakens the answer; it does not fail the request.
    await Promise.all(
      sources.map(async (source) => {
        const client = this.clients[source];
        try {
          const found = request.doi
            ? [await client.getWork(request.doi)].filter((w): w is WorkRecord => w !== null)
            : await client.searchWorks(request.search!, request.cap ?? 10);
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
    const merged = mergeWorks(records);
    const written =
      request.ingest && merged.length > 0
        ? await this.ingest.writeRecords(
            merged.map((work) => work.record),
            { collection: 'external', embed: 'now', fetchedAt: new Date().toISOString() },
          )
        : null;
    return { perSource, merged, written, calls: this.stats.counts };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.clients).map((client) => client.close()));
  }
}
