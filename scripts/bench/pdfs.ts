/**
 * PDFs read as uploads are read (issue 29): folders of real PDFs — pdf.js's test corpus (github mozilla/pdf.js,
 * `test/pdfs`: many producers, encodings, fonts, broken, encrypted and hostile files) and arXiv preprints — each read by
 * the bounded reader process the service uses (src/ingest/document-reader.ts, the default limits). Per folder: files
 * read; files refused with a reason (encrypted, corrupt, no text layer, too many pages, over the time or memory
 * bound); files that failed otherwise (a bug); pages read per second of reading; the share of read files with a title
 * and with a year. A file named by its arXiv identifier ("2203.00130v1.pdf") is checked against its name: the stamp
 * read (identifier and version), the year the identifier's, a title that is not the stamp. With `--truth FILE` (JSON
 * lines `{"file", "title", "year"}`, labelled by hand from the first page), titles (words equal, case and punctuation
 * aside) and years are compared with the labels.
 *
 *   scripts/bench/pdfs --dir DIR [--dir DIR …] [--truth FILE] [--list]
 *
 * Needs no database. `--list` prints each file's outcome.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadSettings } from '../../src/config/settings';
import { DocumentError } from '../../src/documents/read-document';
import { readDocument } from '../../src/ingest/document-reader';
import { runWhenMain } from './env';

interface Truth {
  file: string;
  title: string;
  year: number | null;
}

const words = (text: string): string => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dirs = args.flatMap((arg, index) => (args[index - 1] === '--dir' ? [arg] : []));
  if (dirs.length === 0) throw new Error('usage: scripts/bench/pdfs --dir DIR [--dir DIR …] [--truth FILE] [--list]');
  const truthFile = args.includes('--truth') ? args[args.indexOf('--truth') + 1] : undefined;
  const truths = new Map<string, Truth>(
    truthFile
      ? readFileSync(truthFile, 'utf8')
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as Truth)
          .map((truth) => [truth.file, truth])
      : [],
  );
  const list = args.includes('--list');
  // As `citegraph ingest` reads an operator's files: the service's bounds, the text kept whole.
  const limits = { ...loadSettings().documents, maxTextChars: Number.MAX_SAFE_INTEGER };
  const lines = [
    '| folder | PDFs | read | refused (by reason) | failed | pages | pages/s | with title | with year | arXiv named: stamp, year, title | labelled: title, year |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const dir of dirs) {
    const files = readdirSync(dir)
      .filter((name) => name.toLowerCase().endsWith('.pdf') && statSync(path.join(dir, name)).size > 0)
      .sort();
    let read = 0;
    let pages = 0;
    let readMs = 0;
    let titled = 0;
    let dated = 0;
    const refused = new Map<string, number>();
    const failed: string[] = [];
    const arxiv = { named: 0, stamp: 0, year: 0, title: 0 };
    const labelled = { n: 0, title: 0, year: 0 };
    for (const name of files) {
      const data = readFileSync(path.join(dir, name));
      const started = Date.now();
      try {
        const result = await readDocument(name, data, limits);
        readMs += Date.now() - started;
        read += 1;
        pages += result.document.pages.length;
        const { title, year, arxiv: stamp } = result.identity;
        if (title) titled += 1;
        if (year) dated += 1;
        const named = /^(\d{4}\.\d{4,5})(?:v(\d+))?\.pdf$/i.exec(name);
        if (named) {
          arxiv.named += 1;
          if (stamp && stamp.id === named[1] && (!named[2] || stamp.version === Number(named[2]))) arxiv.stamp += 1;
          const yy = Number(named[1]!.slice(0, 2));
          // The year the identifier was given; a later version's stamp may carry a later year.
          if (year !== null && year >= 2000 + yy && year <= (stamp?.year ?? 2000 + yy)) arxiv.year += 1;
          if (title && !/arXiv:/i.test(title)) arxiv.title += 1;
        }
        const truth = truths.get(name);
        if (truth) {
          labelled.n += 1;
          if (title && words(title) === words(truth.title)) labelled.title += 1;
          if (year === truth.year) labelled.year += 1;
        }
        if (list)
          process.stdout.write(`${name}\t${result.document.pages.length} pages\t${year ?? '-'}\t${title ?? '-'}\n`);
      } catch (error) {
        if (error instanceof DocumentError) {
          refused.set(error.kind, (refused.get(error.kind) ?? 0) + 1);
          if (list) process.stdout.write(`${name}\trefused\t${error.kind}: ${error.message.slice(0, 120)}\n`);
        } else {
          failed.push(`${name}: ${(error as Error).message.slice(0, 160)}`);
          if (list) process.stdout.write(`${name}\tFAILED\t${(error as Error).message.slice(0, 160)}\n`);
        }
      }
    }
    const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}% (${a}/${b})`);
    const reasons = [...refused.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([kind, n]) => `${kind} ${n}`)
      .join(', ');
    lines.push(
      `| ${path.basename(path.resolve(dir))} | ${files.length} | ${read} | ${files.length - read - failed.length}${reasons ? ` (${reasons})` : ''} | ${failed.length} | ${pages} | ${(pages / Math.max(0.001, readMs / 1000)).toFixed(1)} | ${pct(titled, read)} | ${pct(dated, read)} | ${arxiv.named === 0 ? '–' : `${arxiv.stamp}/${arxiv.named}, ${arxiv.year}/${arxiv.named}, ${arxiv.title}/${arxiv.named}`} | ${labelled.n === 0 ? '–' : `${labelled.title}/${labelled.n}, ${labelled.year}/${labelled.n}`} |`,
    );
    for (const failure of failed) lines.push(`  failed: ${failure}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

runWhenMain(module, 'bench/pdfs', main);
