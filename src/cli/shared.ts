import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAppContext, type AppContext } from '../app-context';
import type { Settings } from '../config/settings';
import { badInput } from '../errors';
import { closestNames } from '../text';
import { BIBLIOGRAPHY_FORMAT_NAMES, type BibliographyFormat, bibliographyFormatNamed } from '../catalog/bibliography';
import type { PaperFile } from '../catalog/paper-export';

/** What the commands share: an app for one command, the summary line or JSON, and checks of their arguments. */

/** `--json` given to a command that has no option of its own for it: its summary is printed as JSON (main sets it). */
export const output = { json: false };

/** A command's summary: the sentence for a reader, or with --json the data behind it. */
export function say(text: string, data: unknown): void {
  process.stdout.write(output.json ? `${JSON.stringify(data, null, 2)}\n` : `${text}\n`);
}

export async function withApp<T>(work: (app: AppContext) => Promise<T>, settings?: Settings): Promise<T> {
  const app = createAppContext(settings ? { settings } : {});
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}

/**
 * Refuses collection names the graph does not hold (exit 2), naming the closest known ones: a misspelt name would
 * otherwise give an empty result or delete nothing without a word.
 */
export async function checkCollections(app: AppContext, names: readonly string[] | undefined): Promise<void> {
  if (!names?.length) return;
  const known = (await app.catalog.collections()).map((entry) => entry.collection);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length === 0) return;
  const hints = unknown.map((name) => {
    const close = closestNames(name, known);
    return `${name}${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`;
  });
  throw badInput(
    `no such collection: ${hints.join('; ')}; the graph holds ${known.length} (citegraph stats lists them)`,
  );
}

function isDirectory(entry: string): boolean {
  return existsSync(entry) && statSync(entry).isDirectory();
}

/** The files named on the command line: each file as given, each folder's files whose names `keep` accepts, sorted. */
export function filesOf(entries: readonly string[], keep: (name: string) => boolean): string[] {
  const missing = entries.filter((entry) => !existsSync(entry));
  if (missing.length > 0) throw badInput(`no such file or folder: ${missing.join(', ')}`);
  return entries.flatMap((entry) =>
    isDirectory(entry)
      ? readdirSync(entry)
          .filter(keep)
          .sort()
          .map((name) => path.join(entry, name))
      : [entry],
  );
}

/** A bibliography format named on the command line (csv, jsonl, bibtex, ris, csl-json). */
export function bibliographyFormat(name: string): BibliographyFormat {
  const format = bibliographyFormatNamed(name);
  if (!format) throw badInput(`--format must be one of ${BIBLIOGRAPHY_FORMAT_NAMES}; got "${name}"`);
  return format;
}

/** An export to a file (with a summary on stderr) or to stdout. */
export function writeExport(file: PaperFile, out: string | undefined): void {
  if (out) {
    writeFileSync(out, file.content);
    process.stderr.write(
      `${file.papers} papers → ${out}${file.missing.length ? ` (not full papers of the graph: ${file.missing.join(', ')})` : ''}\n`,
    );
  } else process.stdout.write(file.content);
}
