import type { ClientSettings } from '../config/settings';
import type { WorkRecord } from '../domain';
import { badInput } from '../errors';
import type { RequestContext } from '../request-context';
import { CrossrefClient } from './crossref-client';
import { mergeWorks, type MergedWork } from './merge';
import { OpenAlexClient } from './openalex-client';
import { describeQuery, type Portfolio, type PortfolioName, renderPortfolio } from './portfolios';
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

/** One search of one portfolio at one provider: what was sent, how many works came back, or why none did. */
export interface PortfolioSearch {
  portfolio: PortfolioName;
  source: ProviderName;
  /** The query as sent (see describeQuery). */
  query: string;
  found: number;
  error: { code: string; message: string; retryable: boolean } | null;
}

/** Where a merged work was found: by which portfolio, at which provider, at which rank (1 = first). */
export interface PortfolioHit {
  portfolio: PortfolioName;
  source: ProviderName;
  rank: number;
}

export interface PortfolioReport {
  /** One per portfolio and provider that can search that way, portfolios in the order given, providers in order. */
  searches: PortfolioSearch[];
  /** Every work found, merged across portfolios and providers, with every place it was found. */
  merged: Array<MergedWork & { hits: PortfolioHit[] }>;
  calls: Record<string, Record<string, number>>;
}

function errorOf(error: unknown): PortfolioSearch['error'] {
  const e = error as ExternalError;
  return { code: String(e.code ?? 'INTERNAL'), message: e.message, retryable: Boolean(e.retryable) };
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
          perSource.push({ source, found: 0, error: errorOf(error) });
        }
      }),
    );
    perSource.sort((a, b) => sources.indexOf(a.source) - sources.indexOf(b.source));
    return { perSource, merged: mergeWorks(records), calls: own.ledger.counts() };
  }

  /**
   * Every portfolio sent to every provider that can search its way, all at once (each provider's own rate limit
   * paces its calls); the results merged by identifier and title. A failing search weakens the result, never fails it.
   */
  async searchPortfolios(
    ctx: RequestContext,
    portfolios: readonly Portfolio[],
    options: { sources?: ProviderName[] | undefined; cap?: number | undefined } = {},
  ): Promise<PortfolioReport> {
    const sources = options.sources?.length ? options.sources : (['openalex', 's2', 'crossref'] as ProviderName[]);
    const own = ctx.fork();
    const hitsOf = new Map<WorkRecord, PortfolioHit>();
    const planned = portfolios.flatMap((portfolio) =>
      sources.flatMap((source) => {
        const query = renderPortfolio(source, portfolio);
        return query ? [{ portfolio: portfolio.name, source, query }] : [];
      }),
    );
    const searches = await Promise.all(
      planned.map(async ({ portfolio, source, query }): Promise<PortfolioSearch> => {
        const record = { portfolio, source, query: describeQuery(query) };
        try {
          const found = await this.clients[source].searchWorks(own, query.text, options.cap ?? 10, query.kind);
          found.forEach((work, index) => hitsOf.set(work, { portfolio, source, rank: index + 1 }));
          return { ...record, found: found.length, error: null };
        } catch (error) {
          return { ...record, found: 0, error: errorOf(error) };
        }
      }),
    );
    const merged = mergeWorks([...hitsOf.keys()]).map((work) => ({
      ...work,
      hits: work.members.map((member) => hitsOf.get(member)!),
    }));
    return { searches, merged, calls: own.ledger.counts() };
  }

  async close(): Promise<void> {
    await Promise.all(Object.values(this.clients).map((client) => client.close()));
  }
}
