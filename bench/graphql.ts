import http from 'node:http';

/**
 * GraphQL over HTTP with an API key, as any third-party client speaks it. It uses `node:http`
 * with kept-alive connections, the lightest client at hand: the load generator shares the
 * machine's cores with the server it measures.
 */
export class GraphQLClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  private readonly endpoint: URL;

  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {
    this.endpoint = new URL('/graphql', baseUrl);
  }

  /** The data of a response that must have no errors. */
  async data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const { status, text } = await this.post(JSON.stringify({ query, variables }));
    const body = JSON.parse(text) as { data?: T; errors?: unknown[] };
    if (body.errors?.length || !body.data) {
      throw new Error(`GraphQL request failed (HTTP ${status}): ${JSON.stringify(body.errors)}`);
    }
    return body.data;
  }

  private post(payload: string, retried = false): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        this.endpoint,
        {
          method: 'POST',
          agent: this.agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            authorization: `Bearer ${this.apiKey}`,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        // The server closed a kept-alive connection as this request went out on it: nothing reached it.
        if (request.reusedSocket && error.code === 'ECONNRESET' && !retried) resolve(this.post(payload, true));
        else reject(error);
      });
      request.end(payload);
    });
  }

  /** Closes the kept-alive connections, so that the server can stop at once. */
  close(): void {
    this.agent.destroy();
  }
}
