import { Client } from 'graphql-ws';
import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

interface RequestErrorCase {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  code: string;
  message: RegExp;
}

/** Requests a client can get wrong; each must be refused before anything executes. */
const refusals: RequestErrorCase[] = [
  {
    name: 'a string for an Int variable',
    query: 'query ($n: Int) { sessions(first: $n) { totalCount } }',
    variables: { n: 'ten' },
    code: 'BAD_USER_INPUT',
    message: /\$n.*Int/,
  },
  {
    name: '0 for a Boolean variable',
    query: 'query ($roots: Boolean) { sessions(rootsOnly: $roots) { totalCount } }',
    variables: { roots: 0 },
    code: 'BAD_USER_INPUT',
    message: /\$roots.*Boolean/,
  },
  {
    name: 'a missing required input',
    query: 'mutation ($input: CreateSessionInput!) { createSession(input: $input) { id } }',
    code: 'BAD_USER_INPUT',
    message: /\$input.*required/,
  },
  {
    name: 'an input field the type does not have',
    query: 'mutation ($input: CreateSessionInput!) { createSession(input: $input) { id } }',
    variables: { input: { title: 'x', owner: 'someone else' } },
    code: 'BAD_USER_INPUT',
    message: /"owner" is not defined/,
  },
  {
    name: 'more wrong values than graphql-js reports one by one',
    query: 'mutation ($input: UpdatePlanInput!) { updatePlan(input: $input) { __typename } }',
    variables: { input: { sessionId: 'x', steps: Array.from({ length: 60 }, () => 'not a step') } },
    code: 'BAD_USER_INPUT',
    message: /More than 50 variable values are invalid/,
  },
  {
    name: 'a page size variable above 100',
    query: 'query ($n: Int) { sessions(first: $n) { totalCount } }',
    variables: { n: 101 },
    code: 'INVALID_INPUT',
    message: /first must be between 0 and 100/,
  },
  {
    name: 'a literal page of 100,000 events',
    query: 'query { sessions(first: 1) { edges { node { events(first: 100000) { totalCount } } } } }',
    code: 'INVALID_INPUT',
    message: /first must be between 0 and 100/,
  },
  {
    name: 'a negative page of runs',
    query: 'query { sessions(first: 1) { edges { node { runs(last: -1) { id } } } } }',
    code: 'INVALID_INPUT',
    message: /last must be between 0 and 100/,
  },
  {
    name: 'an estimated cost too high',
    query: 'query { sessions(first: 100) { edges { node { events(first: 100) { edges { node { session { lineage { id } } } } } } } } }',
    code: 'QUERY_TOO_COMPLEX',
    message: /too complex/,
  },
  {
    name: 'a selection nested too deep',
    query: `query { sessions(first: 1) { edges { node { ${'predecessor { '.repeat(20)}id${' }'.repeat(20)} } } } }`,
    code: 'GRAPHQL_VALIDATION_FAILED',
    message: /depth limit of 15 exceeded, found 24/,
  },
  {
    name: 'a syntax error',
    query: 'query { sessions(first: 1) { totalCount }',
    code: 'GRAPHQL_PARSE_FAILED',
    message: /Syntax Error/,
  },
];

async function post(server: TestServer, client: GraphQLTestClient, accept: string, body: unknown) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${client.apiKey}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: (await response.json()) as { data?: unknown; errors: { message: string; extensions: { code: string } }[] } };
}

describe('request errors', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    // The clock stands still: the key, looked up once and then remembered, is neither read again
    // nor its last use written again a minute later, however slowly the suite runs.
    const started = new Date();
    server = await startTestServer({ clock: () => started });
    client = await server.newAccount('request-errors');
    await client.data('{ viewer { id } }');
  });
  beforeEach(() => server.settledQueryCount());
  afterAll(() => server.close());

  describe.each(refusals)('$name', ({ query, variables, code, message }) => {
    it(`is answered with 400 and ${code} in application/graphql-response+json, nothing executed`, async () => {
      const before = server.app.database.queryCount();
      const response = await post(server, client, GRAPHQL_RESPONSE, { query, variables });
      expect(response.status).toBe(400);
      expect(response.contentType).toMatch(GRAPHQL_RESPONSE);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) })]);
      expect(server.app.database.queryCount() - before).toBe(0);
    });

    it('is answered with the same error under a plain application/json Accept', async () => {
      const response = await post(server, client, 'application/json', { query, variables });
      expect([200, 400]).toContain(response.status);
      expect(response.contentType).toMatch('application/json');
      expect(response.body.errors[0].extensions.code).toBe(code);
    });

    it('is an error message on that subscription over WebSocket, the socket staying open', async () => {
      const ws = client.websocket();
      let connections = 0;
      let closes = 0;
      ws.on('connected', () => connections++);
      ws.on('closed', () => closes++);
      // A subscription that stays open keeps the (lazy) client's socket open between the requests.
      const listening = collect(ws, 'subscription { sessionContinued { successor { id } } }', {});
      try {
        const refused = collect(ws, query, variables ?? {});
        await refused.until(1);
        expect(refused.errors).toEqual([
          [expect.objectContaining({ message: expect.stringMatching(message), extensions: expect.objectContaining({ code }) })],
        ]);

        const answered = collect<{ viewer: { name: string } }>(ws, '{ viewer { name } }', {});
        await answered.until(1);
        expect(answered.values).toEqual([{ viewer: { name: 'request-errors' } }]);
        expect({ connections, closes }).toEqual({ connections: 1, closes: 0 });
        expect(listening.errors).toEqual([]);
      } finally {
        listening.unsubscribe();
        await ws.dispose();
      }
    });
  });

  it('never answers a request error with a stack trace, also over WebSocket', async () => {
    const ws: Client = client.websocket();
    try {
      for (const { query, variables } of refusals) {
        const response = await post(server, client, GRAPHQL_RESPONSE, { query, variables });
        expect(JSON.stringify(response.body)).not.toMatch(/stacktrace|\n\s+at /);
        const refused = collect(ws, query, variables ?? {});
        await refused.until(1);
        expect(JSON.stringify(refused.errors)).not.toMatch(/stacktrace|\n\s+at /);
      }
    } finally {
      await ws.dispose();
    }
  });
});
