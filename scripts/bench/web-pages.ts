/**
 * Web pages read as documents (issue 29): Mozilla Readability's test corpus — real saved pages (news, blogs,
 * Wikipedia, forums), each with the main content a reader should keep (`expected.html`). For every page, the share of
 * the expected text's words the HTML reader recovers and the share of what it keeps that is not in the expected text
 * (boilerplate: navigation, footers, language lists, sidebars), for the reader as it is (Readability over linkedom,
 * then the block walker) and for the block walker over the whole page (what the reader did before); pages read per
 * second, and pages that fail.
 *
 *   scripts/bench/web-pages --pages DIR [--list]
 *
 * DIR is the corpus's `test/test-pages` folder (github mozilla/readability; one folder per page with `source.html`
 * and `expected.html`). Needs no database.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { htmlBlocks, htmlPageBlocks } from '../../src/documents/markup';
import { argument, runWhenMain } from './env';

function textOf(html: string): string {
  let out = '';
  const parser = new Parser(
    {
      ontext: (text) => (out += `${text} `),
      onclosetag: () => (out += ' '),
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Recall of the expected words (as a multiset) and the share of the read words beyond them. */
function compare(read: readonly string[], expected: readonly string[]): { recall: number; boilerplate: number } {
  const left = new Map<string, number>();
  for (const word of expected) left.set(word, (left.get(word) ?? 0) + 1);
  let matched = 0;
  for (const word of read) {
    const count = left.get(word) ?? 0;
    if (count > 0) {
      matched += 1;
      left.set(word, count - 1);
    }
  }
  return {
    recall: expected.length === 0 ? 1 : matched / expected.length,
    boilerplate: read.length === 0 ? 0 : (read.length - matched) / read.length,
  };
}

function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dir = argument(args, '--pages');
  if (!dir) return Promise.reject(new Error('--pages DIR: the test/test-pages folder of github mozilla/readability'));
  const list = args.includes('--list');
  const readers = {
    'reader (Readability main content, then blocks)': (html: string) => htmlBlocks(html).blocks,
    'blocks of the whole page (before)': (html: string) => htmlPageBlocks(html).blocks,
  };
  const totals = Object.fromEntries(
    Object.keys(readers).map((name) => [name, { recall: 0, boilerplate: 0, pages: 0, failed: 0, ms: 0 }]),
  );
  const pages = readdirSync(dir)
    .filter(
      (page) => existsSync(path.join(dir, page, 'source.html')) && existsSync(path.join(dir, page, 'expected.html')),
    )
    .sort();
  for (const page of pages) {
    const source = readFileSync(path.join(dir, page, 'source.html'), 'utf8');
    const expected = words(textOf(readFileSync(path.join(dir, page, 'expected.html'), 'utf8')));
    const line: string[] = [page.padEnd(44)];
    for (const [name, read] of Object.entries(readers)) {
      const total = totals[name]!;
      const started = process.hrtime.bigint();
      try {
        // The title block is the page's name, which expected.html leaves out.
        const blocks = read(source).filter((block) => block.kind !== 'title');
        total.ms += Number(process.hrtime.bigint() - started) / 1e6;
        const { recall, boilerplate } = compare(words(blocks.map((block) => block.text).join(' ')), expected);
        total.recall += recall;
        total.boilerplate += boilerplate;
        total.pages += 1;
        line.push(`recall ${recall.toFixed(3)} boilerplate ${boilerplate.toFixed(3)}`);
      } catch (error) {
        total.failed += 1;
        line.push(`failed: ${(error as Error).message.slice(0, 60)}`);
      }
    }
    if (list) process.stdout.write(`${line.join(' | ')}\n`);
  }
  process.stdout.write(
    [
      '',
      `${pages.length} pages of ${dir}`,
      '| reader | pages read | failed | mean recall of the main content | mean boilerplate share | pages/s |',
      '|---|---|---|---|---|---|',
      ...Object.entries(totals).map(
        ([name, t]) =>
          `| ${name} | ${t.pages} | ${t.failed} | ${(t.recall / Math.max(1, t.pages)).toFixed(3)} | ${(t.boilerplate / Math.max(1, t.pages)).toFixed(3)} | ${((1000 * t.pages) / Math.max(1, t.ms)).toFixed(1)} |`,
      ),
      '',
    ].join('\n'),
  );
  return Promise.resolve();
}

runWhenMain(module, 'bench-web-pages', main);
