import type { AppContext } from '../../app-context';
import { badInput } from '../../errors';
import type { PaperFilter, PaperRow, PaperSort } from '../../domain';
import { MAX_PAGE, type PageRequest, pageRequest, type Slice } from '../../paging';
import type { RequestContext } from '../../request-context';
import { connectionFields, edgeCursor, toConnection } from '../connections';
import type { PaperSort as PaperSortInput, Resolvers, WorkFilter } from '../generated/graphql';
import type { Lanes } from '../lanes';
import { filterReader, reportMiss, toPaperSort } from '../inputs';
import { graphId } from '../../text';

/** The page a list argument pair asks for, checked, with a cap reported as a warning. */
function page(
  args: { first?: number | null; after?: string | null },
  field: string,
  request: RequestContext,
): PageRequest {
  return pageRequest(args.first, args.after, { field, warnings: request });
}

/** Resolvers of the bibliometric part of the schema; all work is done by AnalyticsService. */
export function analyticsResolvers(app: AppContext, lanes: Lanes): Resolvers {
  const { analytics } = app;
  const filterOf = filterReader(() => app.catalog.names);
  /** A page of papers of one author or topic: the filter resolved, the page checked, the sort read against the filter. */
  const papersPage = async (
    args: { filter?: WorkFilter | null; sort?: PaperSortInput | null; first?: number | null; after?: string | null },
    context: { request: RequestContext },
    field: string,
    fetch: (filter: PaperFilter, page: PageRequest, sort: PaperSort | null) => Promise<Slice<PaperRow>>,
  ) => {
    const filter = await filterOf(args.filter, context);
    return toConnection(await fetch(filter, page(args, field, context.request), toPaperSort(args.sort, filter)));
  };
  /** Whole-graph aggregations take the analytics lane. */
  const heavy = <T>(context: { request: RequestContext }, work: () => Promise<T>) =>
    lanes.analytics.run(context.request, work);
  return {
    Query: {
      topic: async (_, args, context) =>
        reportMiss(await analytics.topic(graphId(args.id)), context.request, `topic: no topic with id ${args.id}`),
      topPapers: async (_, args, context) =>
        heavy(context, async () =>
          toConnection(
            await analytics.topPapers(
              await filterOf(args.filter, context),
              args.by ?? 'INTERNAL_CITATIONS',
              page(args, 'topPapers', context.request),
            ),
          ),
        ),
      topAuthors: async (_, args, context) =>
        heavy(context, async () =>
          toConnection(
            await analytics.topAuthors(
              await filterOf(args.filter, context),
              args.by ?? 'INTERNAL_CITATIONS',
              page(args, 'topAuthors', context.request),
            ),
          ),
        ),
      venues: async (_, args, context) =>
        heavy(context, async () => {
          const filter = await filterOf(args.filter, context);
          if (args.search != null) {
            // The venues named like the text, within the filter's venues when it names some.
            const named = await app.catalog.names.venueIdsNamed(args.search, MAX_PAGE);
            const venues = filter.venues ? named.filter((id) => filter.venues!.includes(id)) : named;
            if (venues.length === 0) return toConnection({ items: [], skip: 0, total: 0, limit: 0 });
            return toConnection(
              await analytics.venueStats({ ...filter, venues }, page(args, 'venues', context.request)),
            );
          }
          return toConnection(await analytics.venueStats(filter, page(args, 'venues', context.request)));
        }),
      emergingTopics: (_, args, context) =>
        heavy(context, async () =>
          analytics.trends.emergingTopics(
            args.from,
            args.to,
            {
              minSupport: args.options?.minSupport ?? 5,
              first: args.options?.first ?? 10,
              minLevel: args.options?.minLevel ?? 1,
            },
            await filterOf(args.filter, context),
          ),
        ),
      trends: (_, args, context) =>
        heavy(context, async () => {
          if (!args.topics?.length && !args.query) throw badInput('trends needs topics or a query');
          const filter = await filterOf(args.filter, context);
          const series = [];
          if (args.topics?.length)
            series.push(...(await analytics.trends.topicTrends(args.topics, args.from, args.to, filter)));
          if (args.query) series.push(await analytics.trends.queryTrend(args.query, args.from, args.to, filter));
          const emerging = await analytics.trends.emergingTopics(
            args.from,
            args.to,
            {
              minSupport: args.emerging?.minSupport ?? 5,
              first: args.emerging?.first ?? 10,
              minLevel: args.emerging?.minLevel ?? 1,
            },
            filter,
          );
          return { series, emerging };
        }),
      groupBy: (_, args, context) =>
        heavy(context, async () => {
          const filter = await filterOf(args.filter, context);
          const { limit } = pageRequest(args.first, null, {
            fallback: 50,
            field: 'groupBy',
            warnings: context.request,
          });
          const grouping = await analytics.groupBy(args.field, filter, { byKey: args.order === 'KEY', limit });
          return { field: args.field, ...grouping };
        }),
      collaborationNetwork: (_, args, context) =>
        heavy(context, async () => {
          const network = await analytics.collaborationNetwork(
            await filterOf(args.filter, context),
            args.limit ?? 50,
            args.minJointPapers ?? 1,
          );
          const linked = new Set(network.edges.flatMap((edge) => [edge.source, edge.target]));
          const keep = args.isolated ?? true;
          return {
            nodes: keep ? network.nodes : network.nodes.filter((node) => linked.has(node.id)),
            edges: network.edges.map((edge) => ({ source: edge.source, target: edge.target, jointPapers: edge.joint })),
            isolatedNodes: network.nodes.filter((node) => !linked.has(node.id)).length,
          };
        }),
    },
    Author: {
      works: (author, args, context) =>
        papersPage(args, context, 'Author.works', (filter, request, sort) =>
          analytics.authorWorks(author.id, filter, request, sort),
        ),
      coauthors: async (author, args, context) =>
        toConnection(
          await analytics.authorCoauthors(
            author.id,
            await filterOf(args.filter, context),
            page(args, 'Author.coauthors', context.request),
          ),
        ),
      metrics: async (author, args, context) =>
        analytics.authorMetrics(author.id, await filterOf(args.filter, context)),
      mainTopics: (author, args, context) =>
        analytics.authorTopics(
          author.id,
          page({ first: args.first ?? 5 }, 'Author.mainTopics', context.request).limit,
          args.minLevel ?? null,
        ),
    },
    Paper: {
      internalCitationCount: async (paper) => (await analytics.paperCitedBy(paper.id, { skip: 0, limit: 0 })).total,
      citedBy: async (paper, args, context) =>
        toConnection(
          await analytics.paperCitedBy(
            paper.id,
            page(args, 'Paper.citedBy', context.request),
            toPaperSort(args.sort, {}),
          ),
        ),
      coCited: async (paper, args, context) =>
        toConnection(await analytics.paperCocited(paper.id, page(args, 'Paper.coCited', context.request))),
      coupled: async (paper, args, context) =>
        toConnection(await analytics.paperCoupled(paper.id, page(args, 'Paper.coupled', context.request))),
      related: async (paper, args, context) =>
        (
          await analytics.paperRelated(
            paper.id,
            page({ first: args.first ?? 10 }, 'Paper.related', context.request).limit,
          )
        ).map((row) => ({
          paper: row.paper,
          score: row.score,
          coCitations: row.cocited,
          sharedReferences: row.coupled,
          direct: row.direct,
        })),
    },
    Topic: {
      name: (topic) => topic.name ?? topic.id,
      paperCount: async (topic) => topic.paperCount ?? (await analytics.topic(topic.id))?.paperCount ?? 0,
      papers: (topic, args, context) =>
        papersPage(args, context, 'Topic.papers', (filter, request, sort) =>
          analytics.topicPapers(topic.id, filter, request, sort),
        ),
      topPapers: async (topic, args, context) =>
        (
          await analytics.topPapers(
            { ...(await filterOf(args.filter, context)), topics: [topic.id] },
            args.by ?? 'INTERNAL_CITATIONS',
            page({ first: args.first ?? 10 }, 'Topic.topPapers', context.request),
          )
        ).items,
      topAuthors: async (topic, args, context) =>
        (
          await analytics.topAuthors(
            { ...(await filterOf(args.filter, context)), topics: [topic.id] },
            args.by ?? 'INTERNAL_CITATIONS',
            page({ first: args.first ?? 10 }, 'Topic.topAuthors', context.request),
          )
        ).items,
      trend: async (topic, args, context) => {
        const [series] = await analytics.trends.topicTrends(
          [topic.id],
          args.from,
          args.to,
          await filterOf(args.filter, context),
        );
        return series!;
      },
    },
    TrendSeries: {
      topic: (series) => (series.topicId ? analytics.topic(series.topicId) : null),
    },
    ScoredPaper: {
      internalCitations: (row) => row.internal,
      globalCitations: (row) => row.global,
    },
    ScoredAuthor: {
      citations: (row) => row.citations,
    },
    CountedPaperConnection: connectionFields(),
    CountedPaperEdge: { cursor: edgeCursor, node: (edge) => edge.item.paper, count: (edge) => edge.item.count },
    ScoredPaperConnection: connectionFields(),
    ScoredPaperEdge: { cursor: edgeCursor, node: (edge) => edge.item },
    ScoredAuthorConnection: connectionFields(),
    ScoredAuthorEdge: { cursor: edgeCursor, node: (edge) => edge.item },
    CoauthorConnection: connectionFields(),
    CoauthorEdge: { cursor: edgeCursor, node: (edge) => edge.item.author, jointPapers: (edge) => edge.item.joint },
    VenueStatsConnection: connectionFields(),
    VenueStatsEdge: { cursor: edgeCursor, node: (edge) => edge.item },
  };
}
