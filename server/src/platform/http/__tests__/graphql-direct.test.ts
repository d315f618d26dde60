import 'reflect-metadata';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphQLError, GraphQLInt, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import pino from 'pino';
import { directExecution } from '../graphql-direct';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      hello: { type: GraphQLString, resolve: () => 'world' },
      twice: { type: GraphQLInt, args: { n: { type: new GraphQLNonNull(GraphQLInt) } }, resolve: (_source, { n }) => 2 * n },
      refused: { type: GraphQLString, resolve: () => Promise.reject(new GraphQLError('Not for you.', { extensions: { code: 'FORBIDDEN' } })) },
      broken: { type: GraphQLString, resolve: () => Promise.reject(new Error('database connection lost')) },
    },
  }),
  subscription: new GraphQLObjectType({ name: 'Subscription', fields: { ticks: { type: GraphQLInt } } }),
});

/** A request and a response that keep what is written to them. */
function exchange(method: string, accept?: string) {
  const written = { status: 0, headers: {} as Record<string, unknown>, body: null as string | null };
  const res = {
    set statusCode(status: number) {
      written.status = status;
    },
    setHeader: (name: string, value: unknown) => {
      written.headers[name] = value;
    },
    end: (body: string) => {
      written.body = body;
    },
  };
  return { req: { method, headers: accept ? { accept } : {} } as IncomingMessage, res: res as unknown as ServerResponse, written };
}

describe('the direct execution of GraphQL over HTTP', () => {
  const logged: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => logged.push(line) });
  const serve = directExecution({ schema, development: false, logger });
  const context = () => Promise.resolve({ requestId: 'request-1' });

  it('serves a query of a valid document, as JSON', async () => {
    const { req, res, written } = exchange('POST');
    expect(await serve(req, res, { query: 'query ($n: Int!) { hello twice(n: $n) }', variables: { n: 21 } }, context)).toBe(true);
    expect(written).toEqual({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '{"data":{"hello":"world","twice":42}}\n' });
  });

  it('serves a request carrying extensions other than a persisted query, as Apollo Client sends', async () => {
    const { req, res, written } = exchange('POST');
    const body = { query: '{ hello }', extensions: { clientLibrary: { name: '@apollo/client', version: '4.3.8' } } };
    expect(await serve(req, res, body, context)).toBe(true);
    expect(written.body).toBe('{"data":{"hello":"world"}}\n');
  });

  it('answers in the media type the client prefers', async () => {
    const { req, res, written } = exchange('POST', 'application/graphql-response+json, application/json;q=0.9');
    expect(await serve(req, res, { query: '{ hello }' }, context)).toBe(true);
    expect(written.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
  });

  it('formats errors raised on purpose, and masks and logs the unexpected ones with the request id', async () => {
    const { req, res, written } = exchange('POST');
    expect(await serve(req, res, { query: '{ refused broken }' }, context)).toBe(true);
    expect(written.status).toBe(200);
    expect(JSON.parse(written.body!)).toEqual({
      errors: [
        { message: 'Not for you.', locations: [{ line: 1, column: 3 }], path: ['refused'], extensions: { code: 'FORBIDDEN' } },
        { message: 'Internal server error', locations: [{ line: 1, column: 11 }], path: ['broken'], extensions: { code: 'INTERNAL_SERVER_ERROR', requestId: 'request-1' } },
      ],
      data: { refused: null, broken: null },
    });
    expect(logged.join('')).toContain('database connection lost');
  });

  it.each([
    ['a GET', 'GET', { query: '{ hello }' }],
    ['a batch', 'POST', [{ query: '{ hello }' }]],
    ['a persisted query', 'POST', { query: '{ hello }', extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }],
    ['extensions that are not an object', 'POST', { query: '{ hello }', extensions: 'none' }],
    ['an empty query', 'POST', { query: '' }],
    ['variables as a string', 'POST', { query: '{ hello }', variables: '{}' }],
    ['a syntax error', 'POST', { query: '{ hello' }],
    ['a field the schema does not have', 'POST', { query: '{ goodbye }' }],
    ['an operation name the document does not have', 'POST', { query: 'query A { hello }', operationName: 'B' }],
    ['a subscription', 'POST', { query: 'subscription { ticks }' }],
    ['variables that do not coerce', 'POST', { query: 'query ($n: Int!) { twice(n: $n) }', variables: { n: 'ten' } }],
  ])('leaves %s to Apollo Server, writing nothing', async (_name, method, body) => {
    const { req, res, written } = exchange(method);
    expect(await serve(req, res, body, context)).toBe(false);
    expect(written.body).toBeNull();
  });

  it('leaves a client that does not accept JSON, and a context that fails, to Apollo Server', async () => {
    const html = exchange('POST', 'text/html');
    expect(await serve(html.req, html.res, { query: '{ hello }' }, context)).toBe(false);
    const failing = exchange('POST');
    expect(await serve(failing.req, failing.res, { query: '{ hello }' }, () => Promise.reject(new Error('no key')))).toBe(false);
    expect([html.written.body, failing.written.body]).toEqual([null, null]);
  });
});
