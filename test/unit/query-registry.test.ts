import { mkdtempSync, mkdirSync, writeFileSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CYPHER_DIR,
  cypherParameters,
  loadQueryRegistry,
  QUERY_SPECS,
  splitStatements,
} from '../../src/graph/query-registry';

describe('Cypher registry', () => {
  it('loads every registered file and checks its parameters', () => {
    const registry = loadQueryRegistry();
    expect(Object.keys(registry).sort()).toEqual(Object.keys(QUERY_SPECS).sort());
    const compiled = registry.paperById({ id: 'W1' });
    expect(compiled).toMatchObject({ name: 'paperById', params: { id: 'W1' } });
    expect(compiled.text).toContain('$id');
  });

  it('finds parameters but not those in comments or strings', () => {
    const text = "// $ignored\nMATCH (p {id: $id}) WHERE p.x = '$notParam' AND p.y = $other RETURN $id";
    expect(cypherParameters(text)).toEqual(['id', 'other']);
  });

  it('fails at load when a file uses a parameter its type does not declare', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cypher-'));
    cpSync(CYPHER_DIR, dir, { recursive: true });
    mkdirSync(path.join(dir, 'read'), { recursive: true });
    writeFileSync(path.join(dir, 'read', 'paper-by-id.cypher'), 'MATCH (p:Paper {id: $paperId}) RETURN p');
    expect(() => loadQueryRegistry(dir)).toThrow(/paper-by-id\.cypher uses \[paperId\] but its type declares \[id\]/);
  });

  it('splits schema files into statements', () => {
    expect(splitStatements('// c\nCREATE A;\nCREATE B\n  MORE;\n')).toEqual(['CREATE A', 'CREATE B\n  MORE']);
  });
});
