import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config/settings';

export const SCHEMA_DIR = path.join(PROJECT_ROOT, 'schema');

/** The SDL of every file in schema/, in name order, as one document. */
export function loadTypeDefs(dir = SCHEMA_DIR): string {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(path.join(dir, file), 'utf8'))
    .join('\n');
}
