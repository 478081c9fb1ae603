/** One GraphQL operation over HTTP against a server running in another process; GraphQL errors are thrown. */
export async function graphqlOverHttp<T>(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`${query}: ${JSON.stringify(body.errors)}`);
  return body.data;
}
