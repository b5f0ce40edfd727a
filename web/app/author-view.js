// The author view: a person's metrics, works and co-authors.
import React from 'react';
import { useQuery } from './data.js';
import { Link } from './routing.js';
import { Exports, PaperList, Status } from './shared.js';

const h = React.createElement;

const AUTHOR = `query Author($id: ID!) {
  author(id: $id) {
    id name orcid paperCount institutions { name }
    metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
    mainTopics(first: 8) { papers topic { id name } }
    coauthors(first: 15) { edges { jointPapers node { id name } } }
    works(first: 30) { edges { node { id title year stub } } }
  }
}`;

export function AuthorView({ params }) {
  const state = useQuery(AUTHOR, { id: params.id }, params.id, !!params.id);
  if (!params.id) return null;
  const author = state.data?.author;
  if (!state.data) return h(Status, { state });
  if (!author) return h('p', { className: 'error', role: 'alert' }, `No author ${params.id} in the graph.`);
  const m = author.metrics;
  return h(
    'article',
    { className: 'author' },
    h('h1', null, author.name),
    h(
      'p',
      { className: 'meta' },
      [author.orcid, author.institutions.map((i) => i.name).join('; ')].filter(Boolean).join(' · '),
    ),
    h(
      'dl',
      { className: 'metrics' },
      [
        ['papers', m.works],
        ['h-index (graph)', m.hIndexInternal],
        ['h-index (all)', m.hIndexGlobal],
        ['citations (graph)', m.citationsInternal],
        ['citations (all)', m.citationsGlobal],
        ['active', m.firstYear ? `${m.firstYear}–${m.lastYear}` : '–'],
      ].map(([name, value]) => h('div', { key: name }, h('dt', null, name), h('dd', null, value))),
    ),
    h('h2', null, 'Topics'),
    h(
      'p',
      { className: 'topics' },
      author.mainTopics.map((t) => h('span', { key: t.topic.id, className: 'tag' }, `${t.topic.name} (${t.papers})`)),
    ),
    h(
      'div',
      { className: 'columns' },
      h(
        'div',
        null,
        h('h2', null, 'Co-authors'),
        h(
          'ol',
          null,
          author.coauthors.edges.map((e) =>
            h(
              'li',
              { key: e.node.id },
              h(Link, { to: { view: 'author', id: e.node.id } }, e.node.name),
              ` · ${e.jointPapers} joint`,
            ),
          ),
        ),
      ),
      h('div', null, h('h2', null, 'Works'), h(PaperList, { items: author.works.edges })),
    ),
    h(Exports, {
      ids: author.works.edges.filter((e) => !e.node.stub).map((e) => e.node.id),
      label: 'Export these works',
    }),
  );
}
