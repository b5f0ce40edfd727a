// The trends view: papers per year of topics or a query, as a line chart.
import React, { useState } from 'react';
import { useQuery } from './data.js';
import { NamePicker } from './lookup.js';
import { submitTo } from './routing.js';
import { Field, Status } from './shared.js';

const h = React.createElement;

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

export function TrendsView({ params }) {
  const topics = (params.topics ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const [form, setForm] = useState({
    q: params.q ?? '',
    from: params.from ?? '1990',
    to: params.to ?? '2022',
    collection: params.collection ?? '',
  });
  // The topics to compare, by id; their names come from the lookup or, for topics given in the URL, from the answer.
  const [chosen, setChosen] = useState(topics.map((id) => ({ id, name: null })));
  const set = (name) => (value) => setForm({ ...form, [name]: value });
  const enabled = topics.length > 0 || !!params.q;
  const variables = {
    topics: topics.length ? topics : null,
    query: params.q || null,
    from: Number(params.from ?? 1990),
    to: Number(params.to ?? 2022),
    filter: params.collection ? { collections: [params.collection] } : null,
  };
  const state = useQuery(TRENDS, variables, JSON.stringify(variables), enabled);
  const named = new Map(
    (state.data?.trends.series ?? []).filter((s) => s.topic).map((s) => [s.topic.id, s.topic.name]),
  );
  return h(
    'section',
    { 'aria-labelledby': 'trends-title' },
    h('h1', { id: 'trends-title' }, 'Topic trends'),
    h(
      'form',
      {
        className: 'query',
        onSubmit: submitTo({ view: 'trends', ...form, topics: chosen.map((t) => t.id).join(',') }),
      },
      h(NamePicker, {
        kind: 'topic',
        label: 'Add a topic',
        placeholder: 'a topic name, e.g. estrogen',
        onPick: (topic) => !chosen.some((t) => t.id === topic.id) && setChosen([...chosen, topic]),
      }),
      h(Field, { label: 'or a query', name: 'q', value: form.q, onChange: set('q') }),
      h(Field, { label: 'From', name: 'from', value: form.from, onChange: set('from'), type: 'number' }),
      h(Field, { label: 'To', name: 'to', value: form.to, onChange: set('to'), type: 'number' }),
      h(Field, { label: 'Collection', name: 'collection', value: form.collection, onChange: set('collection') }),
      h('button', { type: 'submit' }, 'Show'),
    ),
    chosen.length
      ? h(
          'ul',
          { className: 'chosen', 'aria-label': 'topics compared' },
          chosen.map((topic) =>
            h(
              'li',
              { key: topic.id },
              `${topic.name ?? named.get(topic.id) ?? topic.id} `,
              h('span', { className: 'muted' }, topic.id),
              h(
                'button',
                {
                  type: 'button',
                  className: 'link',
                  'aria-label': `remove ${topic.name ?? topic.id}`,
                  onClick: () => setChosen(chosen.filter((t) => t.id !== topic.id)),
                },
                '×',
              ),
            ),
          ),
        )
      : null,
    enabled
      ? h(Status, { state })
      : h('p', { className: 'muted' }, 'Add topics by name to compare them, or give a query.'),
    state.data ? h(LineChart, { series: state.data.trends.series }) : null,
  );
}
