// The GraphQL explorer served at /graphql to browsers: GraphiQL from npm, bundled by scripts/build-web.js, with the
// README's example queries as its first tabs. Nothing is loaded from outside the service.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import 'graphiql/graphiql.css';

const examples = JSON.parse(document.getElementById('citegraph-examples').textContent);
const fetcher = createGraphiQLFetcher({ url: window.location.pathname });

createRoot(document.getElementById('explorer')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultTabs: examples.map((query) => ({ query })),
    defaultEditorToolsVisibility: false,
  }),
);
