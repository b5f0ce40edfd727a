import type { AppContext } from '../app-context';
import { settingsHash } from '../config/settings';
import { badInput } from '../errors';
import type { SearchOptions } from '../retrieval/search-service';
import type { AskOptions } from '../pipeline/ask-service';
import { encodeCursor, type PaperFilter } from '../catalog/catalog-service';
import type { AuthorRow, PaperRow } from '../domain';
import type { GraphqlContext } from './graphql-context';

type Args = Record<string, unknown>;

interface GraphqlSearchFilter {
  collections?: string[] | null;
  years?: { from?: number | null; to?: number | null } | null;
  topics?: string[] | null;
  authors?: string[] | null;
  venues?: string[] | null;
}

function labelCounts(counts: Record<string, number>): Array<{ label: string; count: number }> {
  return [
    { label: 'Paper', count: counts.paperNodes ?? 0 },
    { label: 'Author', count: counts.authorNodes ?? 0 },
    { label: 'Institution', count: counts.institutions ?? 0 },
    { label: 'Venue', count: counts.venues ?? 0 },
    { label: 'Topic', count: counts.topics ?? 0 },
    { label: 'Chunk', count: counts.chunks ?? 0 },
  ];
}

function relationshipCounts(counts: Record<string, number>): Array<{ type: string; count: number }> {
  return [
    { type: 'AUTHORED', count: counts.authored ?? 0 },
    { type: 'AFFILIATED_WITH', count: counts.affiliatedWith ?? 0 },
    { type: 'PUBLISHED_IN', count: counts.publishedIn ?? 0 },
    { type: 'HAS_TOPIC', count: counts.hasTopic ?? 0 },
    { type: 'HAS_CHUNK', count: counts.hasChunk ?? 0 },
    { type: 'CITES', count: counts.cites ?? 0 },
  ];
}

/** Resolvers call services only; they hold no query logic of their own. */
export function makeResolvers(app: AppContext) {
  const { catalog } = app;
  return {
    Query: {
      health: async () => {
        const db = await catalog.health();
        return {
          ok: true,
          database: app.executor.uri,
          neo4jVersion: db.version,
          neo4jEdition: db.edition,
          settingsHash: settingsHash(app.settings),
        };
      },
      stats: async () => {
        const { counts, collections } = await catalog.stats();
        return {
          papers: (counts.paperNodes ?? 0) - (counts.stubPapers ?? 0),
          stubPapers: counts.stubPapers ?? 0,
          authors: (counts.authorNodes ?? 0) - (counts.anonymousAuthors ?? 0),
          anonymousAuthors: counts.anonymousAuthors ?? 0,
          chunks: counts.chunks ?? 0,
          citesBetweenPapers: counts.citesBetweenPapers ?? 0,
          labels: labelCounts(counts),
          relationships: relationshipCounts(counts),
          collections,
        };
      },
      paper: async (_: unknown, args: { id?: string | null; doi?: string | null }) => {
        if ((args.id == null) === (args.doi == null)) throw badInput('give exactly one of id or doi');
        return args.id != null ? catalog.paperById(args.id) : catalog.paperByDoi(args.doi!);
      },
      author: async (_: unknown, args: { id: string }) => {
        const found = await catalog.author(args.id);
        return found ? { ...found.author, institutions: found.institutions, paperCount: found.paperCount } : null;
      },
      ask: (_: unknown, args: { question: string; options?: AskOptions | null }, context: GraphqlContext) =>
        app.ask.ask(context.request, args.question, args.options ?? {}),
      search: async (
        _: unknown,
        args: {
          query: string;
          first?: number | null;
          filter?: GraphqlSearchFilter | null;
          options?: Partial<SearchOptions> | null;
        },
        context: GraphqlContext,
      ) => {
        const filter = args.filter ?? {};
        const response = await app.search.search(
          context.request,
          args.query,
          args.first ?? 10,
          {
            collections: filter.collections ?? null,
            yearFrom: filter.years?.from ?? null,
            yearTo: filter.years?.to ?? null,
            topics: filter.topics ?? null,
            authors: filter.authors ?? null,
            venues: filter.venues ?? null,
          },
          args.options ?? undefined,
        );
        const { trace } = response;
        return {
          results: response.results,
          trace: {
            query: trace.query,
            luceneQuery: trace.luceneQuery,
            expansionTerms: trace.expansionTerms,
            expansionCandidates: trace.expansionCandidates,
            expansionSource: trace.expansionSource,
            options: trace.options,
            timings: Object.entries(trace.timings).map(([stage, ms]) => ({ stage: stage.replace(/Ms$/, ''), ms })),
            sparseHits: trace.counts.sparse,
            denseHits: trace.counts.dense,
            fusedHits: trace.counts.fused,
          },
        };
      },
      papers: async (
        _: unknown,
        args: { filter?: PaperFilter | null; first?: number | null; after?: string | null },
      ) => {
        const page = await catalog.papers(args.filter, args.first, args.after);
        const edges = page.items.map((paper) => ({ cursor: encodeCursor(paper.id), node: paper }));
        return {
          edges,
          pageInfo: {
            hasNextPage: page.hasNextPage,
            hasPreviousPage: Boolean(args.after),
            startCursor: edges[0]?.cursor ?? null,
            endCursor: edges[edges.length - 1]?.cursor ?? null,
          },
          totalCount: () => page.totalCount(),
        };
      },
    },
    Paper: {
      stub: (paper: PaperRow) => paper.stub === true,
      isRetracted: (paper: PaperRow) => paper.isRetracted === true,
      collections: (paper: PaperRow) => (Array.isArray(paper.collections) ? paper.collections : []),
      doiUrl: (paper: PaperRow) => (typeof paper.doi === 'string' ? `https://doi.org/${paper.doi}` : null),
      authors: async (paper: PaperRow) =>
        (await catalog.paperAuthors(paper.id)).map((row) => ({
          author: row.author,
          position: row.position,
          order: row.order,
        })),
      venue: (paper: PaperRow) => catalog.paperVenue(paper.id),
      topics: (paper: PaperRow, args: Args) => catalog.paperTopics(paper.id, args.first as number),
      references: (paper: PaperRow, args: Args) => catalog.paperReferences(paper.id, args.first as number),
      chunks: (paper: PaperRow) => catalog.paperChunks(paper.id),
    },
    Author: {
      anonymous: (author: AuthorRow) => author.anonymous === true,
      institutions: async (author: AuthorRow & { institutions?: unknown[] }) =>
        author.institutions ?? (await catalog.author(author.id))?.institutions ?? [],
      paperCount: async (author: AuthorRow & { paperCount?: number }) =>
        author.paperCount ?? (await catalog.author(author.id))?.paperCount ?? 0,
      papers: (author: AuthorRow, args: Args) => catalog.authorPapers(author.id, args.first as number),
    },
    Venue: {
      issn: (venue: { issn?: unknown }) => (Array.isArray(venue.issn) ? venue.issn : []),
    },
  };
}
