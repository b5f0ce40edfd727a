import { type BibliographyRecord, bibtexText, citationKeys, formatBibliography } from '../catalog/bibliography';
import { cleanTitle } from '../text';
import type { Report, ReportSentence } from './report-service';

/**
 * A report as a file: Markdown and HTML with numbered citations and a reference list, LaTeX citing the keys of the
 * BibTeX file written beside it (the same keys: `citationKeys` of src/catalog/bibliography.ts), or that BibTeX file.
 * Quoted sentences are marked as quotes of the papers they cite; computed and transitional sentences are plain.
 */
export type ReportFormat = 'MARKDOWN' | 'HTML' | 'LATEX' | 'BIBTEX';

export const REPORT_FORMATS: readonly ReportFormat[] = ['MARKDOWN', 'HTML', 'LATEX', 'BIBTEX'];

export const REPORT_MEDIA_TYPES: Readonly<Record<ReportFormat, string>> = {
  MARKDOWN: 'text/markdown; charset=utf-8',
  HTML: 'text/html; charset=utf-8',
  LATEX: 'application/x-latex; charset=utf-8',
  BIBTEX: 'application/x-bibtex; charset=utf-8',
};

export const REPORT_EXTENSIONS: Readonly<Record<ReportFormat, string>> = {
  MARKDOWN: 'md',
  HTML: 'html',
  LATEX: 'tex',
  BIBTEX: 'bib',
};

/** The format a command-line or URL name stands for (`markdown`, `md`, `html`, `latex`, `tex`, `bibtex`, `bib`). */
export function reportFormatNamed(name: string): ReportFormat | null {
  const key = name.trim().toLowerCase();
  const aliases: Record<string, ReportFormat> = {
    markdown: 'MARKDOWN',
    md: 'MARKDOWN',
    html: 'HTML',
    latex: 'LATEX',
    tex: 'LATEX',
    bibtex: 'BIBTEX',
    bib: 'BIBTEX',
  };
  return aliases[key] ?? null;
}

/** The sentence's text without its closing stop, so that a citation can stand before it. */
const bare = (text: string) => text.replace(/[.;:]\s*$/, '');

function markdownEscape(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

function htmlEscape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function markers(sentence: ReportSentence): number[] {
  return [...new Set(sentence.citations.map((c) => c.marker))];
}

/** The records of the report's bibliography in its order (a paper the graph no longer holds is left out). */
function ordered(report: Report, records: readonly BibliographyRecord[]): BibliographyRecord[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  return report.bibliography.map((entry) => byId.get(entry.paperId)).filter((r): r is BibliographyRecord => !!r);
}

/** "Authors (year). Title. Venue. DOI" — the parts the graph knows, each ending in one full stop. */
function reference(entry: Report['bibliography'][number], record: BibliographyRecord | undefined): string {
  const authors = record?.authors.map((a) => a.name) ?? [];
  const who = authors.length > 3 ? `${authors[0]} et al.` : authors.join(', ');
  return [
    who ? `${who}${entry.year ? ` (${entry.year})` : ''}` : entry.year ? `(${entry.year})` : null,
    cleanTitle(entry.title ?? entry.paperId),
    entry.venue ? `*${entry.venue}*` : null,
    entry.doi ? `https://doi.org/${entry.doi}` : null,
  ]
    .filter((part): part is string => !!part)
    .map((part) => part.replace(/\.$/, ''))
    .join('. ');
}

function summary(report: Report): string {
  const left = report.leftOut.map((l) => `${l.papers} ${l.reason}`).join('; ');
  return `Covers ${report.papers} papers (${report.definition}); ${report.covered} in the fronts written up, ${report.cited} cited.${left ? ` Left out: ${left}.` : ''}`;
}

export function reportMarkdown(report: Report, records: readonly BibliographyRecord[]): string {
  const byId = new Map(records.map((r) => [r.id, r]));
  const lines = [`# ${markdownEscape(report.title)}`, '', `_${markdownEscape(summary(report))}_`, ''];
  for (const section of report.sections) {
    lines.push(`## ${markdownEscape(section.title)}`, '');
    lines.push(
      section.sentences
        .map((s) =>
          s.citations.length
            ? `${markdownEscape(bare(s.text))} ${markers(s)
                .map((m) => `[${m}]`)
                .join('')}.`
            : markdownEscape(s.text),
        )
        .join(' '),
      '',
    );
  }
  lines.push('## References', '');
  for (const entry of report.bibliography) {
    lines.push(`${entry.marker}. ${reference(entry, byId.get(entry.paperId))}`);
  }
  return `${lines.join('\n')}\n`;
}

export function reportHtml(report: Report, records: readonly BibliographyRecord[]): string {
  const byId = new Map(records.map((r) => [r.id, r]));
  const cite = (s: ReportSentence) =>
    markers(s)
      .map((m) => `<a href="#ref-${m}">[${m}]</a>`)
      .join('');
  const body = report.sections.map((section) => {
    const text = section.sentences
      .map((s) =>
        s.citations.length
          ? `<span class="${s.kind}">${htmlEscape(bare(s.text))} ${cite(s)}.</span>`
          : `<span class="${s.kind}">${htmlEscape(s.text)}</span>`,
      )
      .join(' ');
    return `<section><h2>${htmlEscape(section.title)}</h2>\n<p>${text}</p></section>`;
  });
  const references = report.bibliography.map(
    (entry) =>
      `<li id="ref-${entry.marker}" value="${entry.marker}">${htmlEscape(reference(entry, byId.get(entry.paperId)).replace(/\*/g, ''))}</li>`,
  );
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${htmlEscape(report.title)}</title></head><body>`,
    `<h1>${htmlEscape(report.title)}</h1>`,
    `<p><em>${htmlEscape(summary(report))}</em></p>`,
    ...body,
    `<section><h2>References</h2>\n<ol>\n${references.join('\n')}\n</ol></section>`,
    '</body></html>',
    '',
  ].join('\n');
}

export function reportLatex(report: Report, records: readonly BibliographyRecord[]): string {
  const present = ordered(report, records);
  const keys = new Map(citationKeys(present).map((key, i) => [present[i]!.id, key]));
  const keyOf = new Map(report.bibliography.map((entry) => [entry.marker, keys.get(entry.paperId)]));
  const cite = (s: ReportSentence) => {
    const cited = markers(s)
      .map((m) => keyOf.get(m))
      .filter(Boolean);
    return cited.length ? `~\\cite{${cited.join(',')}}` : '';
  };
  const lines = [
    '\\documentclass{article}',
    '\\usepackage[utf8]{inputenc}',
    '\\usepackage[T1]{fontenc}',
    `\\title{${bibtexText(report.title)}}`,
    '\\date{}',
    '\\begin{document}',
    '\\maketitle',
    `\\noindent\\emph{${bibtexText(summary(report))}}`,
    '',
  ];
  for (const section of report.sections) {
    lines.push(`\\section{${bibtexText(section.title)}}`);
    lines.push(
      section.sentences
        .map((s) => (s.citations.length ? `${bibtexText(bare(s.text))}${cite(s)}.` : bibtexText(s.text)))
        .join(' '),
      '',
    );
  }
  lines.push('\\bibliographystyle{plain}', '\\bibliography{references}', '\\end{document}', '');
  return lines.join('\n');
}

/** The report as a file of the format. */
export function reportFile(report: Report, records: readonly BibliographyRecord[], format: ReportFormat): string {
  switch (format) {
    case 'MARKDOWN':
      return reportMarkdown(report, records);
    case 'HTML':
      return reportHtml(report, records);
    case 'LATEX':
      return reportLatex(report, records);
    case 'BIBTEX':
      return formatBibliography(ordered(report, records), 'BIBTEX');
  }
}
