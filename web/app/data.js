// GraphQL over fetch, the API key the reader typed, and a hook that runs a query.
import { useEffect, useState } from 'react';

/** The API key the reader typed (kept in this browser only), sent as a bearer token. */
export function apiKey() {
  return window.localStorage.getItem('citegraph-api-key') ?? '';
}

/** Runs a GraphQL operation: its data and the response's warnings; rejects with the errors' messages. */
export async function gql(query, variables = {}) {
  const headers = { 'content-type': 'application/json' };
  if (apiKey()) headers.authorization = `Bearer ${apiKey()}`;
  const response = await fetch('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors.map((e) => e.message).join('; '));
  return { data: body.data, warnings: body.extensions?.warnings ?? [] };
}

/** A query's data, warnings (a capped list, a lookup that found nothing), loading flag and error, run again when `key` changes. */
// The effect runs again only when `key` (the caller's summary of the variables) or `enabled` changes.
export function useQuery(query, variables, key, enabled = true) {
  const [state, setState] = useState({ data: null, warnings: [], error: null, loading: enabled });
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    setState({ data: null, warnings: [], error: null, loading: true });
    gql(query, variables).then(
      ({ data, warnings }) => live && setState({ data, warnings, error: null, loading: false }),
      (error) => live && setState({ data: null, warnings: [], error: error.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [key, enabled]);
  return state;
}
