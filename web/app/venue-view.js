// The venue view: a journal's (or repository's) record, its papers per year and its most cited papers in the graph.
import React from 'react';
import { useQuery } from './data.js';
import { Exports, PaperLink, Status } from './shared.js';

const h = React.createElement;

const citations = (n) => `${n} citation${n === 1 ? '' : 's'}`;

const VENUE = `query Venue($id: ID!, $filter: WorkFilter) {
  venue(id: $id) { papers venue { id name issnL issn type publisher } }
  years: groupBy(field: YEAR, filter: $filter, order: KEY, first: 200) { groups { key count } }
  top: topPapers(filter: $filter, by: INTERNAL_CITATIONS, first: 15) {
    edges { node { internalCitations globalCitations paper { id title year } } }
  }
}`;

/** Papers per year as a row of bars, one per year from the first to the last. */
function YearBars({ groups }) {
  const counts = new Map(groups.map((g) => [Number(g.key), g.count]));
  const years = [...counts.keys()];
  if (years.length === 0) return null;
  const [first, last] = [Math.min(...years), Math.max(...years)];
  const span = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const max = Math.max(...counts.values());
  const [width, height] = [760, 160];
  const step = (width - 40) / span.length;
  const bar = Math.max(2, step * 0.75);
  return h(
    'figure',
    { className: 'chart' },
    h(
      'svg',
      { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `papers per year, ${first}–${last}` },
      span.map((year, i) => {
        const count = counts.get(year) ?? 0;
        const tall = (count / max) * (height - 40);
        return h(
          'g',
          { key: year, className: 'year-bar' },
          h(
            'rect',
            { x: 20 + i * step, y: height - 20 - tall, width: bar, height: tall, className: 'bar' },
            h('title', null, `${year}: ${count}`),
          ),
          i % 5 === 0 || year === last
            ? h('text', { x: 20 + i * step + bar / 2, y: height - 6, textAnchor: 'middle' }, year)
            : null,
        );
      }),
    ),
    h('figcaption', { className: 'muted' }, 'Papers per year in the graph.'),
  );
}

export function VenueView({ params }) {
  const filter = { venues: [params.id] };
  const state = useQuery(VENUE, { id: params.id, filter }, params.id, !!params.id);
  if (!params.id) return null;
  if (!state.data) return h(Status, { state });
  const found = state.data.venue;
  if (!found) return h('p', { className: 'error', role: 'alert' }, `No venue ${params.id} in the graph.`);
  const { venue } = found;
  return h(
    'article',
    { className: 'venue' },
    h('h1', null, venue.name ?? venue.id),
    h(
      'p',
      { className: 'meta' },
      [venue.type, venue.publisher, venue.issnL ? `ISSN-L ${venue.issnL}` : null, `${found.papers} papers in the graph`]
        .filter(Boolean)
        .join(' · '),
    ),
    h(YearBars, { groups: state.data.years.groups }),
    h('h2', null, 'Most cited in the graph'),
    h(
      'ol',
      { className: 'papers' },
      state.data.top.edges.map(({ node }) =>
        h(
          'li',
          { key: node.paper.id },
          h(PaperLink, { paper: node.paper }),
          node.paper.year ? ` (${node.paper.year})` : '',
          h(
            'span',
            { className: 'muted' },
            ` · ${citations(node.internalCitations)} in the graph, ${node.globalCitations} in all`,
          ),
        ),
      ),
    ),
    h(Exports, { ids: state.data.top.edges.map(({ node }) => node.paper.id), label: 'Export these papers' }),
  );
}
