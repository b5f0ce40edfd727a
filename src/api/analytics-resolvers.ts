import type { AppContext } from '../app-context';
import { badInput } from '../errors';
import {
  encodeOffset,
  pageArgs,
  type AnalyticsFilter,
  type CitationBasis,
  type Slice,
} from '../analytics/analytics-service';
import type { AuthorRow, PaperRow } from '../domain';
import type { GraphqlContext } from './graphql-context';

interface GraphqlAnalyticsFilter {
  years?: { from?: number | null; to?: number | null } | null;
  topic?: string | null;
  venue?: string | null;
  collections?: string[] | null;
}

type PageInput = { first?: number | null; after?: string | null };

export function toAnalyticsFilter(filter: GraphqlAnalyticsFilter | null | undefined): AnalyticsFilter {
  return {
    yearFrom: filter?.years?.from ?? null,
    yearTo: filter?.years?.to ?? null,
    topic: filter?.topic ?? null,
    venue: filter?.venue ?? null,
    collections: filter?.collections ?? null,
  };
}

/** A Relay connection over an offset slice; `edge` adds fields beside cursor and node. */
export function connection<T>(slice: Slice<T>, edge: (item: T) => Record<string, unknown>) {
  const edges = slice.items.map((item, index) => ({ cursor: encodeOffset(slice.skip + index), ...edge(item) }));
  return {
    edges,
    totalCount: slice.total,
    pageInfo: {
      hasNextPage: slice.skip + slice.items.length < slice.total,
      hasPreviousPage: slice.skip > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

const scoredPaper = (row: { paper: PaperRow; internal: number; global: number; score: number }) => ({
  paper: row.paper,
  internalCitations: row.internal,
  globalCitations: row.global,
  score: row.score,
});

const scoredAuthor = (row: { author: AuthorRow; papers: number; score: number }) => ({
  author: row.author,
  papers: row.papers,
  citations: row.score,
});

/** Resolvers of the bibliometric part of the schema; all work is done by AnalyticsService. */
export function makeAnalyticsResolvers(app: AppContext) {
  const { analytics } = app;
  return {
    Query: {
      topic: (_: unknown, args: { id: string }) => analytics.topic(args.id),
      topPapers: async (_: unknown, args: PageInput & { filter?: GraphqlAnalyticsFilter; by: CitationBasis }) =>
        connection(
          await analytics.topPapers(toAnalyticsFilter(args.filter), args.by, pageArgs(args.first, args.after)),
          (row) => ({ node: scoredPaper(row) }),
        ),
      topAuthors: async (_: unknown, args: PageInput & { filter?: GraphqlAnalyticsFilter; by: CitationBasis }) =>
        connection(
          await analytics.topAuthors(toAnalyticsFilter(args.filter), args.by, pageArgs(args.first, args.after)),
          (row) => ({ node: scoredAuthor(row) }),
        ),
      venues: async (_: unknown, args: PageInput & { filter?: GraphqlAnalyticsFilter }) =>
        connection(
          await analytics.venueStats(toAnalyticsFilter(args.filter), pageArgs(args.first, args.after)),
          (row) => ({ node: row }),
        ),
      trends: async (
        _: unknown,
        args: {
          topics?: string[] | null;
          query?: string | null;
          from: number;
          to: number;
          filter?: GraphqlAnalyticsFilter;
          emerging?: { minSupport?: number; first?: number; minLevel?: number } | null;
        },
        context: GraphqlContext,
      ) => {
        if (!args.topics?.length && !args.query) throw badInput('trends needs topics or a query');
        const filter = toAnalyticsFilter(args.filter);
        const series = [];
        if (args.topics?.length) series.push(...(await analytics.topicTrends(args.topics, args.from, args.to, filter)));
        if (args.query)
          series.push(await analytics.queryTrend(context.request, args.query, args.from, args.to, filter));
        const emerging = await analytics.emergingTopics(
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
      },
      collaborationNetwork: async (
        _: unknown,
        args: { filter?: GraphqlAnalyticsFilter; limit: number; minJointPapers: number },
      ) => {
        const network = await analytics.collaborationNetwork(
          toAnalyticsFilter(args.filter),
          args.limit,
          args.minJointPapers,
        );
        return {
          nodes: network.nodes,
          edges: network.edges.map((edge) => ({ source: edge.source, target: edge.target, jointPapers: edge.joint })),
        };
      },
    },
    Author: {
      works: async (author: AuthorRow, args: PageInput & { filter?: GraphqlAnalyticsFilter }) =>
        connection(
          await analytics.authorWorks(author.id, toAnalyticsFilter(args.filter), pageArgs(args.first, args.after)),
          (paper) => ({ node: paper }),
        ),
      coauthors: async (author: AuthorRow, args: PageInput & { filter?: GraphqlAnalyticsFilter }) =>
        connection(
          await analytics.authorCoauthors(author.id, toAnalyticsFilter(args.filter), pageArgs(args.first, args.after)),
          (row) => ({
            node: row.author,
            jointPapers: row.joint,
          }),
        ),
      metrics: (author: AuthorRow, args: { filter?: GraphqlAnalyticsFilter }) =>
        analytics.authorMetrics(author.id, toAnalyticsFilter(args.filter)),
      mainTopics: (author: AuthorRow, args: { first: number; minLevel: number | null }) =>
        analytics.authorTopics(author.id, args.first, args.minLevel),
    },
    Paper: {
      internalCitationCount: async (paper: PaperRow) =>
        (await analytics.paperCitedBy(paper.id, { skip: 0, limit: 0 })).total,
      citedBy: async (paper: PaperRow, args: PageInput) =>
        connection(await analytics.paperCitedBy(paper.id, pageArgs(args.first, args.after)), (row) => ({ node: row })),
      referencesPage: async (paper: PaperRow, args: PageInput) =>
        connection(await analytics.paperReferences(paper.id, pageArgs(args.first, args.after)), (row) => ({
          node: row,
        })),
      coCited: async (paper: PaperRow, args: PageInput) =>
        connection(await analytics.paperCocited(paper.id, pageArgs(args.first, args.after)), (row) => ({
          node: row.paper,
          count: row.count,
        })),
      coupled: async (paper: PaperRow, args: PageInput) =>
        connection(await analytics.paperCoupled(paper.id, pageArgs(args.first, args.after)), (row) => ({
          node: row.paper,
          count: row.count,
        })),
      related: async (paper: PaperRow, args: { first: number }) =>
        (await analytics.paperRelated(paper.id, args.first)).map((row) => ({
          paper: row.paper,
          score: row.score,
          coCitations: row.cocited,
          sharedReferences: row.coupled,
          direct: row.direct,
        })),
    },
    Topic: {
      paperCount: async (topic: { id: string; paperCount?: number }) =>
        topic.paperCount ?? (await analytics.topic(topic.id))?.paperCount ?? 0,
      papers: async (topic: { id: string }, args: PageInput & { filter?: GraphqlAnalyticsFilter }) =>
        connection(
          await analytics.topicPapers(topic.id, toAnalyticsFilter(args.filter), pageArgs(args.first, args.after)),
          (row) => ({ node: row }),
        ),
      topPapers: async (
        topic: { id: string },
        args: { filter?: GraphqlAnalyticsFilter; by: CitationBasis; first: number },
      ) =>
        (
          await analytics.topPapers(
            { ...toAnalyticsFilter(args.filter), topic: topic.id },
            args.by,
            pageArgs(args.first, null),
          )
        ).items.map(scoredPaper),
      topAuthors: async (
        topic: { id: string },
        args: { filter?: GraphqlAnalyticsFilter; by: CitationBasis; first: number },
      ) =>
        (
          await analytics.topAuthors(
            { ...toAnalyticsFilter(args.filter), topic: topic.id },
            args.by,
            pageArgs(args.first, null),
          )
        ).items.map(scoredAuthor),
      trend: async (topic: { id: string }, args: { from: number; to: number; filter?: GraphqlAnalyticsFilter }) =>
        (await analytics.topicTrends([topic.id], args.from, args.to, toAnalyticsFilter(args.filter)))[0],
    },
    TrendSeries: {
      topic: (series: { topicId: string | null }) => (series.topicId ? analytics.topic(series.topicId) : null),
    },
  };
}
