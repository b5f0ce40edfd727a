import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CitegraphError, ErrorCode } from '../errors';
import { PROJECT_ROOT } from '../config/settings';

/** A Cypher statement with its parameters, ready for the executor; built by the registry, never by string pasting. */
import { ANALYTICS_QUERIES } from './queries-analytics';
import { STORE_QUERIES } from './queries-store';
import type { CompiledQuery, QuerySpec } from './query-spec';

export {
  type CompiledQuery,
  isFiltered,
  PAPER_FILTER,
  PAPER_SORT,
  type Page,
  type PaperFilterParams,
  paperFilterParams,
  type PaperSortParams,
  paperSortParams,
  type QuerySpec,
} from './query-spec';

/** Every registered Cypher file (path under cypher/ without .cypher) and the parameters it takes. */
export const QUERY_SPECS = { ...STORE_QUERIES, ...ANALYTICS_QUERIES } as const;

type Specs = typeof QUERY_SPECS;
type ParamsOf<S> = S extends QuerySpec<infer P> ? P : never;

/** The typed registry: `queries.paperById({ id })` gives a CompiledQuery. */
export type QueryRegistry = { readonly [K in keyof Specs]: (params: ParamsOf<Specs[K]>) => CompiledQuery };

export const CYPHER_DIR = path.join(PROJECT_ROOT, 'cypher');

/** The $parameters a Cypher text uses (comments and string literals excluded). */
export function cypherParameters(text: string): string[] {
  const code = text
    .replace(/\/\/[^\n]*/g, '')
    .replace(/'(?:[^'\\]|\\.)*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""');
  const names = new Set<string>();
  for (const match of code.matchAll(/\$([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(match[1]!);
  return [...names].sort();
}

/** Splits a schema file into statements (one per `;`-terminated line group), dropping comments. */
export function splitStatements(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/** A line that takes in a fragment: `// include: fragments/paper-filter`, indented like the lines around it. */
const INCLUDE = /^(\s*)\/\/ include: ([a-z/-]+)\s*$/gm;

/** Reads a registered Cypher file with its `// include:` lines replaced by the fragments they name. */
export function readCypher(file: string, dir = CYPHER_DIR): string {
  const text = readFileSync(path.join(dir, `${file}.cypher`), 'utf8');
  return text.replace(INCLUDE, (_line, indent: string, fragment: string) =>
    readFileSync(path.join(dir, `${fragment}.cypher`), 'utf8')
      .split('\n')
      .filter((line) => line.trim().length > 0 && !line.trim().startsWith('//'))
      .map((line) => `${indent}${line}`)
      .join('\n'),
  );
}

/**
 * Loads every registered file once and checks that its $parameters are exactly the ones its type declares, so a
 * mismatch fails at start-up instead of at the first request.
 */
export function loadQueryRegistry(dir = CYPHER_DIR): QueryRegistry {
  const registry: Record<string, (params: Record<string, unknown>) => CompiledQuery> = {};
  const problems: string[] = [];
  for (const [name, querySpec] of Object.entries(QUERY_SPECS) as Array<[string, QuerySpec<Record<string, unknown>>]>) {
    let text: string;
    try {
      text = readCypher(querySpec.file, dir);
    } catch (error) {
      problems.push(`${querySpec.file}.cypher: ${(error as Error).message}`);
      continue;
    }
    const used = cypherParameters(text);
    const declared = [...querySpec.params].sort();
    if (used.join(',') !== declared.join(',')) {
      problems.push(
        `${querySpec.file}.cypher uses [${used.join(', ')}] but its type declares [${declared.join(', ')}]`,
      );
    }
    registry[name] = (params) => ({ name, text, params });
  }
  if (problems.length > 0) {
    throw new CitegraphError(ErrorCode.QUERY_REGISTRY, `Cypher registry is inconsistent:\n${problems.join('\n')}`);
  }
  return Object.freeze(registry) as unknown as QueryRegistry;
}

let shared: QueryRegistry | undefined;

/** The registry of this process, loaded on first use. */
export function queries(): QueryRegistry {
  shared ??= loadQueryRegistry();
  return shared;
}
