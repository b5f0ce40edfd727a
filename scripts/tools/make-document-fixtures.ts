/**
 * Makes the document fixtures under test/fixtures/documents from CC0 SYNERGY records (../shared), with real
 * producers: headless Chromium prints the PDFs (two-column pages, running headers, page numbers, soft hyphens that
 * break words across lines), pdfLaTeX typesets a two-column article (ligatures, TeX hyphenation, fancyhdr headers),
 * Chromium's screenshot plus print makes the scanned PDF, qpdf encrypts one. The files are committed; tests never run
 * this script. Needs `chromium`, `qpdf` and `pdflatex` (Debian packages chromium, qpdf, texlive-latex-base,
 * texlive-latex-recommended).
 *
 *   npm run build && node dist/scripts/tools/make-document-fixtures.js [--latex | --arxiv]   (--latex: only
 *   latex-paper.pdf; --arxiv: only arxiv-preprint.pdf)
 *   node dist/scripts/tools/make-document-fixtures.js --bench DIR N   (N generated papers for scripts/bench/documents)
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../src/config/settings';
import { mapOpenAlexWork } from '../../src/ingest/openalex';
import type { WorkRecord } from '../../src/domain';

const OUT = path.join(PROJECT_ROOT, 'test', 'fixtures', 'documents');
const SHARED = path.resolve(PROJECT_ROOT, '..', 'shared', 'data', 'synergy', 'works');

function works(file: string): WorkRecord[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => mapOpenAlexWork(JSON.parse(line)));
}

const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Soft hyphens inside long words, so that Chromium breaks and hyphenates them at line ends. */
function softHyphens(text: string): string {
  return escapeHtml(text).replace(/\b([a-z]{6,})([a-z]{5,})\b/g, '$1\u00AD$2');
}

/** The parts of a structured abstract ("BACKGROUND: … RESULTS: …"), by label. */
function abstractParts(abstract: string): Record<string, string> {
  const parts: Record<string, string> = {};
  const label =
    /\b(BACKGROUND|INTRODUCTION|OBJECTIVES?|AIMS?|PURPOSE|METHODS?|DESIGN|SETTING|PATIENTS|PARTICIPANTS|RESULTS?|FINDINGS|CONCLUSIONS?|INTERPRETATION|DISCUSSION)\s*[:.]\s*/g;
  const marks = [...abstract.matchAll(label)];
  marks.forEach((mark, index) => {
    const kind = mark[1]!.toLowerCase();
    const key = /^(background|introduction|objectives?|aims?|purpose)$/.test(kind)
      ? 'introduction'
      : /^(methods?|design|setting|patients|participants)$/.test(kind)
        ? 'methods'
        : /^(results?|findings)$/.test(kind)
          ? 'results'
          : 'conclusion';
    const text = abstract.slice(mark.index + mark[0].length, marks[index + 1]?.index ?? abstract.length).trim();
    if (text) parts[key] = parts[key] ? `${parts[key]} ${text}` : text;
  });
  return parts;
}

const CSS = `
@page { size: A4; margin: 20mm 17mm 18mm 17mm;
  @top-left { content: "Journal of Synthetic Evidence 12 (2024)"; font: italic 8pt serif; color: #333 }
  @top-right { content: "Vermeer et al."; font: italic 8pt serif; color: #333 }
  @bottom-center { content: counter(page); font: 9pt serif } }
@page :first { @top-right { content: none } }
body { font: 9.5pt/1.25 "DejaVu Serif", serif; }
h1 { font-size: 17pt; margin: 0 0 6pt }
.authors { font-size: 10.5pt; margin: 0 0 4pt }
.doi { font-size: 8.5pt; margin: 0 0 10pt }
.abstract { border-top: 0.5pt solid #000; border-bottom: 0.5pt solid #000; padding: 4pt 0; margin-bottom: 10pt }
.abstract h2 { font-size: 11pt; margin: 0 0 3pt }
.cols { column-count: 2; column-gap: 7mm; text-align: justify; }
h2 { font-size: 11pt; margin: 10pt 0 4pt; break-after: avoid }
h3 { font-size: 10pt; font-style: italic; margin: 8pt 0 3pt; break-after: avoid }
p { margin: 0 0 5pt; text-indent: 0 }
ol.refs { font-size: 8.5pt; padding-left: 0; list-style: none }
ol.refs li { margin-bottom: 2pt }
`;

interface Built {
  html: string;
  title: string;
}

/** A long two-column paper whose sections are built from the parts of structured abstracts. */
function twoColumnPaper(
  pool: WorkRecord[],
  references: Array<{ record: WorkRecord; withDoi: boolean }>,
  targetPages: number,
  title: string,
  doi: string,
): Built {
  const structured = pool.filter((record) => (record.abstract ?? '').split(/(?<=\.)\s+/).length >= 4);
  const perPage = 820;
  const words = (text: string): number => text.split(/\s+/).length;
  const sections: Record<'introduction' | 'methods' | 'results' | 'discussion', string[]> = {
    introduction: [],
    methods: [],
    results: [],
    discussion: [],
  };
  let total = 0;
  for (const record of structured) {
    if (total > targetPages * perPage) break;
    const parts = abstractParts(record.abstract!);
    if (!parts.results) {
      // An unstructured abstract: its first sentences introduce, the middle ones describe methods, the last report.
      const sentences = record.abstract!.split(/(?<=\.)\s+/);
      const third = Math.ceil(sentences.length / 3);
      parts.introduction = sentences.slice(0, third).join(' ');
      parts.methods = sentences.slice(third, 2 * third).join(' ');
      parts.results = sentences.slice(2 * third).join(' ');
    }
    sections.introduction.push(parts.introduction!);
    sections.methods.push(parts.methods!);
    sections.results.push(parts.results);
    if (parts.conclusion) sections.discussion.push(parts.conclusion);
    total += words(record.abstract!);
  }
  const subsections = (items: string[], names: string[], number: number): string => {
    const size = Math.ceil(items.length / names.length);
    return names
      .map(
        (name, index) =>
          `<h3>${number}.${index + 1} ${escapeHtml(name)}</h3>` +
          items
            .slice(index * size, (index + 1) * size)
            .map((text) => `<p>${softHyphens(text)}</p>`)
            .join(''),
      )
      .join('');
  };
  const refs = references
    .map(({ record, withDoi }) => {
      const authors = record.authorships
        .slice(0, 3)
        .map((a) => a.name)
        .join(', ');
      return `<li>[${references.indexOf(references.find((r) => r.record === record)!) + 1}] ${escapeHtml(authors)}${record.authorships.length > 3 ? ' et al.' : ''}. ${escapeHtml(record.title ?? '')}. ${escapeHtml(record.venue?.name ?? 'Journal')}. ${record.year ?? ''}.${withDoi && record.doi ? ` doi:${record.doi}` : ''}</li>`;
    })
    .join('');
  const abstract = `${sections.introduction[0]} ${sections.results[0]}`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${CSS}</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p class="authors">Anna Vermeer, Pieter de Jong, Sofia Almeida</p>
<p class="doi">https://doi.org/${doi} · © 2024 The Authors · Published under CC0</p>
<div class="abstract"><h2>Abstract</h2><p>${softHyphens(abstract)}</p></div>
<div class="cols">
<h2>1 Introduction</h2>${sections.introduction
    .slice(1)
    .map((text) => `<p>${softHyphens(text)}</p>`)
    .join('')}
<h2>2 Methods</h2>${subsections(sections.methods, ['Study design and participants', 'Outcomes and analysis'], 2)}
<h2>3 Results</h2>${subsections(sections.results, ['Primary outcomes', 'Secondary outcomes', 'Subgroup analyses'], 3)}
<h2>4 Discussion</h2>${sections.discussion.map((text) => `<p>${softHyphens(text)}</p>`).join('')}
<h2>5 Conclusion</h2><p>${softHyphens(sections.discussion.slice(0, 2).join(' '))}</p>
<h2>References</h2><ol class="refs">${refs}</ol>
</div></body></html>`;
  return { html, title };
}

/** A short one-column full text of a paper in the bundled sample: same title, its DOI printed, its abstract kept. */
function sampleFullText(record: WorkRecord): string {
  const sentences = (record.abstract ?? '').split(/(?<=\.)\s+/);
  const half = Math.ceil(sentences.length / 2);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>manuscript.docx</title><style>
@page { size: Letter; margin: 22mm; @bottom-right { content: "Page " counter(page); font: 9pt sans-serif } }
body { font: 11pt/1.4 "DejaVu Sans", sans-serif } h1 { font-size: 16pt } h2 { font-size: 12.5pt }</style></head><body>
<h1>${escapeHtml(record.title ?? '')}</h1>
<p>${escapeHtml(record.authorships.map((a) => a.name).join(', '))}</p>
<p>doi: ${record.doi}</p>
<h2>Abstract</h2><p>${escapeHtml(record.abstract ?? '')}</p>
<h2>Introduction</h2><p>${escapeHtml(sentences.slice(0, half).join(' '))}</p>
<h2>Results</h2><p>${escapeHtml(sentences.slice(half).join(' '))}</p>
<h2>Discussion</h2><p>These findings are discussed in the context of ${escapeHtml((record.title ?? '').toLowerCase())}.</p>
</body></html>`;
}

/** Text as LaTeX source: the few non-ASCII characters abstracts use spelt the TeX way, specials escaped. */
function latexText(text: string): string {
  return text
    .replace(/<\/?[a-z][a-z0-9]*>/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\{}$&#^_%~]/g, (ch) =>
      ch === '\\'
        ? '\\textbackslash{}'
        : ch === '~'
          ? '\\textasciitilde{}'
          : ch === '^'
            ? '\\textasciicircum{}'
            : `\\${ch}`,
    )
    .replace(/\u2013/g, '--')
    .replace(/\u2014/g, '---')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\u00a0/g, '~')
    .replace(/\u2264/g, '$\\leq$')
    .replace(/\u2265/g, '$\\geq$')
    .replace(/\u00b1/g, '$\\pm$')
    .replace(/[<>]/g, (ch) => `$${ch}$`);
}

/**
 * A two-column article typeset by pdfLaTeX from CC0 abstracts: Computer Modern with its fi/fl ligatures, TeX's own
 * hyphenation at line ends, a running header with the page number (fancyhdr), numbered sections, and a
 * thebibliography reference list citing papers of the bundled sample by title and year.
 */
function latexPaper(pool: WorkRecord[], cited: WorkRecord[], title: string): string {
  const usable = pool.filter(
    (record) =>
      record.abstract &&
      /^[\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u00a0\u2264\u2265\u00b1]*$/.test(record.abstract),
  );
  const paragraphs = usable.slice(0, 24).map((record) => latexText(record.abstract!));
  const section = (name: string, from: number, to: number) =>
    `\\section{${name}}\n${paragraphs.slice(from, to).join('\n\n')}\n`;
  const bibliography = cited
    .map(
      (record, index) =>
        `\\bibitem{r${index + 1}} ${latexText(
          record.authorships
            .slice(0, 3)
            .map((a) => a.name)
            .join(', '),
        )}${record.authorships.length > 3 ? ' et al.' : ''}. ${latexText(record.title ?? '')}. \\emph{${latexText(record.venue?.name ?? 'Journal')}}, ${record.year}.`,
    )
    .join('\n');
  return `\\documentclass[10pt,twocolumn]{article}
\\usepackage[a4paper,margin=18mm]{geometry}
\\usepackage{fancyhdr}
\\pagestyle{fancy}
\\fancyhf{}
\\fancyhead[L]{\\small Tapering biologics --- a \\LaTeX{} fixture}
\\fancyhead[R]{\\small\\thepage}
\\title{${latexText(title)}}
\\author{Maria Keller \\and Jonas Lindqvist}
\\date{2023}
\\begin{document}
\\maketitle
\\thispagestyle{fancy}
\\begin{abstract}
${paragraphs[0]}
\\end{abstract}
${section('Introduction', 1, 5)}${section('Methods', 5, 10)}${section('Results', 10, 17)}${section('Discussion', 17, 22)}${section('Conclusion', 22, 24)}
\\begin{thebibliography}{9}
${bibliography}
\\end{thebibliography}
\\end{document}
`;
}

/**
 * A one-column preprint as arXiv serves it: the stamp set sideways in 20 pt type down the left margin of the first
 * page ("arXiv:<id>v<version> [<category>] <date>", as arXiv's own stamp reads), a running header on every page, no
 * date under the title (its year is the stamp's), and numbered subsections ("2.1 Overview") under "2 Methodology".
 */
function arxivPreprint(pool: WorkRecord[], cited: WorkRecord[]): string {
  const usable = pool.filter(
    (record) =>
      record.abstract &&
      /^[\x20-\x7e\u2013\u2014\u2018\u2019\u201c\u201d\u00a0\u2264\u2265\u00b1]*$/.test(record.abstract),
  );
  const paragraphs = usable.slice(0, 14).map((record) => latexText(record.abstract!));
  const bibliography = cited
    .map(
      (record, index) =>
        `\\bibitem{r${index + 1}} ${latexText(
          record.authorships
            .map((a) => a.name)
            .slice(0, 3)
            .join(', '),
        )}. ${latexText(record.title ?? '')}. \\emph{${latexText(record.venue?.name ?? 'Journal')}}, ${record.year}.`,
    )
    .join('\n');
  return `\\documentclass[11pt]{article}
\\usepackage[a4paper,margin=25mm]{geometry}
\\usepackage{graphicx}
\\usepackage{xcolor}
\\usepackage{fancyhdr}
\\pagestyle{fancy}
\\fancyhf{}
\\fancyhead[L]{\\small Screening at scale}
\\fancyhead[R]{\\small\\thepage}
\\title{Hybrid retrieval for screening in systematic reviews of biologic therapies}
\\author{Lena Vogt \\and Tomas Berg}
\\date{}
\\begin{document}
\\maketitle
\\thispagestyle{fancy}
\\noindent\\begin{picture}(0,0)\\put(-60,-520){\\rotatebox{90}{\\fontsize{20}{20}\\selectfont\\textcolor[gray]{0.5}{arXiv:2412.04321v2 [cs.IR] 3 Dec 2024}}}\\end{picture}%
\\begin{abstract}
${paragraphs[0]}
\\end{abstract}
\\section{Introduction}
${paragraphs.slice(1, 4).join('\n\n')}
\\section{Methodology}
\\subsection{Overview}
${paragraphs.slice(4, 6).join('\n\n')}
\\subsection{Data}
${paragraphs.slice(6, 8).join('\n\n')}
\\section{Results}
${paragraphs.slice(8, 12).join('\n\n')}
\\section{Conclusion}
${paragraphs.slice(12, 14).join('\n\n')}
\\begin{thebibliography}{9}
${bibliography}
\\end{thebibliography}
\\end{document}
`;
}

function latexPdf(source: string, out: string, work: string): void {
  writeFileSync(path.join(work, 'paper.tex'), source);
  for (let pass = 0; pass < 2; pass += 1) {
    execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'paper.tex'], {
      cwd: work,
      stdio: 'ignore',
    });
  }
  writeFileSync(out, readFileSync(path.join(work, 'paper.pdf')));
}

function chromiumPdf(html: string, out: string, work: string): void {
  const source = path.join(work, `${path.basename(out, '.pdf')}.html`);
  writeFileSync(source, html);
  execFileSync(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-pdf-header-footer',
      `--print-to-pdf=${out}`,
      `file://${source}`,
    ],
    { stdio: 'ignore' },
  );
}

function main(): void {
  const args = process.argv.slice(2);
  const work = mkdtempSync(path.join(os.tmpdir(), 'citegraph-fixtures-'));
  try {
    const sample = works(path.join(PROJECT_ROOT, 'data', 'sample', 'nelson-2002.jsonl.gz')).filter(
      (record) => record.title && record.abstract && record.doi && record.year,
    );
    const pool = ['Meijboom_2021', 'Oud_2018', 'Menon_2022', 'Donners_2021'].flatMap((name) =>
      works(path.join(SHARED, `${name}.jsonl.gz`)),
    );
    const others = pool.filter((record) => record.title && record.year).slice(0, 6);
    const references = [
      ...sample.slice(0, 6).map((record) => ({ record, withDoi: true })),
      ...sample.slice(6, 12).map((record) => ({ record, withDoi: false })),
      ...others.map((record) => ({ record, withDoi: false })),
    ];
    if (args[0] === '--bench') {
      const dir = path.resolve(args[1] ?? 'bench-documents');
      const count = Number(args[2] ?? 10);
      mkdirSync(dir, { recursive: true });
      for (let index = 0; index < count; index += 1) {
        const slice = pool.slice(index * 60, index * 60 + 400);
        const paper = twoColumnPaper(
          slice,
          references,
          12,
          `Generated paper ${index + 1} on biosimilars and mental health`,
          `10.5555/citegraph.bench.${index + 1}`,
        );
        chromiumPdf(paper.html, path.join(dir, `paper-${index + 1}.pdf`), work);
      }
      process.stdout.write(`${count} PDFs in ${dir}\n`);
      return;
    }
    mkdirSync(OUT, { recursive: true });
    if (args[0] === '--arxiv') {
      latexPdf(
        arxivPreprint(works(path.join(SHARED, 'Meijboom_2021.jsonl.gz')), sample.slice(15, 18)),
        path.join(OUT, 'arxiv-preprint.pdf'),
        work,
      );
      return;
    }
    latexPdf(
      latexPaper(
        ['Menon_2022', 'Donners_2021'].flatMap((name) => works(path.join(SHARED, `${name}.jsonl.gz`))),
        [...sample.slice(12, 15), ...others.slice(0, 1)],
        'Tapering biologics in remission: a LaTeX-typeset two-column review from CC0 abstracts',
      ),
      path.join(OUT, 'latex-paper.pdf'),
      work,
    );
    if (args[0] === '--latex') return;
    const paper = twoColumnPaper(
      pool,
      references,
      40,
      'Switching, tapering and outcomes: a synthetic two-column review built from CC0 abstracts',
      '10.5555/citegraph.fixture.2024',
    );
    chromiumPdf(paper.html, path.join(OUT, 'two-column-paper.pdf'), work);
    const target = sample[20]!;
    chromiumPdf(sampleFullText(target), path.join(OUT, 'sample-full-text.pdf'), work);
    // Scanned: a screenshot of a page of text, printed as an image.
    const shot = path.join(work, 'page.png');
    writeFileSync(path.join(work, 'text.html'), sampleFullText(sample[21]!));
    execFileSync(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--screenshot=${shot}`,
        '--window-size=900,1200',
        `file://${path.join(work, 'text.html')}`,
      ],
      { stdio: 'ignore' },
    );
    const image = readFileSync(shot).toString('base64');
    chromiumPdf(
      `<!doctype html><html><head><style>@page{size:A4;margin:0}body{margin:0}</style></head><body><img src="data:image/png;base64,${image}" style="width:100%"></body></html>`,
      path.join(OUT, 'scanned.pdf'),
      work,
    );
    execFileSync('qpdf', [
      '--encrypt',
      'secret-user',
      'secret-owner',
      '256',
      '--',
      path.join(OUT, 'sample-full-text.pdf'),
      path.join(OUT, 'encrypted.pdf'),
    ]);
    const real = readFileSync(path.join(OUT, 'sample-full-text.pdf'));
    writeFileSync(
      path.join(OUT, 'corrupt.pdf'),
      Buffer.concat([real.subarray(0, 16), Buffer.from('garbage '.repeat(200))]),
    );
    writeFileSync(path.join(OUT, 'empty.pdf'), '');
    const notes = sample[22]!;
    writeFileSync(
      path.join(OUT, 'lab-notes.md'),
      `---\ntitle: ${notes.title}\nyear: ${notes.year}\n---\n\n# ${notes.title}\n\nNotes taken while reading, with the abstract quoted.\n\n## Summary\n\n${notes.abstract}\n\n## Open questions\n\n- Does the effect hold in *older* women?\n- Which outcomes were **measured** at follow-up?\n`,
    );
    const page = sample[23]!;
    writeFileSync(
      path.join(OUT, 'saved-page.html'),
      `<!doctype html><html><head><title>${escapeHtml(page.title!)} | Journal site</title>\n<meta name="citation_title" content="${escapeHtml(page.title!)}">\n${page.authorships.map((a) => `<meta name="citation_author" content="${escapeHtml(a.name)}">`).join('\n')}\n<meta name="citation_doi" content="${page.doi}">\n<meta name="citation_publication_date" content="${page.year}">\n<script>var tracking = 1;</script><style>body{}</style></head><body><nav>Home · Journals · Log in</nav>\n<article><h1>${escapeHtml(page.title!)}</h1><h2>Abstract</h2><p>${escapeHtml(page.abstract!)}</p><h2>Methods</h2><p>See the original article for the methods &amp; materials.</p></article></body></html>\n`,
    );
    const text = sample[24]!;
    const sentences = text.abstract!.split(/(?<=\.)\s+/);
    writeFileSync(
      path.join(OUT, 'plain-notes.txt'),
      `Reading notes\n\n1 Introduction\n\n${sentences.slice(0, 2).join('\n')}\n\f2 Results\n\n${sentences.slice(2).join('\n')}\n\nReferences\n\n[1] ${text.authorships[0]?.name ?? 'Anon'}. ${text.title}. ${text.year}.\n`,
    );
    process.stdout.write(`fixtures written to ${OUT}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
