import { buildSchema, type GraphQLSchema } from 'graphql';
import { loadTypeDefs } from '../../src/api/schema-loader';

/** The SDL as one schema, for the snapshot that makes API changes visible in review. */
export function makeExecutableSchemaForSnapshot(): GraphQLSchema {
  return buildSchema(loadTypeDefs());
}
