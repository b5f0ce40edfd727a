/** POSTs a GraphQL request to a test server and returns the parsed body ({data, errors}). */
export async function postGraphql(url: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}
