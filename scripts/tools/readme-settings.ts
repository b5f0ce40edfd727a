/**
 * Writes the environment table of README.md from the settings schema (src/config/settings.ts), between the
 * `settings-table` markers. `test/unit/settings.test.ts` fails when the README and the schema differ.
 *
 *   npm run docs:settings
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { environmentTable, PROJECT_ROOT } from '../../src/config/settings';

export const README = path.join(PROJECT_ROOT, 'README.md');
export const START =
  '<!-- settings-table:start (npm run docs:settings writes this table from src/config/settings.ts) -->';
export const END = '<!-- settings-table:end -->';

/** The README's table as it stands, or null when the markers are missing. */
export function readmeTable(text = readFileSync(README, 'utf8')): string | null {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < start ? null : text.slice(start + START.length, end).trim();
}

function main(): void {
  const text = readFileSync(README, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${START} … ${END} block`);
  writeFileSync(README, `${text.slice(0, start + START.length)}\n${environmentTable()}\n${text.slice(end)}`);
  process.stdout.write('README.md: environment table written from the settings schema\n');
}

if (require.main === module) main();
