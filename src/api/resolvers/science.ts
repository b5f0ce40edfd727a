import type { AppContext } from '../../app-context';
import type { Resolvers } from '../generated/graphql';
import { filterReader } from '../inputs';
import { pageRequest } from '../../paging';
import { MAX_NETWORK_NODES } from '../list-caps';
import type { Lanes } from '../lanes';
import { EXTENSIONS, MEDIA_TYPES } from '../../analytics/network-export';

/** Science-of-science measures (src/analytics/science-service.ts); collection-level ones take the analytics lane. */
export function scienceResolvers(app: AppContext, lanes: Lanes): Resolvers {
  const { science } = app;
  const filterOf = filterReader(() => app.catalog.names);
  return {
    Query: {
      priorWorks: (_, args) => science.priorWorks(args.ids, args.first ?? 20),
      derivativeWorks: (_, args) => science.derivativeWorks(args.ids, args.first ?? 20),
      citationPath: async (_, args) => {
        const path = await science.citationPath(args.from, args.to, args.directed ?? true, args.maxDepth ?? 6);
        return path ? { ...path, length: path.forward.length } : null;
      },
      lotka: (_, args, context) =>
        lanes.analytics.run(context.request, async () => science.lotka(await filterOf(args.filter, context))),
      bradford: (_, args, context) =>
        lanes.analytics.run(context.request, async () => science.bradford(await filterOf(args.filter, context))),
      topicBursts: (_, args, context) =>
        lanes.analytics.run(context.request, async () =>
          science.bursts.topicBursts(await filterOf(args.filter, context), args.from, args.to, {
            topics: args.topics ?? 30,
            minLevel: args.minLevel ?? null,
            s: args.s ?? 2,
            gamma: args.gamma ?? 1,
          }),
        ),
      referenceBursts: (_, args, context) =>
        lanes.analytics.run(context.request, async () =>
          science.bursts.referenceBursts(await filterOf(args.filter, context), args.from, args.to, {
            references: args.references ?? 50,
            s: args.s ?? 2,
            gamma: args.gamma ?? 1,
          }),
        ),
      networkExport: (_, args, context) =>
        lanes.analytics.run(context.request, async () => {
          const file = await science.networks.file(await filterOf(args.filter, context), args.network, args.format, {
            maxNodes: args.maxNodes ?? 500,
            minWeight: args.minWeight ?? 1,
            colouring: args.colouring ?? undefined,
          });
          return {
            format: args.format,
            mediaType: MEDIA_TYPES[args.format],
            fileName: `citegraph-${args.network.toLowerCase()}.${EXTENSIONS[args.format]}`,
            ...file,
          };
        }),
      network: (_, args, context) =>
        lanes.analytics.run(context.request, async () => {
          const filter = await filterOf(args.filter, context);
          const { limit } = pageRequest(args.limit, null, {
            fallback: 100,
            max: MAX_NETWORK_NODES,
            field: 'network',
            argument: 'limit',
            warnings: context.request,
          });
          return science.networks.graphNetwork(filter, args.kind, {
            maxNodes: limit,
            minWeight: args.minWeight ?? 1,
            stubs: args.stubs ?? true,
            isolated: args.isolated ?? false,
            minLevel: args.minLevel ?? 1,
            layout: args.layout ?? true,
            sizeBy: args.sizeBy ?? 'WEIGHT',
          });
        }),
      possibleDuplicateAuthors: (_, args, context) =>
        lanes.analytics.run(context.request, async () => {
          const groups = await science.possibleDuplicates(await filterOf(args.filter, context), args.first ?? 20);
          return Promise.all(
            groups.map(async (group) => ({
              name: group.name,
              authors: (await context.loaders.author.loadMany(group.authorIds)).flatMap((profile) =>
                profile && !(profile instanceof Error)
                  ? [{ ...profile.author, institutions: profile.institutions, paperCount: profile.paperCount }]
                  : [],
              ),
              pairs: group.pairs,
            })),
          );
        }),
      person: (_, args) => science.person(args.authorIds, args.coauthors ?? 20),
      sleepingBeauties: (_, args, context) =>
        lanes.analytics.run(context.request, async () =>
          science.impact.sleepingBeauties(
            await filterOf(args.filter, context),
            args.by ?? 'INTERNAL_CITATIONS',
            args.first ?? 20,
            args.minCitations ?? 5,
          ),
        ),
      mainPath: (_, args, context) =>
        lanes.analytics.run(context.request, async () =>
          science.networks.mainPath(
            await filterOf(args.filter, context),
            args.maxPapers ?? 2000,
            args.method ?? 'GLOBAL',
            args.keyRoutes ?? 10,
          ),
        ),
      clusters: (_, args, context) =>
        lanes.analytics.run(context.request, async () => {
          const clustering = await science.networks.clusters(
            await filterOf(args.filter, context),
            args.network ?? 'COUPLING',
            {
              maxNodes: args.maxNodes ?? 500,
              minWeight: args.minWeight ?? 1,
              resolution: args.resolution ?? 1,
            },
          );
          return {
            ...clustering,
            network: clustering.kind,
            clusters: clustering.clusters.map((c) => ({
              ...c,
              topics: c.topics.map((t) => ({ topic: t.topic, papers: t.papers, weight: t.papers / c.size })),
            })),
          };
        }),
    },
    Paper: {
      disruption: (paper, args) => science.impact.disruption(paper.id, args.window ?? null),
      sleepingBeauty: (paper, args) => science.impact.sleepingBeauty(paper.id, args.by ?? 'INTERNAL_CITATIONS'),
      normalisedImpact: async (paper) => (await science.impact.normalisedImpact([paper.id])).get(paper.id) ?? null,
    },
    Author: {
      normalisedImpact: (author) => science.impact.authorNormalisedImpact(author.id),
    },
    SleepingBeauty: {
      paper: async (beauty, _, context) => (await context.loaders.paper.load(beauty.paperId))!,
    },
  };
}
