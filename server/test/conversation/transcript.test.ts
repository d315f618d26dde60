import { createHash } from 'node:crypto';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

const POST = `mutation ($input: PostMessageInput!) { postMessage(input: $input) {
  __typename
  ... on PostMessageSuccess { event { id seq kind text tokenCount hash } session { id eventCount tokenCount } }
  ... on OperationError { code message details { path message } }
} }`;

type PostResult = {
  postMessage: {
    __typename: string;
    event?: { id: string; seq: number; kind: string; text: string; tokenCount: number; hash: string };
    session?: { id: string; eventCount: number; tokenCount: number };
    code?: string;
    message?: string;
    details?: { path: string[]; message: string }[];
  };
};

type EventNode = {
  id: string;
  seq: number;
  kind: string;
  text: string | null;
  data: unknown;
  toolCallId: string | null;
  tokenCount: number;
  hash: string;
  createdAt: string;
  replayOf: { id: string } | null;
};

const EVENT_FIELDS = 'id seq kind text data toolCallId tokenCount hash createdAt replayOf { id }';

async function newSession(client: GraphQLTestClient, title = 'transcript'): Promise<string> {
  const { createSession } = await client.data<{ createSession: { id: string } }>(
    'mutation ($title: String!) { createSession(input: { title: $title }) { id } }',
    { title },
  );
  return createSession.id;
}

async function post(client: GraphQLTestClient, sessionId: string, text: string, clientMessageId?: string) {
  return (await client.data<PostResult>(POST, { input: { sessionId, text, clientMessageId } })).postMessage;
}

async function page(client: GraphQLTestClient, sessionId: string, args: string) {
  const { session } = await client.data<{
    session: {
      events: {
        edges: { cursor: string; node: EventNode }[];
        pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
        totalCount: number;
      };
    };
  }>(`query ($id: ID!) { session(id: $id) { events${args} {
      edges { cursor node { ${EVENT_FIELDS} } }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } } }`, { id: sessionId });
  return session.events;
}

describe('transcript', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('writer');
  });
  afterAll(() => server.close());

  it('appends a user message with seq, o200k token count and running totals', async () => {
    const sessionId = await newSession(client);
    const text = 'Summarise the design review, please.';
    const first = await post(client, sessionId, text);
    expect(first.__typename).toBe('PostMessageSuccess');
    expect(first.event).toMatchObject({ seq: 1, kind: 'USER_MESSAGE', text, tokenCount: countTokens(text) });
    const second = await post(client, sessionId, 'And list the open questions.');
    expect(second.event?.seq).toBe(2);
    expect(second.session).toEqual({
      id: sessionId,
      eventCount: 2,
      tokenCount: countTokens(text) + countTokens('And list the open questions.'),
    });
  });

  it('returns the first event for a replayed clientMessageId and appends nothing', async () => {
    const sessionId = await newSession(client);
    const first = await post(client, sessionId, 'hello', 'msg-1');
    const replay = await post(client, sessionId, 'hello', 'msg-1');
    expect(replay.event?.id).toBe(first.event?.id);
    expect(replay.session?.eventCount).toBe(1);
  });

  it.each([
    ['empty text', '', ['input', 'text']],
    ['white space only', '  \n ', ['input', 'text']],
    ['text over 100,000 characters', 'a'.repeat(100_001), ['input', 'text']],
  ])('refuses %s with INVALID_INPUT and writes nothing', async (_name, text, path) => {
    const sessionId = await newSession(client);
    const result = await post(client, sessionId, text);
    expect(result).toMatchObject({ __typename: 'OperationError', code: 'INVALID_INPUT' });
    expect(result.details?.[0].path).toEqual(path);
    const events = await page(client, sessionId, '');
    expect(events.totalCount).toBe(0);
  });

  it('refuses an unknown session with NOT_FOUND', async () => {
    for (const sessionId of ['0e3e2f4c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', 'nonsense']) {
      const result = await post(client, sessionId, 'hi');
      expect(result).toMatchObject({
        __typename: 'OperationError',
        code: 'NOT_FOUND',
        details: [{ path: ['input', 'sessionId'] }],
      });
    }
  });

  describe('paging', () => {
    let sessionId: string;
    beforeAll(async () => {
      sessionId = await newSession(client, 'paging');
      for (let i = 1; i <= 12; i += 1) await post(client, sessionId, `message ${i}`);
    });

    const seqs = (events: { edges: { node: EventNode }[] }) => events.edges.map((edge) => edge.node.seq);

    it('pages forward with first/after', async () => {
      const one = await page(client, sessionId, '(first: 5)');
      expect(seqs(one)).toEqual([1, 2, 3, 4, 5]);
      expect(one.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const two = await page(client, sessionId, `(first: 10, after: "${one.pageInfo.endCursor}")`);
      expect(seqs(two)).toEqual([6, 7, 8, 9, 10, 11, 12]);
      expect(two.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      expect(two.totalCount).toBe(12);
    });

    it('pages backward with last/before', async () => {
      const latest = await page(client, sessionId, '(last: 4)');
      expect(seqs(latest)).toEqual([9, 10, 11, 12]);
      expect(latest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const older = await page(client, sessionId, `(last: 4, before: "${latest.pageInfo.startCursor}")`);
      expect(seqs(older)).toEqual([5, 6, 7, 8]);
    });

    it('reads an exact inclusive range with fromSeq/toSeq', async () => {
      const range = await page(client, sessionId, '(fromSeq: 3, toSeq: 6)');
      expect(seqs(range)).toEqual([3, 4, 5, 6]);
      expect(range.totalCount).toBe(4);
      expect(range.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
    });

    it('refuses more than 100 per page', async () => {
      const response = await client.request('query ($id: ID!) { session(id: $id) { events(first: 101) { totalCount } } }', {
        id: sessionId,
      });
      expect(response.errors?.[0]).toMatchObject({
        message: 'first must be between 0 and 100.',
        extensions: { code: 'INVALID_INPUT' },
      });
    });

    it('recalls an exact event range and single events', async () => {
      const all = await page(client, sessionId, '(first: 100)');
      const ids = all.edges.map((edge) => edge.node.id);
      const { eventRange } = await client.data<{ eventRange: { seq: number }[] }>(
        'query ($s: ID!, $a: ID!, $b: ID!) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b) { seq } }',
        { s: sessionId, a: ids[2], b: ids[7] },
      );
      expect(eventRange.map((event) => event.seq)).toEqual([3, 4, 5, 6, 7, 8]);
      const { event } = await client.data<{ event: { seq: number; session: { id: string } } }>(
        'query ($id: ID!) { event(id: $id) { seq session { id } } }',
        { id: ids[4] },
      );
      expect(event).toEqual({ seq: 5, session: { id: sessionId } });
      const reversed = await client.request(
        'query ($s: ID!, $a: ID!, $b: ID!) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b) { seq } }',
        { s: sessionId, a: ids[7], b: ids[2] },
      );
      expect(reversed.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    });

    it('refuses a range whose events belong to another session with NOT_FOUND', async () => {
      const otherSession = await newSession(client, 'other');
      const other = await post(client, otherSession, 'elsewhere');
      const all = await page(client, sessionId, '(first: 1)');
      const response = await client.request(
        'query ($s: ID!, $a: ID!, $b: ID!) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b) { seq } }',
        { s: sessionId, a: all.edges[0].node.id, b: other.event?.id },
      );
      expect(response.errors?.[0].extensions).toMatchObject({ code: 'NOT_FOUND', details: [{ path: ['toEventId'] }] });
    });

    it('chains every event hash to the previous one, as docs/api.md describes', async () => {
      const all = await page(client, sessionId, '(first: 100)');
      let previous = '';
      for (const { node } of all.edges) {
        // The encoding docs/api.md gives: sha256 hex of the JSON array below, no white space.
        const encoded = JSON.stringify([
          previous,
          sessionId,
          node.seq,
          node.kind,
          node.text,
          node.data,
          node.toolCallId,
          node.replayOf?.id ?? null,
          node.createdAt,
        ]);
        const expected = createHash('sha256').update(encoded).digest('hex');
        expect(node.hash).toBe(expected);
        previous = node.hash;
      }
      expect(all.edges).toHaveLength(12);
    });
  });
});
