/** GraphQL over HTTP with an API key, as any third-party client speaks it. */
export class GraphQLClient {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  /** The data of a response that must have no errors. */
  async data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const response = await fetch(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.apiKey}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown[] };
    if (body.errors?.length || !body.data) {
      throw new Error(`GraphQL request failed (HTTP ${response.status}): ${JSON.stringify(body.errors)}`);
    }
    return body.data;
  }
}
