// The GraphQL explorer served at /graphql to browsers: GraphiQL from npm, bundled by scripts/build-web.js, with the
// documentation's example queries (README and docs/) as its tabs. Nothing is loaded from outside the service.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher } from '@graphiql/toolkit';
import 'graphiql/graphiql.css';

const examples = JSON.parse(document.getElementById('citegraph-examples').textContent);
const send = createGraphiQLFetcher({ url: window.location.pathname });

/**
 * GraphiQL can send the operation name of the tab it just left: an operation name the query does not define is
 * replaced by the query's only operation (or dropped), so that a tab runs what it shows.
 */
function fetcher(params, options) {
  const names = [...(params.query ?? '').matchAll(/\b(?:query|mutation|subscription)\s+([A-Za-z_]\w*)/g)].map(
    (m) => m[1],
  );
  if (params.operationName && !names.includes(params.operationName)) {
    return send({ ...params, operationName: names.length === 1 ? names[0] : undefined }, options);
  }
  return send(params, options);
}

createRoot(document.getElementById('explorer')).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultTabs: examples.map((query) => ({ query })),
    defaultEditorToolsVisibility: false,
  }),
);
