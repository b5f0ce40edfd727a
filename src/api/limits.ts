import type { ApolloServerPlugin } from '@apollo/server';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  OperationTypeNode,
  getNamedType,
  getNullableType,
  GraphQLError,
  type GraphQLSchema,
  isListType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { type ComplexityEstimatorArgs, getComplexity } from 'graphql-query-complexity';
import type { ApiSettings } from '../config/settings';
import { ErrorCode } from '../errors';
import { MAX_PAGE } from '../paging';
import type { GraphqlContext } from './graphql-context';

/** A query over the limits: nothing of it runs. `details` (limit, actual) go to the client in `extensions`. */
export function tooComplex(message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: ErrorCode.QUERY_TOO_COMPLEX, ...details, http: { status: 400 } },
  });
}

/**
 * What a GraphQL Armor rule rejects, reported as QUERY_TOO_COMPLEX (its own errors carry no code) instead of thrown,
 * so that clients can tell an over-limit query from a malformed one.
 */
const reportTooComplex = {
  propagateOnRejection: false,
  exposeLimits: true,
  onReject: [
    (context: ValidationContext | null, error: GraphQLError) =>
      context?.reportError(tooComplex(error.message.replace(/^Syntax Error: /, ''), { rule: 'limits' })),
  ],
};

/** An operation whose root type the schema lacks (a mutation or subscription today) is a validation error. */
export const knownOperationTypesRule: ValidationRule = (context) => ({
  OperationDefinition(node) {
    const schema = context.getSchema();
    const root =
      node.operation === OperationTypeNode.QUERY
        ? schema.getQueryType()
        : node.operation === OperationTypeNode.MUTATION
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    if (!root) context.reportError(new GraphQLError(`this API has no ${node.operation} operations`, { nodes: [node] }));
  },
});

/** Depth, alias and directive limits, checked before anything runs (the limits are settings). */
export function limitRules(settings: ApiSettings): ValidationRule[] {
  return [
    knownOperationTypesRule,
    maxDepthRule({ n: settings.maxDepth, flattenFragments: true, ...reportTooComplex }),
    maxAliasesRule({ n: settings.maxAliases, ...reportTooComplex }),
    maxDirectivesRule({ n: 50, ...reportTooComplex }),
  ];
}

/**
 * What a resolver costs besides its children, by `Type.field`: traversals over many papers and whole-graph
 * aggregations weigh more than a property read. Lists multiply their children by their page size (`first`). Every
 * resolver of the schema is either weighed here or listed in CHEAP_RESOLVERS (a test fails otherwise), so a new
 * expensive field cannot slip in at no cost.
 */
export const FIELD_WEIGHTS: Readonly<Record<string, number>> = {
  'Query.ask': 2000,
  'Subscription.askStream': 2000,
  // A report: a topic set, a coupling network of up to 400 papers, passages and sentence embeddings per front.
  'Query.report': 2000,
  'Query.reportFile': 2000,
  'Subscription.reportStream': 2000,
  'Query.search': 50,
  'Query.stats': 20,
  'Stats.pendingChunks': 50,
  'Stats.embeddedChunks': 50,
  // One node read and an existence check on the vector property.
  'Stats.embeddingModel': 2,
  'Stats.companionModel': 2,
  'Stats.pendingCompanionChunks': 50,
  'Query.papers': 10,
  'Query.topics': 10,
  'Query.authors': 10,
  'Query.institutions': 10,
  'Query.topPapers': 100,
  'Query.topAuthors': 150,
  'Query.venues': 100,
  'Query.trends': 100,
  'Query.emergingTopics': 100,
  'Query.groupBy': 150,
  'Query.collaborationNetwork': 150,
  'Query.priorWorks': 100,
  'Query.derivativeWorks': 100,
  'Query.citationPath': 100,
  'Query.person': 30,
  'Query.lotka': 200,
  'Query.bradford': 200,
  'Query.topicBursts': 300,
  'Query.referenceBursts': 500,
  'Query.sleepingBeauties': 300,
  'Query.possibleDuplicateAuthors': 500,
  'Query.network': 300,
  'Query.networkExport': 500,
  'Query.mainPath': 500,
  'Query.clusters': 500,
  'Query.paperExport': 200,
  'Query.documentSets': 10,
  'Query.documentSet': 10,
  'Mutation.createDocumentSet': 10,
  'Mutation.deleteDocumentSet': 10,
  'Paper.related': 40,
  'Paper.coCited': 20,
  'Paper.coupled': 20,
  'Paper.citedBy': 5,
  'Paper.references': 5,
  'Paper.chunks': 5,
  'Paper.document': 5,
  'Paper.internalCitationCount': 2,
  'Paper.disruption': 30,
  'Paper.sleepingBeauty': 30,
  'Paper.normalisedImpact': 20,
  'Author.normalisedImpact': 30,
  'Author.works': 5,
  'Author.coauthors': 10,
  'Author.metrics': 5,
  'Author.mainTopics': 5,
  'Author.paperCount': 2,
  'Topic.paperCount': 2,
  'Topic.papers': 10,
  'Topic.topPapers': 50,
  'Topic.topAuthors': 80,
  'Topic.trend': 20,
  'SetDocument.fullText': 5,
};

/**
 * Resolvers that cost no more than a property: they read what their parent already holds, or look one node up through
 * the request's batching loaders (one query for every such lookup of a level).
 */
export const CHEAP_RESOLVERS: ReadonlySet<string> = new Set([
  'Query.health',
  'Query.paper',
  'Query.author',
  'Query.venue',
  'Query.institution',
  'Query.topic',
  'Paper.year',
  'Paper.citedByCount',
  'Paper.stub',
  'Paper.isRetracted',
  'Paper.collections',
  'Paper.doiUrl',
  'Paper.pages',
  'Paper.keywords',
  'Paper.authors',
  'Paper.venue',
  'Paper.topics',
  'Author.name',
  'Author.anonymous',
  'Author.institutions',
  'Venue.issn',
  'Topic.name',
  'TrendSeries.topic',
  'ScoredPaper.internalCitations',
  'ScoredPaper.globalCitations',
  'ScoredAuthor.citations',
  'SleepingBeauty.paper',
  'DocumentSet.uploadPath',
  'CoauthorEdge.jointPapers',
  'CountedPaperEdge.count',
]);

/** Whether a resolver's field is part of a connection's plumbing (edges, cursors, counts of what was read). */
export function isConnectionPlumbing(field: string): boolean {
  return /^\w+(?:Connection\.(?:edges|totalCount|pageInfo)|Edge\.(?:cursor|node))$/.test(field);
}

/** Typical length of lists that take no `first`, to weigh what is asked of each item. */
const LIST_SIZES: Record<string, number> = {
  'Paper.authors': 10,
  'Author.institutions': 3,
  'Trends.series': 5,
  'Trends.emerging': 10,
  'CollaborationNetwork.nodes': 50,
  'CollaborationNetwork.edges': 100,
};

function pageSize(args: Record<string, unknown>, fallback: number): number {
  const first = typeof args.first === 'number' ? args.first : typeof args.limit === 'number' ? args.limit : fallback;
  return Math.max(0, Math.min(first, MAX_PAGE));
}

/** How many items a list field is weighed for (its page size, or a typical length); null for a single value. */
function listItems({ type, field, args }: ComplexityEstimatorArgs): number | null {
  const name = `${type.name}.${field.name}`;
  const returns = getNullableType(field.type);
  const named = getNamedType(field.type).name;
  if (named.endsWith('Connection') || ('first' in args && isListType(returns))) return pageSize(args, 20);
  if (name === 'Query.search') return pageSize(args, 10);
  if (isListType(returns)) return LIST_SIZES[name] ?? 1;
  return null;
}

/** The cost estimator: the field's weight plus its children, times its page size when it is a list. */
export function estimateField(estimate: ComplexityEstimatorArgs): number {
  const { type, field, args, childComplexity } = estimate;
  const name = `${type.name}.${field.name}`;
  let weight = FIELD_WEIGHTS[name] ?? 0;
  if (name === 'Query.search') {
    const options = (args.options ?? {}) as Record<string, unknown>;
    const candidates = typeof options.candidates === 'number' ? options.candidates : 100;
    weight += candidates / 5 + (options.pagerank ? 100 : 0) + (options.mmr ? 30 : 0) + (options.expansion ? 50 : 0);
  }
  if (name === 'Query.trends' && Array.isArray(args.topics)) weight += 20 * args.topics.length;
  // Sorting by disruption computes the CD index of up to 5,000 papers of the filter (seconds on a large review).
  if (name === 'Query.papers' && (args.sort as { by?: string } | undefined)?.by === 'DISRUPTION') weight += 2000;
  // Whole-collection networks grow with the nodes asked for (a 2,000-node coupling clustering takes seconds).
  if (['Query.clusters', 'Query.network', 'Query.networkExport', 'Query.mainPath'].includes(name)) {
    weight += (typeof args.maxNodes === 'number' ? Math.max(0, args.maxNodes) : 500) / 2;
  }
  const returns = getNullableType(field.type);
  const named = getNamedType(field.type).name;
  const own = weight + (named.endsWith('Connection') || isListType(returns) ? 0 : 1);
  const items = listItems(estimate);
  return items === null ? own + childComplexity : own + items * (1 + childComplexity);
}

/** Each field of an operation's document with its path of response keys ("papers.edges.node.citedBy"). */
function fieldPaths(document: DocumentNode): Map<FieldNode, string> {
  const fragments = new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const paths = new Map<FieldNode, string>();
  const walk = (set: SelectionSetNode, prefix: string, spread: ReadonlySet<string>) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = `${prefix}${(selection.alias ?? selection.name).value}`;
        paths.set(selection, key);
        if (selection.selectionSet) walk(selection.selectionSet, `${key}.`, spread);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet, prefix, spread);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && !spread.has(fragment.name.value))
          walk(fragment.selectionSet, prefix, new Set([...spread, fragment.name.value]));
      }
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) walk(definition.selectionSet, '', new Set());
  }
  return paths;
}

/** A field of an over-limit query with what it costs: its own estimate, of which `items` × `each` for a list. */
export interface FieldCost {
  path: string;
  cost: number;
  items: number | null;
  each: number | null;
}

/**
 * Where an operation's cost comes from: every field with its estimate, costliest first — a list's cost is its page
 * size times what each item asks for, so the path that multiplies is the one to shorten.
 */
export function fieldCosts(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName?: string,
): FieldCost[] {
  const paths = fieldPaths(document);
  const costs: FieldCost[] = [];
  getComplexity({
    schema,
    query: document,
    variables,
    ...(operationName ? { operationName } : {}),
    estimators: [
      (args: ComplexityEstimatorArgs) => {
        const cost = estimateField(args);
        const items = listItems(args);
        costs.push({
          path: paths.get(args.node) ?? args.field.name,
          cost,
          items,
          each: items === null ? null : 1 + args.childComplexity,
        });
        return cost;
      },
    ],
  });
  return costs.sort((a, b) => b.cost - a.cost || a.path.length - b.path.length);
}

/** "papers 168210 (20 items × 8410)", the costliest fields for a message. */
function describeCosts(costs: readonly FieldCost[], max = 3): string {
  return costs
    .slice(0, max)
    .map((c) => `${c.path} ${Math.ceil(c.cost)}${c.items ? ` (${c.items} items × ${Math.ceil(c.each!)})` : ''}`)
    .join(', ');
}

/** The estimated cost of an operation with its variables. */
export function queryCost(
  schema: GraphQLSchema,
  document: Parameters<typeof getComplexity>[0]['query'],
  variables: Record<string, unknown>,
  operationName?: string,
): number {
  return getComplexity({
    schema,
    query: document,
    variables,
    ...(operationName ? { operationName } : {}),
    estimators: [estimateField],
  });
}

/**
 * Rejects, before any resolver runs, an operation whose estimated cost is over the limit (QUERY_TOO_COMPLEX with the
 * cost and the limit), and a mutation from a key without the write scope.
 */
/** Mutations that change only the caller's own private document sets: a read key may run them. */
const PRIVATE_MUTATIONS = new Set(['createDocumentSet', 'deleteDocumentSet']);

function onlyPrivateMutations(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every(
    (selection) =>
      selection.kind === Kind.FIELD &&
      (PRIVATE_MUTATIONS.has(selection.name.value) || selection.name.value === '__typename'),
  );
}

export function limitsPlugin(settings: ApiSettings): ApolloServerPlugin<GraphqlContext> {
  return {
    requestDidStart: () =>
      Promise.resolve({
        didResolveOperation: ({ schema, document, request, operation, contextValue }) => {
          let cost: number;
          try {
            cost = queryCost(schema, document, request.variables ?? {}, request.operationName ?? undefined);
          } catch {
            // Variables that do not fit their types: execution rejects them (BAD_USER_INPUT) before anything runs.
            return Promise.resolve();
          }
          if (cost > settings.maxCost) {
            const costs = fieldCosts(schema, document, request.variables ?? {}, request.operationName ?? undefined);
            throw tooComplex(
              `the query's estimated cost ${Math.ceil(cost)} is over the limit of ${settings.maxCost}; costliest: ${describeCosts(costs)}`,
              {
                cost: Math.ceil(cost),
                limit: settings.maxCost,
                costliest: costs
                  .slice(0, 5)
                  .map((c) => ({ ...c, cost: Math.ceil(c.cost), each: c.each && Math.ceil(c.each) })),
              },
            );
          }
          if (
            operation?.operation === OperationTypeNode.MUTATION &&
            !contextValue.principal.scopes.includes('write') &&
            !onlyPrivateMutations(operation)
          ) {
            throw new GraphQLError('this operation needs an API key with the write scope', {
              extensions: { code: ErrorCode.FORBIDDEN, http: { status: 403 } },
            });
          }
          return Promise.resolve();
        },
      }),
  };
}
