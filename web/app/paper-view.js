// The paper view: metadata, text with the quoted passage marked, references and citing papers.
import React, { useEffect } from 'react';
import { useQuery } from './data.js';
import { Link } from './routing.js';
import { Exports, PaperList, Status } from './shared.js';

const h = React.createElement;

const PAPER = `query Paper($id: ID!, $withText: Boolean!) {
  paper(id: $id) {
    id doi doiUrl title abstract year type citedByCount internalCitationCount stub collections volume issue pages
    venue { name }
    authors { author { id name } }
    topics(first: 8) { topic { id name } }
    document @include(if: $withText) { fullText }
    references(first: 20) { totalCount edges { node { id title year stub } } }
    citedBy(first: 20) { totalCount edges { node { id title year stub } } }
    coCited(first: 10) { edges { count node { id title year stub } } }
    coupled(first: 10) { edges { count node { id title year stub } } }
  }
}`;

/** The text with [start, end) marked (the quoted passage of a citation). */
function Highlighted({ text, start, end }) {
  if (start === undefined || end === undefined || !(end > start) || end > text.length) return h('p', null, text);
  return h(
    'p',
    null,
    text.slice(0, start),
    h('mark', { id: 'quoted', tabIndex: -1 }, text.slice(start, end)),
    text.slice(end),
  );
}

/** "Journal 273(3):199–208", as a reference list prints where a paper appeared; only the parts the record has. */
function venueCitation(paper) {
  const place = [paper.volume, paper.issue ? `(${paper.issue})` : null].filter(Boolean).join('');
  const where = [place, paper.pages].filter(Boolean).join(':');
  return [paper.venue?.name, where].filter(Boolean).join(' ') || null;
}

export function PaperView({ params }) {
  const withText = params.field === 'text';
  const state = useQuery(PAPER, { id: params.id, withText }, `${params.id}|${withText}`, !!params.id);
  const paper = state.data?.paper;
  const start = params.start === undefined ? undefined : Number(params.start);
  const end = params.end === undefined ? undefined : Number(params.end);
  useEffect(() => {
    document.getElementById('quoted')?.scrollIntoView({ block: 'center' });
    document.getElementById('quoted')?.focus();
  }, [paper]);
  if (!params.id) return null;
  if (!state.data) return h(Status, { state });
  if (!paper) return h('p', { className: 'error', role: 'alert' }, `No paper ${params.id} in the graph.`);
  return h(
    'article',
    { className: 'paper' },
    h(
      'h1',
      null,
      params.field === 'title' ? h(Highlighted, { text: paper.title ?? '', start, end }) : (paper.title ?? paper.id),
    ),
    h(
      'p',
      { className: 'meta' },
      [paper.year, venueCitation(paper), paper.type].filter(Boolean).join(' · '),
      paper.doiUrl
        ? h(React.Fragment, null, ' · ', h('a', { href: paper.doiUrl, rel: 'noreferrer' }, paper.doi))
        : null,
      ` · ${paper.internalCitationCount} citations in the graph, ${paper.citedByCount ?? 0} in all`,
    ),
    h(
      'p',
      { className: 'authors' },
      paper.authors.map((a, i) =>
        h(
          React.Fragment,
          { key: a.author.id },
          i ? ', ' : '',
          h(Link, { to: { view: 'author', id: a.author.id } }, a.author.name),
        ),
      ),
    ),
    h('h2', null, 'Abstract'),
    paper.abstract
      ? params.field === 'abstract'
        ? h(Highlighted, { text: paper.abstract, start, end })
        : h('p', null, paper.abstract)
      : h('p', { className: 'muted' }, 'No abstract.'),
    withText && paper.document
      ? h(
          'details',
          { open: true },
          h('summary', null, 'Full text'),
          h(Highlighted, { text: paper.document.fullText, start, end }),
        )
      : null,
    h(
      'p',
      { className: 'topics' },
      paper.topics.map((t) => h('span', { key: t.topic.id, className: 'tag' }, t.topic.name)),
    ),
    h(Neighbourhood, { paper }),
    h(Exports, { ids: [paper.id], label: 'Cite this paper' }),
    h(
      'div',
      { className: 'columns' },
      h(
        'div',
        null,
        h('h2', null, `References (${paper.references.totalCount})`),
        h(PaperList, { items: paper.references.edges }),
      ),
      h(
        'div',
        null,
        h('h2', null, `Cited by (${paper.citedBy.totalCount})`),
        h(PaperList, { items: paper.citedBy.edges }),
      ),
      h('div', null, h('h2', null, 'Co-cited with'), h(PaperList, { items: paper.coCited.edges })),
      h('div', null, h('h2', null, 'Coupled with'), h(PaperList, { items: paper.coupled.edges })),
    ),
  );
}

/** The paper, its references (left) and the papers citing it (right), as a small SVG graph. */
function Neighbourhood({ paper }) {
  const refs = paper.references.edges.slice(0, 12).map((e) => e.node);
  const citing = paper.citedBy.edges.slice(0, 12).map((e) => e.node);
  if (!refs.length && !citing.length) return null;
  const width = 640;
  const height = 260;
  const column = (nodes, x) => nodes.map((node, i) => ({ node, x, y: ((i + 1) * height) / (nodes.length + 1) }));
  const left = column(refs, 90);
  const right = column(citing, width - 90);
  const centre = { x: width / 2, y: height / 2 };
  const dot = (p, kind) =>
    h(
      Link,
      { key: `${kind}-${p.node.id}`, to: { view: 'paper', id: p.node.id } },
      h(
        'circle',
        { cx: p.x, cy: p.y, r: 6, className: kind },
        h('title', null, `${p.node.title ?? p.node.id}${p.node.year ? ` (${p.node.year})` : ''}`),
      ),
    );
  return h(
    'figure',
    { className: 'neighbourhood' },
    h(
      'svg',
      {
        viewBox: `0 0 ${width} ${height}`,
        role: 'img',
        'aria-label': `${refs.length} references and ${citing.length} citing papers`,
      },
      [...left, ...right].map((p) =>
        h('line', { key: `l-${p.node.id}-${p.x}`, x1: centre.x, y1: centre.y, x2: p.x, y2: p.y }),
      ),
      left.map((p) => dot(p, 'reference')),
      right.map((p) => dot(p, 'citing')),
      h('circle', { cx: centre.x, cy: centre.y, r: 10, className: 'focus' }),
      h('text', { x: 90, y: 14, textAnchor: 'middle' }, 'references'),
      h('text', { x: width - 90, y: 14, textAnchor: 'middle' }, 'cited by'),
    ),
    h(
      'figcaption',
      { className: 'muted' },
      'Citation neighbourhood: earlier work on the left, later work on the right.',
    ),
  );
}
