import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { badInput } from '../../errors';
import { reportFile, reportFormatNamed } from '../../pipeline/report-formats';
import { ensureDatabase } from '../database';
import { checkCollections, withApp } from '../shared';

const whole = (value: string | undefined, name: string): number | undefined => {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw badInput(`--${name} must be a whole number, got "${value}"`);
  return n;
};

/**
 * `citegraph report "SUBJECT"`: a related-work report as Markdown (default), HTML, LaTeX, BibTeX or JSON. With
 * `--format latex --out FILE.tex`, the BibTeX file its \bibliography names (references.bib) is written beside it.
 * `--papers W1,W2,…` (or `--papers-file F`, one id per line) reports on those papers, titled SUBJECT.
 */
export async function reportCommand(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      format: { type: 'string', default: 'markdown' },
      collection: { type: 'string', multiple: true },
      'year-from': { type: 'string' },
      'year-to': { type: 'string' },
      fronts: { type: 'string' },
      sentences: { type: 'string' },
      out: { type: 'string' },
      papers: { type: 'string', multiple: true },
      'papers-file': { type: 'string' },
    },
  });
  const papers = [
    ...(values.papers ?? []).flatMap((list) => list.split(',')),
    ...(values['papers-file'] ? readFileSync(values['papers-file'], 'utf8').split('\n') : []),
  ]
    .map((id) => id.trim())
    .filter((id) => id && !id.startsWith('#'));
  const subject = positionals.join(' ').trim();
  if (!subject) throw badInput('report needs a subject: citegraph report "emicizumab prophylaxis"');
  const json = values.format.toLowerCase() === 'json';
  const format = json ? null : reportFormatNamed(values.format);
  if (!json && !format) throw badInput(`unknown format "${values.format}": markdown, html, latex, bibtex or json`);
  await withApp(async (app) => {
    await ensureDatabase(app);
    await checkCollections(app, values.collection);
    const report = await app.reports.report(
      subject,
      {
        collections: values.collection ?? null,
        yearFrom: whole(values['year-from'], 'year-from') ?? null,
        yearTo: whole(values['year-to'], 'year-to') ?? null,
        fronts: whole(values.fronts, 'fronts') ?? null,
        sentencesPerFront: whole(values.sentences, 'sentences') ?? null,
        papers: papers.length ? papers : null,
      },
      { ctx: app.requestContext({ timeoutMs: null }) },
    );
    const records = await app.exports.records(report.bibliography.map((entry) => entry.paperId));
    const content = format ? reportFile(report, records, format) : `${JSON.stringify(report, null, 2)}\n`;
    if (!values.out) {
      process.stdout.write(content);
      return;
    }
    writeFileSync(values.out, content);
    const written = [values.out];
    if (format === 'LATEX') {
      const bib = path.join(path.dirname(values.out), 'references.bib');
      writeFileSync(bib, reportFile(report, records, 'BIBTEX'));
      written.push(bib);
    }
    process.stderr.write(
      `report on "${subject}": ${report.sections.length - 2} fronts, ${report.cited} papers cited of ${report.papers} → ${written.join(', ')}\n`,
    );
  });
}
