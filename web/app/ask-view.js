// The ask view: a question answered over SSE as stages finish, then the answer with its verified citations.
import React, { useEffect, useState } from 'react';
import { createClient } from 'graphql-sse';
import { apiKey } from './data.js';
import { Link, submitTo } from './routing.js';
import { Exports, Field } from './shared.js';

const h = React.createElement;

const RESULT_FIELDS = `answer abstained abstentionReason route routeReasons generator sourceNote
    plan { operation topic person paper yearFrom yearTo reason }
    sentences { text citations { marker quote field start end chunkId paper { id title year } } }
    bibliography { marker paper { id title year } doiUrl }
    sufficiency { score band overruled dimensions { name score weight reason } }
    externalSearches { query source portfolio found kept keptIds error }
    trace { stage ms note }`;

/** The answer streamed over SSE: an event per finished stage, then the result (src/api/resolvers/stream.ts). */
const ASK_STREAM = `subscription AskStream($question: String!, $options: AskOptionsInput) {
  askStream(question: $question, options: $options) {
    kind stage ms note route sufficiency { score band }
    result { ${RESULT_FIELDS} }
  }
}`;

/** The external searches: each portfolio at each provider, the query as sent, and the papers it brought in. */
function ExternalSearches({ searches }) {
  return h(
    React.Fragment,
    null,
    h('h2', null, 'External searches'),
    h(
      'table',
      { className: 'external-searches' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['portfolio', 'provider', 'query sent', 'found', 'kept'].map((c) => h('th', { key: c }, c)),
        ),
      ),
      h(
        'tbody',
        null,
        searches.map((s, i) =>
          h(
            'tr',
            { key: i },
            h('td', null, s.portfolio),
            h('td', null, s.source),
            h('td', null, h('code', null, s.query)),
            h('td', null, s.error ? h('span', { className: 'overruled' }, s.error) : s.found),
            h(
              'td',
              null,
              s.kept,
              s.keptIds.map((id) => h(React.Fragment, { key: id }, ' ', h(Link, { to: { view: 'paper', id } }, id))),
            ),
          ),
        ),
      ),
    ),
  );
}

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

export function AskView({ params }) {
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
    result.externalSearches.length ? h(ExternalSearches, { searches: result.externalSearches }) : null,
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
