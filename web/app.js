// The citegraph web page: search, ask, papers, authors, venues, trends, maps and reports over the service's own
// GraphQL API. React 18 without JSX, bundled by scripts/build-web.js; the state of every view is in the URL, so a link
// can be shared. Nothing is loaded from outside the service.
import React, { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AskView } from './app/ask-view.js';
import { AuthorView } from './app/author-view.js';
import { apiKey } from './app/data.js';
import { Finder } from './app/lookup.js';
import { NetworkView } from './app/network-view.js';
import { VenueView } from './app/venue-view.js';
import { PaperView } from './app/paper-view.js';
import { ReportView } from './app/report-view.js';
import { currentParams, Link } from './app/routing.js';
import { SearchView } from './app/search-view.js';
import { TrendsView } from './app/trends-view.js';
import './app.css';

const h = React.createElement;

/** The views that show one thing by id, with a finder by name above them. */
const FINDERS = {
  author: { kind: 'author', label: 'Find an author', placeholder: 'a name, e.g. Grady' },
  paper: { kind: 'paper', label: 'Find a paper', placeholder: 'words of its title' },
  venue: { kind: 'venue', label: 'Find a venue', placeholder: 'a journal, e.g. lancet' },
};

const VIEWS = {
  search: SearchView,
  ask: AskView,
  paper: PaperView,
  author: AuthorView,
  trends: TrendsView,
  network: NetworkView,
  venue: VenueView,
  report: ReportView,
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
        tab('network', 'Maps'),
        tab('venue', 'Venues'),
        tab('report', 'Reports'),
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
    h(
      'main',
      { id: 'main' },
      FINDERS[view] ? h(Finder, { key: `find-${view}`, ...FINDERS[view] }) : null,
      h(View, { key: JSON.stringify(params), params }),
    ),
  );
}

createRoot(document.getElementById('app')).render(h(App));
