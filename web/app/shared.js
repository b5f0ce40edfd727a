// Pieces every view uses: status lines, download links, paper links, fields and paper lists.
import React from 'react';
import { Link } from './routing.js';

const h = React.createElement;

export function Status({ state }) {
  if (state.loading) return h('p', { className: 'status', role: 'status' }, 'Loading…');
  if (state.error) return h('p', { className: 'error', role: 'alert' }, state.error);
  if (state.warnings?.length) {
    return h(
      'ul',
      { className: 'warnings', role: 'status' },
      state.warnings.map((warning) => h('li', { key: warning }, warning)),
    );
  }
  return null;
}

const FORMATS = [
  ['bibtex', 'BibTeX'],
  ['ris', 'RIS'],
  ['csv', 'CSV'],
  ['csl-json', 'CSL-JSON'],
  ['jsonl', 'JSON Lines'],
];

/** Links that download one file in several formats: `path?format=…&query`. */
export function DownloadLinks({ label, path, query, formats }) {
  return h(
    'p',
    { className: 'exports' },
    `${label}: `,
    formats.map(([format, name], i) =>
      h(
        React.Fragment,
        { key: format },
        i > 0 ? ' · ' : '',
        h('a', { href: `${path}?format=${format}&${query}`, download: true, className: 'export' }, name),
      ),
    ),
  );
}

export const NETWORK_FORMATS = [
  ['graphml', 'GraphML'],
  ['gexf', 'GEXF'],
  ['vosviewer_map', 'VOSviewer map'],
  ['vosviewer_network', 'VOSviewer network'],
  ['csv', 'CSV edges'],
];

/** Download links of a paper list in every bibliography format. */
export function Exports({ ids, collection, label }) {
  if (!ids?.length && !collection) return null;
  const query = ids?.length
    ? `ids=${ids.map(encodeURIComponent).join(',')}`
    : `collection=${encodeURIComponent(collection)}`;
  return h(DownloadLinks, { label: label ?? 'Export', path: '/export/papers', query, formats: FORMATS });
}

export function PaperLink({ paper }) {
  return h(Link, { to: { view: 'paper', id: paper.id } }, paper.title ?? paper.id);
}

export function Field({ label, name, value, onChange, ...rest }) {
  return h(
    'label',
    { className: 'field' },
    h('span', null, label),
    h('input', { name, value: value ?? '', onChange: (e) => onChange(e.target.value), ...rest }),
  );
}

export function PaperList({ items, empty }) {
  if (!items?.length) return h('p', { className: 'muted' }, empty ?? 'None in the graph.');
  return h(
    'ol',
    { className: 'papers' },
    items.map((item) =>
      h(
        'li',
        { key: item.node.id },
        // A work known only as a reference shows the title its stub label gives (`citegraph fetch --stubs`), else
        // its id.
        item.node.stub
          ? h(
              'span',
              { className: 'stub' },
              item.node.title ?? item.node.id,
              h(
                'span',
                { className: 'muted' },
                item.node.title ? ` (${item.node.id}, known only as a reference)` : ' (known only as a reference)',
              ),
            )
          : h(PaperLink, { paper: item.node }),
        item.node.year ? ` (${item.node.year})` : '',
        item.count !== undefined ? h('span', { className: 'muted' }, ` · ${item.count} shared`) : null,
      ),
    ),
  );
}
