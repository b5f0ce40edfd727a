// The citegraph web page: search, ask, papers, authors, trends and the collaboration network over the service's own
// GraphQL API. React 18 without JSX, bundled by scripts/build-web.js; the state of every view is in the URL, so a link
// can be shared. Nothing is loaded from outside the service.
import React, { useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createClient } from 'graphql-sse';
import './app.css';

const h = React.createElement;

// --- data ----------------------------------------------------------------------------------------------------------

/** The API key the reader typed (kept in this browser only), sent as a bearer token. */
function apiKey() {
  return window.localStorage.getItem('citegraph-api-key') ?? '';
}

/** Runs a GraphQL operation; rejects with the first error's message. */
async function gql(query, variables = {}) {
  const headers = { 'content-type': 'application/json' };
  if (apiKey()) headers.authorization = `Bearer ${apiKey()}`;
  const response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return body.data;
}

/** A query's data, loading flag and error, run again when `key` changes. */
// The effect runs again only when `key` (the caller's summary of the variables) or `enabled` changes.
function useQuery(query, variables, key, enabled = true) {
  const [state, setState] = useState({ data: null, error: null, loading: enabled });
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    setState({ data: null, error: null, loading: true });
    gql(query, variables).then(
      (data) => live && setState({ data, error: null, loading: false }),
      (error) => live && setState({ data: null, error: error.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, enabled]);
  return state;
}

// --- routing: the view and its state live in the query string ------------------------------------------------------

function currentParams() {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

function href(params) {
  const query = new URLSearchParams(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  );
  return `/?${query.toString()}`;
}

function navigate(params) {
  window.history.pushState(null, '', href(params));
  window.dispatchEvent(new Event('citegraph:navigate'));
}

/** A form's submit handler: the view it asks for becomes the page's state (and the URL). */
function submitTo(params) {
  return (event) => {
    event.preventDefault();
    navigate(params);
  };
}

/** A link inside the page (a plain link for a new tab, the page's own navigation for a click). */
function Link({ to, children, ...rest }) {
  return h(
    'a',
    {
      href: href(to),
      onClick: (event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      },
      ...rest,
    },
    children,
  );
}

// --- shared pieces -------------------------------------------------------------------------------------------------

function Status({ state }) {
  if (state.loading) return h('p', { className: 'status', role: 'status' }, 'Loading…');
  if (state.error) return h('p', { className: 'error', role: 'alert' }, state.error);
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
function DownloadLinks({ label, path, query, formats }) {
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

const NETWORK_FORMATS = [
  ['graphml', 'GraphML'],
  ['gexf', 'GEXF'],
  ['vosviewer_map', 'VOSviewer map'],
  ['vosviewer_network', 'VOSviewer network'],
  ['csv', 'CSV edges'],
];

/** Download links of a paper list in every bibliography format. */
function Exports({ ids, collection, label }) {
  if (!ids?.length && !collection) return null;
  const query = ids?.length
    ? `ids=${ids.map(encodeURIComponent).join(',')}`
    : `collection=${encodeURIComponent(collection)}`;
  return h(DownloadLinks, { label: label ?? 'Export', path: '/export/papers', query, formats: FORMATS });
}

function PaperLink({ paper }) {
  return h(Link, { to: { view: 'paper', id: paper.id } }, paper.title ?? paper.id);
}

function Field({ label, name, value, onChange, ...rest }) {
  return h(
    'label',
    { className: 'field' },
    h('span', null, label),
    h('input', { name, value: value ?? '', onChange: (e) => onChange(e.target.value), ...rest }),
  );
}

function PaperList({ items, empty }) {
  if (!items?.length) return h('p', { className: 'muted' }, empty ?? 'None in the graph.');
  return h(
    'ol',
    { className: 'papers' },
    items.map((item) =>
      h(
        'li',
        { key: item.node.id },
        item.node.stub
          ? h('span', { className: 'muted' }, `${item.node.id} (known only as a reference)`)
          : h(PaperLink, { paper: item.node }),
        item.node.year ? ` (${item.node.year})` : '',
        item.count !== undefined ? h('span', { className: 'muted' }, ` · ${item.count} shared`) : null,
      ),
    ),
  );
}

// --- search --------------------------------------------------------------------------------------------------------

const SEARCH = `query Search($q: String!, $first: Int, $filter: WorkFilter) {
  search(query: $q, first: $first, filter: $filter) {
    results { rank score paper { id title year venue { name } }
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

function SearchView({ params }) {
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

// --- ask -----------------------------------------------------------------------------------------------------------

const RESULT_FIELDS = `answer abstained abstentionReason route routeReasons generator sourceNote
    plan { operation topic person paper yearFrom yearTo reason }
    sentences { text citations { marker quote field start end chunkId paper { id title year } } }
    bibliography { marker paper { id title year } doiUrl }
    sufficiency { score band overruled dimensions { name score weight reason } }
    trace { stage ms note }`;

/** The answer streamed over SSE: an event per finished stage, then the result (src/api/resolvers/stream.ts). */
const ASK_STREAM = `subscription AskStream($question: String!, $options: AskOptionsInput) {
  askStream(question: $question, options: $options) {
    kind stage ms note route sufficiency { score band }
    result { ${RESULT_FIELDS} }
  }
}`;

/** Runs the streamed ask while the view is shown; leaving the view disconnects, which stops the work. */
function useAskStream(question, options, key) {
  const [state, setState] = useState({ events: [], result: null, error: null });
  useEffect(() => {
    if (!question) return undefined;
    const headers = apiKey() ? { authorization: `Bearer ${apiKey()}` } : {};
    const client = createClient({ url: '/graphql/stream', headers, retryAttempts: 0 });
    setState({ events: [], result: null, error: null });
    const dispose = client.subscribe(
      { query: ASK_STREAM, variables: { question, options } },
      {
        next: (message) => {
          if (message.errors?.length) {
            setState((s) => ({ ...s, error: message.errors.map((e) => e.message).join('; ') }));
            return;
          }
          const event = message.data.askStream;
          setState((s) =>
            event.kind === 'RESULT' ? { ...s, result: event.result } : { ...s, events: [...s.events, event] },
          );
        },
        error: (error) => setState((s) => ({ ...s, error: String(error?.message ?? error) })),
        complete: () => undefined,
      },
    );
    return () => {
      dispose();
      client.dispose();
    };
  }, [key]);
  return state;
}

/** The stages that have finished so far, while the answer is worked out. */
function Progress({ events }) {
  const stages = events.filter((e) => e.kind === 'STAGE');
  const route = events.find((e) => e.kind === 'ROUTE');
  const evidence = [...events].reverse().find((e) => e.kind === 'SUFFICIENCY');
  return h(
    'div',
    { className: 'progress', role: 'status', 'aria-live': 'polite' },
    h(
      'p',
      null,
      'Working… ',
      route ? `route ${route.route}` : '',
      evidence ? ` · evidence ${evidence.sufficiency.score} (${evidence.sufficiency.band})` : '',
    ),
    h(
      'ol',
      { className: 'stages-live' },
      stages.map((e, i) => h('li', { key: i }, `${e.stage} ${e.ms.toFixed(0)} ms${e.note ? ` — ${e.note}` : ''}`)),
    ),
  );
}

function citationLink(citation) {
  return {
    view: 'paper',
    id: citation.paper.id,
    field: citation.field,
    start: citation.start,
    end: citation.end,
  };
}

function AskView({ params }) {
  const [question, setQuestion] = useState(params.question ?? '');
  const [collection, setCollection] = useState(params.collection ?? '');
  const options = {
    externalSearch: params.external === 'on',
    ...(params.collection ? { collections: [params.collection] } : {}),
  };
  const state = useAskStream(params.question ?? '', options, JSON.stringify([params.question, params.collection]));
  const result = state.result;
  return h(
    'section',
    { 'aria-labelledby': 'ask-title' },
    h('h1', { id: 'ask-title' }, 'Ask a question'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({ view: 'ask', question, collection }),
      },
      h(
        'label',
        { className: 'field wide' },
        h('span', null, 'Question'),
        h('textarea', {
          name: 'question',
          rows: 2,
          value: question,
          onChange: (e) => setQuestion(e.target.value),
          required: true,
          autoFocus: true,
        }),
      ),
      h(Field, { label: 'Collection', name: 'collection', value: collection, onChange: setCollection }),
      h('button', { type: 'submit' }, 'Ask'),
    ),
    state.error ? h('p', { className: 'error', role: 'alert' }, state.error) : null,
    params.question && !result && !state.error ? h(Progress, { events: state.events }) : null,
    result ? h(AnswerView, { result }) : null,
  );
}

function AnswerView({ result }) {
  const markers = new Map();
  for (const s of result.sentences) for (const c of s.citations) if (!markers.has(c.marker)) markers.set(c.marker, c);
  return h(
    'article',
    { className: 'answer' },
    h(
      'p',
      { className: 'route' },
      `Route: ${result.route}`,
      result.plan
        ? ` · plan: ${result.plan.operation}${result.plan.topic ? ` of “${result.plan.topic}”` : ''}${result.plan.person ? ` for ${result.plan.person}` : ''}`
        : '',
      ` · generator: ${result.generator}`,
    ),
    result.abstained
      ? h(
          'div',
          { className: 'abstained', role: 'note' },
          h('h2', null, 'No answer: the evidence is not sufficient'),
          h('p', null, result.abstentionReason),
        )
      : h(
          'div',
          { className: 'answer-text' },
          h('h2', null, 'Answer'),
          h(
            'p',
            null,
            result.sentences.map((s, i) =>
              h(
                React.Fragment,
                { key: i },
                s.text.replace(/\s*(\[\d+\])+\s*$/, ''),
                ' ',
                s.citations.map((c) =>
                  h(
                    Link,
                    { key: `${i}-${c.marker}-${c.start}`, to: citationLink(c), className: 'marker', title: c.quote },
                    `[${c.marker}]`,
                  ),
                ),
                ' ',
              ),
            ),
          ),
          result.sourceNote ? h('p', { className: 'muted' }, result.sourceNote) : null,
        ),
    markers.size
      ? h(
          'div',
          null,
          h('h2', null, 'Citations'),
          h(
            'ol',
            { className: 'citations' },
            [...markers.values()].map((c) =>
              h(
                'li',
                { key: c.marker, value: c.marker },
                h(Link, { to: citationLink(c) }, c.paper.title ?? c.paper.id),
                c.paper.year ? ` (${c.paper.year})` : '',
                h('blockquote', null, `“${c.quote}”`),
                h('span', { className: 'muted' }, `${c.field} ${c.start}–${c.end}`),
              ),
            ),
          ),
          h(Exports, { ids: result.bibliography.map((b) => b.paper.id), label: 'Export the bibliography' }),
        )
      : null,
    h('h2', null, 'Sufficiency'),
    h(
      'p',
      null,
      `${result.sufficiency.score} (${result.sufficiency.band})`,
      result.sufficiency.overruled ? h('span', { className: 'overruled' }, ` — ${result.sufficiency.overruled}`) : null,
    ),
    h(
      'table',
      { className: 'dimensions' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', null, 'dimension'),
          h('th', null, 'score'),
          h('th', null, 'weight'),
          h('th', null, 'reason'),
        ),
      ),
      h(
        'tbody',
        null,
        result.sufficiency.dimensions.map((d) =>
          h(
            'tr',
            { key: d.name },
            h('td', null, d.name),
            h('td', null, d.score),
            h('td', null, d.weight),
            h('td', null, d.reason),
          ),
        ),
      ),
    ),
    h('h2', null, 'Route and stages'),
    h(
      'ul',
      null,
      result.routeReasons.map((r, i) => h('li', { key: i }, r)),
    ),
    h(
      'table',
      { className: 'stages' },
      h('thead', null, h('tr', null, h('th', null, 'stage'), h('th', null, 'ms'), h('th', null, 'note'))),
      h(
        'tbody',
        null,
        result.trace.map((t, i) =>
          h('tr', { key: i }, h('td', null, t.stage), h('td', null, t.ms.toFixed(1)), h('td', null, t.note)),
        ),
      ),
    ),
  );
}

// --- paper ---------------------------------------------------------------------------------------------------------

const PAPER = `query Paper($id: ID!, $withText: Boolean!) {
  paper(id: $id) {
    id doi doiUrl title abstract year type citedByCount internalCitationCount stub collections
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

function PaperView({ params }) {
  const withText = params.field === 'text';
  const state = useQuery(PAPER, { id: params.id, withText }, `${params.id}|${withText}`);
  const paper = state.data?.paper;
  const start = params.start === undefined ? undefined : Number(params.start);
  const end = params.end === undefined ? undefined : Number(params.end);
  useEffect(() => {
    document.getElementById('quoted')?.scrollIntoView({ block: 'center' });
    document.getElementById('quoted')?.focus();
  }, [paper]);
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
      [paper.year, paper.venue?.name, paper.type].filter(Boolean).join(' · '),
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

// --- author --------------------------------------------------------------------------------------------------------

const AUTHOR = `query Author($id: ID!) {
  author(id: $id) {
    id name orcid paperCount institutions { name }
    metrics { works hIndexInternal hIndexGlobal citationsInternal citationsGlobal firstYear lastYear }
    mainTopics(first: 8) { papers topic { id name } }
    coauthors(first: 15) { edges { jointPapers node { id name } } }
    works(first: 30) { edges { node { id title year stub } } }
  }
}`;

function AuthorView({ params }) {
  const state = useQuery(AUTHOR, { id: params.id }, params.id);
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

// --- trends --------------------------------------------------------------------------------------------------------

const TRENDS = `query Trends($topics: [ID!], $query: String, $from: Int!, $to: Int!, $filter: WorkFilter) {
  trends(topics: $topics, query: $query, from: $from, to: $to, filter: $filter) {
    series { key total cagr topic { id name } points { year count } }
  }
}`;

const COLOURS = ['#1f6fb2', '#c0392b', '#27864a', '#8e44ad', '#b9770e', '#117a8b'];

function LineChart({ series }) {
  const width = 760;
  const height = 300;
  const pad = 40;
  const years = series[0]?.points.map((p) => p.year) ?? [];
  const max = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.count)));
  const x = (year) => pad + ((year - years[0]) / Math.max(1, years[years.length - 1] - years[0])) * (width - 2 * pad);
  const y = (count) => height - pad - (count / max) * (height - 2 * pad);
  return h(
    'figure',
    { className: 'chart' },
    h(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `papers per year, ${series.length} series` },
      h('line', { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, className: 'axis' }),
      h('line', { x1: pad, y1: pad, x2: pad, y2: height - pad, className: 'axis' }),
      h('text', { x: pad - 6, y: pad + 4, textAnchor: 'end' }, max),
      h('text', { x: pad - 6, y: height - pad, textAnchor: 'end' }, 0),
      years.length ? h('text', { x: pad, y: height - pad + 18, textAnchor: 'middle' }, years[0]) : null,
      years.length
        ? h('text', { x: width - pad, y: height - pad + 18, textAnchor: 'middle' }, years[years.length - 1])
        : null,
      series.map((s, i) =>
        h('polyline', {
          key: s.key,
          className: 'series',
          fill: 'none',
          stroke: COLOURS[i % COLOURS.length],
          points: s.points.map((p) => `${x(p.year).toFixed(1)},${y(p.count).toFixed(1)}`).join(' '),
        }),
      ),
    ),
    h(
      'figcaption',
      null,
      series.map((s, i) =>
        h(
          'span',
          { key: s.key, className: 'legend' },
          h('span', { className: 'swatch', style: { background: COLOURS[i % COLOURS.length] } }),
          `${s.topic?.name ?? s.key}: ${s.total} papers${s.cagr === null || s.cagr === undefined ? '' : `, growth ${(100 * s.cagr).toFixed(1)}%/year`}`,
        ),
      ),
    ),
  );
}

function TrendsView({ params }) {
  const [form, setForm] = useState({
    topics: params.topics ?? '',
    q: params.q ?? '',
    from: params.from ?? '1990',
    to: params.to ?? '2022',
    collection: params.collection ?? '',
  });
  const set = (name) => (value) => setForm({ ...form, [name]: value });
  const topics = (params.topics ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const enabled = topics.length > 0 || !!params.q;
  const variables = {
    topics: topics.length ? topics : null,
    query: params.q || null,
    from: Number(params.from ?? 1990),
    to: Number(params.to ?? 2022),
    filter: params.collection ? { collections: [params.collection] } : null,
  };
  const state = useQuery(TRENDS, variables, JSON.stringify(variables), enabled);
  return h(
    'section',
    { 'aria-labelledby': 'trends-title' },
    h('h1', { id: 'trends-title' }, 'Topic trends'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({ view: 'trends', ...form }),
      },
      h(Field, {
        label: 'Topic ids (comma-separated)',
        name: 'topics',
        value: form.topics,
        onChange: set('topics'),
        size: 30,
      }),
      h(Field, { label: 'or a query', name: 'q', value: form.q, onChange: set('q') }),
      h(Field, { label: 'From', name: 'from', value: form.from, onChange: set('from'), type: 'number' }),
      h(Field, { label: 'To', name: 'to', value: form.to, onChange: set('to'), type: 'number' }),
      h(Field, { label: 'Collection', name: 'collection', value: form.collection, onChange: set('collection') }),
      h('button', { type: 'submit' }, 'Show'),
    ),
    enabled
      ? h(Status, { state })
      : h('p', { className: 'muted' }, 'Give topic ids (e.g. C2777164284) to compare, or a query.'),
    state.data ? h(LineChart, { series: state.data.trends.series }) : null,
  );
}

// --- collaboration network -----------------------------------------------------------------------------------------

const NETWORK = `query Network($filter: WorkFilter, $limit: Int) {
  collaborationNetwork(filter: $filter, limit: $limit, minJointPapers: 1) {
    nodes { id name papers } edges { source target jointPapers }
  }
}`;

/** Positions by a few hundred steps of a seeded force layout (repulsion, springs along edges, pull to the centre). */
function layout(nodes, edges, width, height) {
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const pos = new Map(
    nodes.map((n) => [
      n.id,
      { x: width / 2 + (random() - 0.5) * width * 0.8, y: height / 2 + (random() - 0.5) * height * 0.8 },
    ]),
  );
  for (let step = 0; step < 300; step += 1) {
    const force = new Map(nodes.map((n) => [n.id, { x: 0, y: 0 }]));
    for (const a of nodes) {
      for (const b of nodes) {
        if (a.id >= b.id) continue;
        const pa = pos.get(a.id);
        const pb = pos.get(b.id);
        const dx = pa.x - pb.x || 0.01;
        const dy = pa.y - pb.y || 0.01;
        const d2 = Math.max(dx * dx + dy * dy, 25);
        const push = 1800 / d2;
        force.get(a.id).x += dx * push;
        force.get(a.id).y += dy * push;
        force.get(b.id).x -= dx * push;
        force.get(b.id).y -= dy * push;
      }
    }
    for (const e of edges) {
      const pa = pos.get(e.source);
      const pb = pos.get(e.target);
      if (!pa || !pb) continue;
      const dx = pb.x - pa.x;
      const dy = pb.y - pa.y;
      force.get(e.source).x += dx * 0.02;
      force.get(e.source).y += dy * 0.02;
      force.get(e.target).x -= dx * 0.02;
      force.get(e.target).y -= dy * 0.02;
    }
    for (const n of nodes) {
      const p = pos.get(n.id);
      const f = force.get(n.id);
      p.x = Math.min(width - 20, Math.max(20, p.x + Math.max(-10, Math.min(10, f.x + (width / 2 - p.x) * 0.01))));
      p.y = Math.min(height - 20, Math.max(20, p.y + Math.max(-10, Math.min(10, f.y + (height / 2 - p.y) * 0.01))));
    }
  }
  return pos;
}

function NetworkView({ params }) {
  const [collection, setCollection] = useState(params.collection ?? '');
  const variables = { filter: params.collection ? { collections: [params.collection] } : null, limit: 40 };
  const state = useQuery(NETWORK, variables, params.collection ?? '');
  const network = state.data?.collaborationNetwork;
  const width = 900;
  const height = 560;
  const pos = useMemo(() => (network ? layout(network.nodes, network.edges, width, height) : null), [network]);
  return h(
    'section',
    { 'aria-labelledby': 'network-title' },
    h('h1', { id: 'network-title' }, 'Collaboration network'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({ view: 'network', collection }),
      },
      h(Field, { label: 'Collection', name: 'collection', value: collection, onChange: setCollection }),
      h('button', { type: 'submit' }, 'Show'),
    ),
    h(Status, { state }),
    network && pos
      ? h(
          'figure',
          { className: 'network' },
          h(
            'svg',
            {
              viewBox: `0 0 ${width} ${height}`,
              role: 'img',
              'aria-label': `${network.nodes.length} authors, ${network.edges.length} collaborations`,
            },
            network.edges.map((e) => {
              const a = pos.get(e.source);
              const b = pos.get(e.target);
              return a && b
                ? h('line', {
                    key: `${e.source}-${e.target}`,
                    x1: a.x,
                    y1: a.y,
                    x2: b.x,
                    y2: b.y,
                    strokeWidth: Math.min(6, e.jointPapers),
                  })
                : null;
            }),
            network.nodes.map((n) => {
              const p = pos.get(n.id);
              return h(
                Link,
                { key: n.id, to: { view: 'author', id: n.id } },
                h(
                  'circle',
                  { cx: p.x, cy: p.y, r: 4 + Math.sqrt(n.papers) * 2 },
                  h('title', null, `${n.name}: ${n.papers} papers`),
                ),
                h('text', { x: p.x + 8, y: p.y + 4 }, n.name),
              );
            }),
          ),
          h(
            'figcaption',
            { className: 'muted' },
            `${network.nodes.length} most productive authors; lines join co-authors (thicker: more joint papers).`,
          ),
          h(DownloadLinks, {
            label: 'Download the co-authorship network',
            path: '/export/network',
            query: `network=coauthorship&maxNodes=40${params.collection ? `&collection=${encodeURIComponent(params.collection)}` : ''}`,
            formats: NETWORK_FORMATS,
          }),
        )
      : null,
  );
}

// --- the page ------------------------------------------------------------------------------------------------------

const VIEWS = {
  search: SearchView,
  ask: AskView,
  paper: PaperView,
  author: AuthorView,
  trends: TrendsView,
  network: NetworkView,
};

function App() {
  const [params, setParams] = useState(currentParams());
  const [key, setKey] = useState(apiKey());
  useEffect(() => {
    const update = () => setParams(currentParams());
    window.addEventListener('popstate', update);
    window.addEventListener('citegraph:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('citegraph:navigate', update);
    };
  }, []);
  const view = VIEWS[params.view] ? params.view : 'search';
  const View = VIEWS[view];
  const tab = (name, label) =>
    h(Link, { to: { view: name }, 'aria-current': view === name ? 'page' : undefined }, label);
  return h(
    React.Fragment,
    null,
    h(
      'header',
      null,
      h('a', { href: '/', className: 'brand' }, 'citegraph'),
      h(
        'nav',
        { 'aria-label': 'views' },
        tab('search', 'Search'),
        tab('ask', 'Ask'),
        tab('trends', 'Trends'),
        tab('network', 'Network'),
        h('a', { href: '/graphql' }, 'GraphQL explorer'),
      ),
      h(
        'label',
        { className: 'key' },
        h('span', null, 'API key'),
        h('input', {
          type: 'password',
          value: key,
          placeholder: 'none',
          onChange: (e) => {
            setKey(e.target.value);
            window.localStorage.setItem('citegraph-api-key', e.target.value);
          },
        }),
      ),
    ),
    h('main', { id: 'main' }, h(View, { key: JSON.stringify(params), params })),
  );
}

createRoot(document.getElementById('app')).render(h(App));
