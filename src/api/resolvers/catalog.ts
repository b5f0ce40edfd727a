import type { AppContext } from '../../app-context';
import { pageSpan } from '../../catalog/bibliography';
import { settingsHash } from '../../config/settings';
import { badInput } from '../../errors';
import { pageRequest } from '../../paging';
import { connectionFields, edgeCursor, toConnection } from '../connections';
import type { Resolvers } from '../generated/graphql';
import { filterReader, reportMiss, toPaperSort } from '../inputs';
import { graphId } from '../../text';

const LABELS: Array<[label: string, key: string]> = [
  ['Paper', 'paperNodes'],
  ['Author', 'authorNodes'],
  ['Institution', 'institutions'],
  ['Venue', 'venues'],
  ['Topic', 'topics'],
  ['Chunk', 'chunks'],
];
const RELATIONSHIPS: Array<[type: string, key: string]> = [
  ['AUTHORED', 'authored'],
  ['AFFILIATED_WITH', 'affiliatedWith'],
  ['PUBLISHED_IN', 'publishedIn'],
  ['HAS_TOPIC', 'hasTopic'],
  ['HAS_CHUNK', 'hasChunk'],
  ['CITES', 'cites'],
];

/** A stored number as a GraphQL Int, or null when it is none. */
function int32(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2_147_483_647 ? value : null;
}

/** Health, counts, papers, authors and their fields: resolvers call services only and hold no query logic. */
export function catalogResolvers(app: AppContext): Resolvers {
  const { catalog, analytics } = app;
  const filterOf = filterReader(() => app.catalog.names);
  return {
    Query: {
      health: async () => {
        const db = await app.database.current();
        return {
          ok: db.reachable,
          database: app.settings.neo4j.uri ? 'external' : 'embedded',
          databaseReachable: db.reachable,
          databaseCheckedAt: db.checkedAt,
          neo4jVersion: db.version,
          neo4jEdition: db.edition,
          settingsHash: settingsHash(app.settings),
        };
      },
      stats: async () => {
        const { counts, collections } = await catalog.stats();
        const count = (key: string) => counts[key] ?? 0;
        let pending: Promise<number> | null = null;
        return {
          pendingChunks: () => (pending ??= catalog.pendingChunks()),
          embeddingModel: () => app.embeddingSpace.recorded(),
          embeddingModelServed: app.embeddingSpace.model,
          companionModel: () => app.companion?.space.recorded() ?? Promise.resolve(null),
          companionModelServed: app.companion?.space.model ?? null,
          pendingCompanionChunks: () => (app.companion ? catalog.pendingCompanionChunks() : Promise.resolve(0)),
          papers: count('paperNodes') - count('stubPapers'),
          stubPapers: count('stubPapers'),
          authors: count('authorNodes') - count('anonymousAuthors'),
          anonymousAuthors: count('anonymousAuthors'),
          chunks: count('chunks'),
          citesBetweenPapers: count('citesBetweenPapers'),
          labels: LABELS.map(([label, key]) => ({ label, count: count(key) })),
          relationships: RELATIONSHIPS.map(([type, key]) => ({ type, count: count(key) })),
          collections,
        };
      },
      paper: async (_, args, context) => {
        if ((args.id == null) === (args.doi == null)) throw badInput('give exactly one of id or doi');
        return args.id != null
          ? reportMiss(await catalog.paperById(args.id), context.request, `paper: no paper with id ${args.id}`)
          : reportMiss(await catalog.paperByDoi(args.doi!), context.request, `paper: no paper with DOI ${args.doi}`);
      },
      author: async (_, args, context) => {
        const found = await context.loaders.author.load(graphId(args.id));
        if (!found) return reportMiss(null, context.request, `author: no author with id ${args.id}`);
        return { ...found.author, institutions: found.institutions, paperCount: found.paperCount };
      },
      topics: (_, args) => catalog.names.topicsNamed(args.search, args.first ?? 20),
      authors: async (_, args) =>
        (await catalog.names.authorsNamed(args.search, args.first ?? 20)).map((row) => ({
          author: { ...row.author, institutions: row.institutions, paperCount: row.papers },
          papers: row.papers,
          score: row.score,
        })),
      institutions: (_, args) => catalog.names.institutionsNamed(args.search, args.first ?? 20),
      venue: async (_, args, context) =>
        reportMiss(await catalog.venueById(args.id), context.request, `venue: no venue with id ${args.id}`),
      institution: async (_, args, context) =>
        reportMiss(
          await catalog.institutionById(args.id),
          context.request,
          `institution: no institution with id ${args.id}`,
        ),
      papers: async (_, args, context) => {
        const page = pageRequest(args.first, args.after, { field: 'papers', warnings: context.request });
        const filter = await filterOf(args.filter, context);
        const sort = toPaperSort(args.sort, filter, { disruption: true });
        const result =
          sort?.by === 'DISRUPTION'
            ? await app.science.impact.papersByDisruption(filter, page, sort.descending, context.request)
            : await catalog.papers(filter, page, sort);
        return { items: result.items, skip: result.skip, total: result.totalCount, hasNextPage: result.hasNextPage };
      },
    },
    Stats: {
      // Counted only when asked: finding the chunks without a vector reads every chunk.
      pendingChunks: (stats) => stats.pendingChunks(),
      embeddedChunks: async (stats) => stats.chunks - (await stats.pendingChunks()),
      embeddingModel: (stats) => stats.embeddingModel(),
      companionModel: (stats) => stats.companionModel(),
      pendingCompanionChunks: (stats) => stats.pendingCompanionChunks(),
    },
    Paper: {
      // Data stored before ingestion checked ranges may hold numbers GraphQL's Int cannot carry: unknown, not an error.
      year: (paper) => int32(paper.year),
      citedByCount: (paper) => int32(paper.citedByCount),
      stub: (paper) => paper.stub === true,
      isRetracted: (paper) => paper.isRetracted === true,
      collections: (paper) => [...(paper.collections ?? [])],
      doiUrl: (paper) => (paper.doi ? `https://doi.org/${paper.doi}` : null),
      pages: (paper) => pageSpan(paper.firstPage ?? null, paper.lastPage ?? null),
      keywords: (paper) => [...(paper.keywords ?? [])],
      authors: (paper, _, context) => context.loaders.authorsOfPaper.load(paper.id),
      venue: (paper, _, context) => context.loaders.venueOfPaper.load(paper.id),
      topics: async (paper, args, context) => {
        const { limit } = pageRequest(args.first, null, { field: 'Paper.topics', warnings: context.request });
        return (await context.loaders.topicsOfPaper.load(paper.id)).slice(0, limit);
      },
      references: async (paper, args, context) =>
        toConnection(
          await analytics.paperReferences(
            paper.id,
            pageRequest(args.first, args.after, { field: 'Paper.references', warnings: context.request }),
            toPaperSort(args.sort, {}),
          ),
        ),
      chunks: async (paper, args, context) => {
        const page = pageRequest(args.first, args.after, { field: 'Paper.chunks', warnings: context.request });
        const all = await context.loaders.chunksOfPaper.load(paper.id);
        return { items: all.slice(page.skip, page.skip + page.limit), skip: page.skip, total: all.length };
      },
      document: (paper, _, context) => context.loaders.documentOfPaper.load(paper.id),
    },
    Author: {
      name: (author) => author.name ?? 'Unknown author',
      anonymous: (author) => author.anonymous === true,
      institutions: async (author, _, context) =>
        author.institutions ?? (await context.loaders.author.load(author.id))?.institutions ?? [],
      paperCount: async (author, _, context) =>
        author.paperCount ?? (await context.loaders.author.load(author.id))?.paperCount ?? 0,
    },
    Venue: {
      issn: (venue) => [...(venue.issn ?? [])],
    },
    ChunkConnection: connectionFields(),
    ChunkEdge: { cursor: edgeCursor, node: (edge) => edge.item },
    PaperConnection: connectionFields(),
    PaperEdge: { cursor: edgeCursor, node: (edge) => edge.item },
  };
}
