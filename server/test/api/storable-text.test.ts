import { collect, GraphQLTestClient } from '../helpers/graphql-client';
import {
  answersWithOperationError,
  minimalVariables,
  operationFor,
  publishedSchema,
  rootFields,
  rowCounts,
  textLeaves,
  valueWith,
} from '../helpers/schema-inputs';
import { startTestServer, TestServer } from '../helpers/test-server';

const UNSTORABLE = { 'a NUL character': 'before\u0000after', 'an unpaired surrogate': 'before\ud800after' };

/** Every text input of the published schema: one case per root field and path to a String, ID or JSON value. */
const textInputs = rootFields(publishedSchema()).flatMap((root) =>
  root.field.args.flatMap((arg) =>
    textLeaves(arg.type, [arg.name]).map((path) => ({ root, arg, path, name: `${root.kind} ${root.field.name}: ${path.join('.')}` })),
  ),
);

interface Refusal {
  code: string;
  message: string;
  details: { path: string[]; message: string }[];
}

describe('text the database cannot store', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('text');
  });
  afterAll(() => server.close());

  it('covers the text inputs of every mutation', () => {
    const mutations = new Set(textInputs.filter((input) => input.root.kind === 'mutation').map((input) => input.root.field.name));
    // Mutations whose only argument is a number.
    const withoutText = ['setRetentionPolicy'];
    expect([...mutations].sort()).toEqual(
      rootFields(publishedSchema())
        .filter((root) => root.kind === 'mutation' && !withoutText.includes(root.field.name))
        .map((root) => root.field.name)
        .sort(),
    );
  });

  describe.each(Object.entries(UNSTORABLE))('%s', (_kind, text) => {
    it.each(textInputs.filter((input) => input.root.kind !== 'subscription'))(
      'is refused as INVALID_INPUT naming the input, writing nothing: $name',
      async ({ root, arg, path }) => {
        const before = await rowCounts(server.app);
        const variables = { ...minimalVariables(root.field), [arg.name]: valueWith(arg.type, path.slice(1), text) };
        const response = await client.request<Record<string, Refusal & { __typename: string }>>(operationFor(root), variables);
        let refusal: Refusal | undefined;
        if (answersWithOperationError(root.field)) {
          expect(response.errors).toBeUndefined();
          expect(response.data?.[root.field.name].__typename).toBe('OperationError');
          refusal = response.data?.[root.field.name];
        } else {
          expect(response.errors).toHaveLength(1);
          refusal = { ...(response.errors![0].extensions as Omit<Refusal, 'message'>), message: response.errors![0].message };
        }
        expect(refusal).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining(path.join('.')) });
        expect(refusal?.details).toEqual([{ path, message: expect.stringMatching(/NUL characters or unpaired UTF-16 surrogates/) }]);
        expect(await rowCounts(server.app)).toEqual(before);
      },
    );

    it.each(textInputs.filter((input) => input.root.kind === 'subscription'))(
      'is refused as INVALID_INPUT over WebSocket: $name',
      async ({ root, arg, path }) => {
        const ws = client.websocket();
        try {
          const variables = { ...minimalVariables(root.field), [arg.name]: valueWith(arg.type, path.slice(1), text) };
          const subscription = collect(ws, operationFor(root), variables);
          await subscription.until(1);
          expect(subscription.errors).toEqual([
            expect.objectContaining({ extensions: expect.objectContaining({ code: 'INVALID_INPUT', details: [expect.objectContaining({ path })] }) }),
          ]);
        } finally {
          await ws.dispose();
        }
      },
    );
  });

  it('stores paired surrogates (emoji) exactly', async () => {
    const title = 'plans 😀 and \ud83d\ude80';
    const { createSession } = await client.data<{ createSession: { id: string; title: string } }>(
      'mutation ($title: String!) { createSession(input: { title: $title }) { id title } }',
      { title },
    );
    expect(createSession.title).toBe(title);
  });
});
