import { buildSchema, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isScalarType } from 'graphql';
import { loadTypeDefs } from '../../src/api/schema-loader';

/** Every type, field, argument and enum value of the schema says what it is: GraphiQL and clients show it. */
function undescribed(sdl: string): string[] {
  const schema = buildSchema(sdl);
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || (isScalarType(type) && !type.astNode)) continue;
    if (!type.description?.trim()) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description?.trim()) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : [])
          if (!arg.description?.trim()) missing.push(`${type.name}.${field.name}(${arg.name})`);
      }
    }
    if (isEnumType(type))
      for (const value of type.getValues()) if (!value.description?.trim()) missing.push(`${type.name}.${value.name}`);
  }
  return missing;
}

describe('schema descriptions', () => {
  it('describes every type, field, argument and enum value', () => {
    expect(undescribed(loadTypeDefs())).toEqual([]);
  });

  it('names what lacks a description', () => {
    const sdl = `"""The root."""\ntype Query {\n  """A described field."""\n  a(x: Int): Int\n  b: Kind\n}\nenum Kind { ONE }`;
    expect(undescribed(sdl)).toEqual(['Query.a(x)', 'Query.b', 'Kind', 'Kind.ONE']);
  });
});
