/**
 * Writes the environment table of docs/operations.md from the settings schema (src/config/settings.ts), between the
 * `settings-table` markers. `test/unit/settings.test.ts` fails when the page and the schema differ.
 *
 *   npm run docs:settings
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { environmentTable, PROJECT_ROOT } from '../../src/config/settings';

export const SETTINGS_PAGE = path.join(PROJECT_ROOT, 'docs', 'operations.md');
export const START =
  '<!-- settings-table:start (npm run docs:settings writes this table from src/config/settings.ts) -->';
export const END = '<!-- settings-table:end -->';

/** The page's table as it stands, or null when the markers are missing. */
export function documentedTable(text = readFileSync(SETTINGS_PAGE, 'utf8')): string | null {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < start ? null : text.slice(start + START.length, end).trim();
}

function main(): void {
  const text = readFileSync(SETTINGS_PAGE, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md has no ${START} … ${END} block`);
  writeFileSync(SETTINGS_PAGE, `${text.slice(0, start + START.length)}\n${environmentTable()}\n${text.slice(end)}`);
  process.stdout.write('docs/operations.md: environment table written from the settings schema\n');
}

if (require.main === module) main();
