/** POSTs a GraphQL request to a test server and returns the parsed body ({data, errors}). */
export async function postGraphql(url: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

/** POSTs a GraphQL request that must succeed: fails the test on any error and returns the data. */
export async function graphqlData<T>(url: string, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = (await postGraphql(url, query, variables)) as { data?: T; errors?: unknown[] };
  expect(response.errors).toBeUndefined();
  return response.data!;
}
