import {
  defaultFieldResolver,
  getNamedType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLSchema,
  isObjectType,
} from 'graphql';
import { MAX_EXPORT } from '../catalog/paper-export';
import { MAX_PAGE } from '../paging';
import type { GraphqlContext } from './graphql-context';

/** Most nodes of a network answered in one call (`network`). */
export const MAX_NETWORK_NODES = 500;

/** Lists whose cap is not MAX_PAGE. */
const CAPS: Readonly<Record<string, number>> = {
  'Query.paperExport': MAX_EXPORT,
  'Query.network': MAX_NETWORK_NODES,
};

/** The size argument of a list field: `first`, else `limit`, when it is an Int. */
function sizeArgument(field: GraphQLField<unknown, unknown>): GraphQLArgument | undefined {
  for (const name of ['first', 'limit']) {
    const argument = field.args.find((arg) => arg.name === name);
    if (argument && getNamedType(argument.type).name === 'Int') return argument;
  }
  return undefined;
}

/**
 * Every list treats an over-cap size alike: a `first` (or `limit`) above the field's cap is cut to the cap before the
 * resolver runs, and the response says so in `extensions.warnings` — never a silent cut, never an error. Negative and
 * other invalid sizes are left to the resolvers, which reject them. Wraps the resolvers of `schema` in place.
 */
export function capListSizes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const argument = sizeArgument(field);
      if (!argument) continue;
      const name = type.name === 'Query' ? field.name : `${type.name}.${field.name}`;
      const max = CAPS[`${type.name}.${field.name}`] ?? MAX_PAGE;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args: Record<string, unknown>, context: GraphqlContext, info) => {
        const size = args[argument.name];
        if (typeof size !== 'number' || size <= max) return resolve(source, args, context, info);
        context.request.warn(`${name}: ${argument.name} ${size} is above the limit; ${max} returned at most`);
        return resolve(source, { ...args, [argument.name]: max }, context, info);
      };
    }
  }
  return schema;
}
