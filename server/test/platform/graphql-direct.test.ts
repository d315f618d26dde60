import { createKey } from '../helpers/api-keys';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

/** What Accept headers clients send by default: none (curl, fetch), urql's, Apollo Client's. */
const URQL_ACCEPT = 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed';
const APOLLO_CLIENT_ACCEPT = 'application/graphql-response+json,application/json;q=0.9';

interface Case {
  name: string;
  body: { query: string; variables?: Record<string, unknown>; operationName?: string; extensions?: Record<string, unknown> };
  accept?: string;
  /** Which key asks: the account's own (default), a READ key, or none. */
  key?: 'owner' | 'reader' | 'none';
}

const cases: Case[] = [
  { name: 'a query', body: { query: '{ viewer { id name } }' } },
  { name: 'a query from urql', body: { query: '{ viewer { id name } }' }, accept: URQL_ACCEPT },
  {
    name: 'a query from Apollo Client',
    body: { query: '{ viewer { id name } }', extensions: { clientLibrary: { name: '@apollo/client', version: '4.3.8' } } },
    accept: APOLLO_CLIENT_ACCEPT,
  },
  { name: 'a query with variables', body: { query: 'query ($n: Int) { sessions(first: $n) { totalCount } }', variables: { n: 5 } } },
  {
    name: 'one named operation of two',
    body: { query: 'query Mine { viewer { name } } query Count { sessions { totalCount } }', operationName: 'Count' },
  },
  {
    name: 'a mutation answered by its error union',
    body: {
      query: 'mutation { postMessage(input: { sessionId: "00000000-0000-4000-8000-000000000000", text: "hello" }) { __typename ... on OperationError { code message } } }',
    },
  },
  { name: 'a field the key may not read, beside one it may', body: { query: '{ viewer { name } apiKeys { id } }' }, key: 'reader' },
  { name: 'a mutation the key may not run', body: { query: 'mutation { createSession(input: { title: "no" }) { id } }' }, key: 'reader', accept: URQL_ACCEPT },
  { name: 'text the database cannot store', body: { query: 'query ($url: String!) { resource(url: $url) { url } }', variables: { url: 'a\u0000b' } } },
  { name: 'a query of nothing there', body: { query: 'query ($url: String!) { resource(url: $url) { url } }', variables: { url: 'https://example.com/none' } } },
  { name: 'variables that do not coerce', body: { query: 'query ($n: Int) { sessions(first: $n) { totalCount } }', variables: { n: 'ten' } }, accept: URQL_ACCEPT },
  { name: 'an Accept header without JSON', body: { query: '{ viewer { id } }' }, accept: 'text/html' },
  { name: 'no key', body: { query: '{ viewer { id } }' }, key: 'none' },
  { name: 'a field the schema does not have', body: { query: '{ viewer { id shoeSize } }' } },
];

async function post(server: TestServer, apiKey: string | null, body: unknown, accept?: string) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}), ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type'), body: await response.text() };
}

describe('GraphQL over HTTP without Apollo Server in the way', () => {
  let server: TestServer;
  let keys: Record<NonNullable<Case['key']>, string | null>;

  beforeAll(async () => {
    server = await startTestServer();
    const owner = await server.newAccount('direct');
    const reader = await createKey(owner, { scopes: ['READ'] });
    keys = { owner: owner.apiKey, reader: reader.secret, none: null };
  });
  afterAll(() => server.close());

  // Apollo Server serves a request naming a persisted query (here none: null means there is none,
  // so it asks nothing else), the direct path everything it can: both must answer alike, byte for byte.
  it.each(cases)('answers $name exactly as Apollo Server does', async ({ body, accept, key = 'owner' }) => {
    const direct = await post(server, keys[key], body, accept);
    const apollo = await post(server, keys[key], { ...body, extensions: { ...body.extensions, persistedQuery: null } }, accept);
    expect(direct).toEqual(apollo);
  });

  it('answers the usual request with its data and nothing else', async () => {
    const client = new GraphQLTestClient(server.url, keys.owner);
    const answer = await post(server, client.apiKey, { query: '{ viewer { name } }' });
    expect(answer).toEqual({ status: 200, contentType: 'application/json; charset=utf-8', body: '{"data":{"viewer":{"name":"direct"}}}\n' });
  });
});
