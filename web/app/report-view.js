// The report view: a related-work report on a subject — one section per research front, every quoted sentence
// linked to the passage it quotes — with its files (Markdown, HTML, LaTeX, BibTeX) to download.
import React, { useState } from 'react';
import { useQuery } from './data.js';
import { Link, submitTo } from './routing.js';
import { DownloadLinks, Field, Status } from './shared.js';

const h = React.createElement;

const REPORT = `query Report($subject: String!, $options: ReportOptions) {
  report(subject: $subject, options: $options) {
    title definition papers covered cited generator
    leftOut { reason papers }
    sections {
      kind title generator
      front { size firstYear lastYear medianYear closeness arose mainPathPapers burst { start end strength } }
      sentences { kind text citations { marker paperId quote field start end } }
    }
    bibliography { marker paperId title year venue doi }
    dropped { section text reason }
  }
}`;

const REPORT_FORMATS = [
  ['markdown', 'Markdown'],
  ['html', 'HTML'],
  ['latex', 'LaTeX'],
  ['bibtex', 'BibTeX'],
];

/** Where a citation's quote stands: its paper, with the quoted characters highlighted. */
function quoteLink(citation) {
  return { view: 'paper', id: citation.paperId, field: citation.field, start: citation.start, end: citation.end };
}

function Sentence({ sentence }) {
  const markers = [...new Map(sentence.citations.map((c) => [c.marker, c])).values()];
  return h(
    'span',
    { className: `sentence ${sentence.kind}` },
    markers.length ? sentence.text.replace(/[.;:]\s*$/, '') : sentence.text,
    markers.length
      ? h(
          React.Fragment,
          null,
          ' ',
          markers.map((c) =>
            h(Link, { key: c.marker, to: quoteLink(c), className: 'marker', title: c.quote }, `[${c.marker}]`),
          ),
          '.',
        )
      : null,
    ' ',
  );
}

function Report({ report, query }) {
  return h(
    'article',
    { className: 'report' },
    h('h2', null, report.title),
    h(
      'p',
      { className: 'muted coverage' },
      `${report.papers} papers on the subject, ${report.covered} in the fronts written up, ${report.cited} cited.`,
      report.leftOut.length ? ` Left out: ${report.leftOut.map((l) => `${l.papers} ${l.reason}`).join('; ')}.` : '',
    ),
    h(DownloadLinks, { label: 'Download', path: '/export/report', query, formats: REPORT_FORMATS }),
    report.sections.map((section, i) =>
      h(
        'section',
        { key: i, className: `report-section ${section.kind}` },
        h('h3', null, section.title),
        section.front
          ? h(
              'p',
              { className: 'muted' },
              `${section.front.size} papers, ${section.front.firstYear}–${section.front.lastYear}, median ${section.front.medianYear}; ${section.front.burst ? `burst ${section.front.burst.start}${section.front.burst.end > section.front.burst.start ? `–${section.front.burst.end}` : ''}` : 'no burst'}; ${section.front.mainPathPapers} on the main path; closeness ${section.front.closeness.toFixed(2)}; ${section.generator === 'llm' ? 'written by the LLM, each sentence attributed and verified' : 'quoted from its papers'}`,
            )
          : null,
        h(
          'p',
          null,
          section.sentences.map((s, j) => h(Sentence, { key: j, sentence: s })),
        ),
      ),
    ),
    h('h3', null, 'References'),
    h(
      'ol',
      { className: 'bibliography' },
      report.bibliography.map((entry) =>
        h(
          'li',
          { key: entry.marker, value: entry.marker },
          h(Link, { to: { view: 'paper', id: entry.paperId } }, entry.title ?? entry.paperId),
          ` (${entry.year ?? 'n.d.'})${entry.venue ? `, ${entry.venue}` : ''}`,
        ),
      ),
    ),
    report.dropped.length
      ? h(
          'details',
          null,
          h('summary', null, `${report.dropped.length} chosen sentences did not verify`),
          h(
            'ul',
            null,
            report.dropped.map((d, i) => h('li', { key: i }, `${d.section}: "${d.text}" — ${d.reason}`)),
          ),
        )
      : null,
  );
}

export function ReportView({ params }) {
  const [form, setForm] = useState({
    subject: params.subject ?? '',
    collection: params.collection ?? '',
    fronts: params.fronts ?? '',
  });
  const set = (name) => (value) => setForm({ ...form, [name]: value });
  const enabled = !!params.subject;
  const options = {
    collections: params.collection ? [params.collection] : null,
    fronts: params.fronts ? Number(params.fronts) : null,
  };
  const variables = { subject: params.subject ?? '', options };
  const state = useQuery(REPORT, variables, JSON.stringify(variables), enabled);
  const query = [
    `subject=${encodeURIComponent(params.subject ?? '')}`,
    params.collection ? `collection=${encodeURIComponent(params.collection)}` : '',
    params.fronts ? `fronts=${encodeURIComponent(params.fronts)}` : '',
  ]
    .filter(Boolean)
    .join('&');
  return h(
    'section',
    { 'aria-labelledby': 'report-title' },
    h('h1', { id: 'report-title' }, 'Related-work report'),
    h(
      'form',
      { className: 'query', onSubmit: submitTo({ view: 'report', ...form }) },
      h(Field, {
        label: 'Subject',
        name: 'subject',
        value: form.subject,
        onChange: set('subject'),
        placeholder: 'a topic, e.g. hormone replacement therapy',
      }),
      h(Field, { label: 'Collection', name: 'collection', value: form.collection, onChange: set('collection') }),
      h(Field, { label: 'Fronts', name: 'fronts', value: form.fronts, onChange: set('fronts'), type: 'number' }),
      h('button', { type: 'submit' }, 'Write'),
    ),
    enabled
      ? h(Status, { state })
      : h('p', { className: 'muted' }, 'A report groups the papers on a subject into research fronts and quotes them.'),
    state.data ? h(Report, { report: state.data.report, query }) : null,
  );
}
