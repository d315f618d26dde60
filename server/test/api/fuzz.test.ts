import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { GraphQLInputType, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType } from 'graphql';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { operationFor, publishedSchema, rootFields, rowCounts } from '../helpers/schema-inputs';
import { startTestServer, TestServer } from '../helpers/test-server';

/**
 * Schema-driven fuzzing: every query and mutation with variables of wrong types, out-of-range
 * numbers, malformed and unknown ids, odd strings, unknown enum values, missing and extra fields,
 * huge lists. A fixed seed keeps CI repeatable; FUZZ_SEED and FUZZ_RUNS (per field) explore more.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261213);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const outOfRange = fc.constantFrom(-1, 0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e300, 0.5);
const wrongType = fc.oneof(fc.boolean(), fc.integer(), fc.string({ maxLength: 5 }), fc.constant(null), fc.constant({}), fc.constant([]));
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constant(''),
  fc.constant(' '),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }), // control characters, NUL included
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('\ud800', 'x\udc00y', '😀', '\u202e', '<script>', "'; DROP TABLE sessions; --"),
  fc.nat({ max: 120_000 }).map((length) => 'a'.repeat(length)),
);

function textArbitrary(name: string, ids: string[]): fc.Arbitrary<unknown> {
  if (name !== 'ID') return oddString;
  return fc.oneof(fc.constantFrom(...ids), fc.uuid().map(String), fc.constant(randomUUID()), oddString);
}

/** Values for an input type, right and wrong; each arbitrary can also give a wrong type or null. */
function valueArbitrary(type: GraphQLInputType, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const inner = isNonNullType(type) ? type.ofType : type;
  let right: fc.Arbitrary<unknown>;
  if (isListType(inner)) {
    right = fc.oneof(
      fc.array(valueArbitrary(inner.ofType, ids, depth + 1), { maxLength: 3 }),
      fc.nat({ max: 5_000 }).map((length) => Array.from({ length }, () => 'x')),
    );
  } else if (isInputObjectType(inner)) {
    if (depth > 4) return fc.constant({});
    const fields = Object.values(inner.getFields());
    right = fc
      .tuple(
        fc.record(Object.fromEntries(fields.map((field) => [field.name, valueArbitrary(field.type, ids, depth + 1)])), {
          requiredKeys: [],
        }),
        fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), wrongType, { maxKeys: 2 }), { nil: undefined }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));
  } else if (isEnumType(inner)) {
    right = fc.oneof(fc.constantFrom(...inner.getValues().map((value) => value.name)), fc.constantFrom('NOT_A_VALUE', 'active', ''));
  } else {
    switch (getNamedType(inner).name) {
      case 'Int':
        right = fc.oneof(fc.integer({ min: -5, max: 200 }), outOfRange);
        break;
      case 'Float':
        right = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), outOfRange);
        break;
      case 'Boolean':
        right = fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'true'));
        break;
      case 'DateTime':
        right = fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.constantFrom('yesterday', '2026-13-40T99:99:99Z'));
        break;
      case 'JSON':
        right = fc.jsonValue({ maxDepth: 3 });
        break;
      default:
        right = textArbitrary(getNamedType(inner).name, ids);
    }
  }
  return fc.oneof({ weight: 5, arbitrary: right }, { weight: 1, arbitrary: wrongType });
}

interface Response {
  status: number;
  body: string;
}

describe('fuzzing every query and mutation', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  const ids: string[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('fuzz');
    const { createSession } = await client.data<{ createSession: { id: string } }>('mutation { createSession(input: { title: "seed" }) { id } }');
    const { postMessage } = await client.data<{ postMessage: { event?: { id: string } } }>(
      'mutation ($id: ID!) { postMessage(input: { sessionId: $id, text: "hello" }) { ... on PostMessageSuccess { event { id } } } }',
      { id: createSession.id },
    );
    ids.push(createSession.id, ...(postMessage.event ? [postMessage.event.id] : []));
  });
  afterAll(() => server.close());

  const post = async (query: string, variables: unknown): Promise<Response> => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${client.apiKey}` },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: await response.text() };
  };

  const fields = rootFields(publishedSchema()).filter((root) => root.kind !== 'subscription');

  it.each(fields.map((root) => ({ root, name: `${root.kind} ${root.field.name}` })))(
    'answers $name without a server error, a stack trace, or a write when refused',
    async ({ root }) => {
      const query = operationFor(root);
      const variables = fc.record(Object.fromEntries(root.field.args.map((arg) => [arg.name, valueArbitrary(arg.type, ids)])), {
        requiredKeys: [],
      });
      await fc.assert(
        fc.asyncProperty(variables, async (generated) => {
          const before = root.kind === 'mutation' ? await rowCounts(server.app) : null;
          const response = await post(query, generated);
          expect(response.status).toBeLessThan(500);
          expect(response.body).not.toMatch(/INTERNAL_SERVER_ERROR|stacktrace|\n\s+at /);
          const { data, errors } = JSON.parse(response.body) as { data?: Record<string, { __typename?: string } | null>; errors?: unknown[] };
          const refused = Boolean(errors?.length) || !data?.[root.field.name] || data[root.field.name]?.__typename === 'OperationError';
          if (before && refused) expect(await rowCounts(server.app)).toEqual(before);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
    60_000,
  );
});
