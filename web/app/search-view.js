// The search view: hybrid search with filters, results and their exports.
import React, { useState } from 'react';
import { useQuery } from './data.js';
import { submitTo } from './routing.js';
import { Exports, Field, PaperLink, Status } from './shared.js';

const h = React.createElement;

const SEARCH = `query Search($q: String!, $first: Int, $filter: WorkFilter) {
  search(query: $q, first: $first, filter: $filter) {
    results { rank score paper { id title year citedByCount internalCitationCount venue { name } authors { author { name } } }
      passages { text field start end }
      trace { sparse { rank } dense { rank } fusedRank finalScore moves { stage from to } } }
    trace { luceneQuery expansionTerms timings { stage ms } }
  }
}`;

function filterOf(params) {
  const filter = {};
  if (params.collection) filter.collections = [params.collection];
  if (params.from || params.to) {
    filter.years = {};
    if (params.from) filter.years.from = Number(params.from);
    if (params.to) filter.years.to = Number(params.to);
  }
  return Object.keys(filter).length ? filter : null;
}

/** "Grady D, Hulley SB, … · JAMA · 120 citations (14 in the graph)": who, where and how cited, for a result. */
function byline(paper) {
  const names = paper.authors.map((a) => a.author.name);
  const who = names.length > 3 ? `${names.slice(0, 3).join(', ')}, … (${names.length} authors)` : names.join(', ');
  const cited = `${paper.citedByCount ?? 0} citations (${paper.internalCitationCount} in the graph)`;
  return [who, paper.venue?.name, cited].filter(Boolean).join(' · ');
}

export function SearchView({ params }) {
  const [form, setForm] = useState({
    q: params.q ?? '',
    collection: params.collection,
    from: params.from,
    to: params.to,
  });
  const key = JSON.stringify([params.q, params.collection, params.from, params.to]);
  const state = useQuery(SEARCH, { q: params.q ?? '', first: 20, filter: filterOf(params) }, key, !!params.q);
  const set = (name) => (value) => setForm({ ...form, [name]: value });
  const results = state.data?.search.results ?? [];
  return h(
    'section',
    { 'aria-labelledby': 'search-title' },
    h('h1', { id: 'search-title' }, 'Search the literature'),
    h(
      'form',
      {
        className: 'query',
        role: 'search',
        onSubmit: submitTo({ view: 'search', ...form }),
      },
      h(Field, {
        label: 'Query',
        name: 'q',
        value: form.q,
        onChange: set('q'),
        autoFocus: true,
        required: true,
        size: 50,
      }),
      h(Field, { label: 'Collection', name: 'collection', value: form.collection, onChange: set('collection') }),
      h(Field, { label: 'From year', name: 'from', value: form.from, onChange: set('from'), type: 'number' }),
      h(Field, { label: 'To year', name: 'to', value: form.to, onChange: set('to'), type: 'number' }),
      h('button', { type: 'submit' }, 'Search'),
    ),
    params.q ? h(Status, { state }) : null,
    state.data
      ? h(
          React.Fragment,
          null,
          h(
            'p',
            { className: 'muted' },
            `${results.length} results · `,
            state.data.search.trace.timings.map((t) => `${t.stage} ${t.ms.toFixed(0)} ms`).join(', '),
          ),
          h(Exports, { ids: results.map((r) => r.paper.id), label: 'Export these results' }),
          h(
            'ol',
            { className: 'results' },
            results.map((r) =>
              h(
                'li',
                { key: r.paper.id, className: 'result' },
                h(
                  'div',
                  { className: 'title' },
                  h(PaperLink, { paper: r.paper }),
                  r.paper.year ? ` (${r.paper.year})` : '',
                ),
                h('p', { className: 'byline' }, byline(r.paper)),
                r.passages[0]
                  ? h(
                      'blockquote',
                      null,
                      r.passages[0].text.length > 320 ? `${r.passages[0].text.slice(0, 320)}…` : r.passages[0].text,
                    )
                  : null,
                h(
                  'p',
                  { className: 'trace' },
                  `score ${r.score.toFixed(4)} · BM25 ${r.trace.sparse ? `#${r.trace.sparse.rank}` : '–'} · dense ${
                    r.trace.dense ? `#${r.trace.dense.rank}` : '–'
                  } · fused #${r.trace.fusedRank}`,
                  r.trace.moves.length
                    ? ` · ${r.trace.moves.map((m) => `${m.stage} ${m.from}→${m.to}`).join(', ')}`
                    : '',
                ),
              ),
            ),
          ),
        )
      : null,
  );
}
