import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { TestServer, startTestServer } from '../helpers/test-server';

const SEARCH = `query ($query: String!, $sessionId: ID, $scope: SearchScope, $first: Int, $after: String) {
  searchEvents(query: $query, sessionId: $sessionId, scope: $scope, first: $first, after: $after) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor }
    edges { cursor node { score snippet event { id seq text session { id } } } }
  }
}`;

interface SearchPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null };
  edges: { cursor: string; node: { score: number; snippet: string; event: { id: string; seq: number; text: string; session: { id: string } } } }[];
}

async function search(client: GraphQLTestClient, variables: Record<string, unknown>): Promise<SearchPage> {
  return (await client.data<{ searchEvents: SearchPage }>(SEARCH, variables)).searchEvents;
}

/** Ordinary chat that shares words with the facts without stating them. */
const CHATTER = [
  'Let us look at the export dashboard tomorrow morning.',
  'The bucket naming scheme is still under discussion.',
  'Keys on the shared keyboard are sticky, someone should clean them.',
  'Rotation of the on-call schedule happens on Mondays.',
  'I moved the nightly standup to a later slot.',
  'Can you write a short note about the release?',
];

const FACTS = {
  export: 'The nightly export job writes to the eu-west bucket.',
  keys: 'The signing keys are rotated every ninety days.',
  retention: 'Receipts are kept for seven years under the retention policy.',
};

describe('searchEvents', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let other: GraphQLTestClient;
  const lineage: string[] = [];
  let unrelated: string;
  let foreign: string;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('searcher');
    other = await server.newAccount('someone else');
    // A lineage of 10 sessions: the facts early, chatter all along.
    let current = await createSession(client, 'Data platform');
    lineage.push(current);
    for (let index = 0; index < 10; index++) {
      if (index === 1) await postMessage(client, current, FACTS.export);
      if (index === 4) await postMessage(client, current, FACTS.keys);
      for (const line of CHATTER) await postMessage(client, current, line);
      if (index < 9) {
        const result = await continueSession(client, continuation(current, { title: `Part ${index + 2}` }));
        if (!result.successor) throw new Error(`continueSession failed: ${result.code} ${result.message}`);
        current = result.successor.id;
        lineage.push(current);
        await settleRuns(server, current);
      }
    }
    unrelated = await createSession(client, 'Another lineage');
    await postMessage(client, unrelated, FACTS.retention);
    await postMessage(client, unrelated, 'The nightly export of invoices goes elsewhere entirely.');
    foreign = await createSession(other, 'Their data');
    await postMessage(other, foreign, FACTS.export);
    await postMessage(other, foreign, FACTS.keys);
  }, 120_000);

  afterAll(() => server?.close());

  it.each([
    ['which bucket does the nightly export go to?', FACTS.export],
    ['how often do we rotate the signing keys?', FACTS.keys],
  ])('finds the fact for a reworded question in the top 5 of a 10-session lineage: %s', async (question, fact) => {
    const page = await search(client, { query: question, sessionId: lineage[9], first: 5 });
    expect(page.edges.map((edge) => edge.node.event.text)).toContain(fact);
    expect(page.edges[0].node.event.text).toBe(fact);
  });

  it('scores hits best first and marks the matched words in an HTML-safe snippet', async () => {
    await postMessage(client, lineage[9], 'Is rotation & renewal of signing keys automated when 3 < 5 and <b>bold</b>?');
    const page = await search(client, { query: 'signing keys', sessionId: lineage[9], scope: 'SESSION' });
    const scores = page.edges.map((edge) => edge.node.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const snippet = page.edges[0].node.snippet;
    expect(snippet).toContain('<mark>signing</mark>');
    expect(snippet).toContain('&#38; renewal');
    // Only the marks are markup: every other angle bracket or ampersand comes escaped.
    expect(snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]|&(?!#\d+;)/);
  });

  it('searches one session, the whole lineage, or the account, as the scope says', async () => {
    const inSession = await search(client, { query: 'signing keys rotated', sessionId: lineage[4], scope: 'SESSION' });
    expect(inSession.edges.every((edge) => edge.node.event.session.id === lineage[4])).toBe(true);
    expect(inSession.edges.map((edge) => edge.node.event.text)).toContain(FACTS.keys);

    const inLineage = await search(client, { query: 'retention receipts', sessionId: lineage[0] });
    expect(inLineage.edges.map((edge) => edge.node.event.text)).not.toContain(FACTS.retention);

    const inAccount = await search(client, { query: 'retention receipts' });
    expect(inAccount.edges[0].node.event.text).toBe(FACTS.retention);
  });

  it("never shows another account's events, not even in totalCount", async () => {
    const mine = await search(client, { query: '"signing keys"', scope: 'ACCOUNT' });
    const theirs = await search(other, { query: '"signing keys"', scope: 'ACCOUNT' });
    expect(theirs.totalCount).toBe(1);
    expect(mine.edges.every((edge) => lineage.includes(edge.node.event.session.id))).toBe(true);
    const probe = await other.request(SEARCH, { query: 'signing', sessionId: lineage[0] });
    expect(probe.errors?.[0].extensions?.code).toBe('NOT_FOUND');
  });

  it('holds quoted phrases and -exclusions strictly, while plain words are alternatives', async () => {
    const phrase = await search(client, { query: '"nightly export"' });
    expect(phrase.edges.map((edge) => edge.node.event.text).sort()).toEqual(
      [FACTS.export, 'The nightly export of invoices goes elsewhere entirely.'].sort(),
    );
    const excluded = await search(client, { query: '"nightly export" -invoices' });
    expect(excluded.edges.map((edge) => edge.node.event.text)).toEqual([FACTS.export]);
    const alternatives = await search(client, { query: 'dashboard sticky', sessionId: lineage[0], scope: 'SESSION' });
    expect(alternatives.edges.map((edge) => edge.node.event.text).sort()).toEqual([CHATTER[0], CHATTER[2]].sort());
  });

  it("ranks a hit holding more of the question's words above one repeating fewer of them", async () => {
    const session = await createSession(client, 'Words');
    await postMessage(client, session, 'Export, export, export: export the export and export it again, export.');
    await postMessage(client, session, 'Nightly we export to a bucket.');
    await postMessage(client, session, 'Lunch is at noon.');
    const page = await search(client, { query: 'which bucket does the nightly export go to?', sessionId: session, scope: 'SESSION' });
    expect(page.edges.map((edge) => edge.node.event.text)).toEqual(['Nightly we export to a bucket.', expect.stringMatching(/^Export, export/)]);
    // Repeating a word saturates: eight times "export" scores less than twice one "export".
    expect(page.edges[1].node.score).toBeLessThan(page.edges[0].node.score / 2);
  });

  it("weighs a word by how rare it is where the search looks: the one rare word outweighs the speaker's name", async () => {
    const session = await createSession(client, 'Friends');
    // "Caroline", "go", "group" and "support" are in most lines, "LGBTQ" in one.
    const chat = [
      'Melanie: Hey Caroline! Did the book group go well?',
      'Caroline: The group was fun, thanks for the support!',
      'Melanie: Caroline, we should go back to the climbing group.',
      'Caroline: Yes! I will go if you support me on the wall.',
      'Melanie: Caroline, my running group meets Sunday, want to go?',
      'Caroline: Maybe, the choir group needs support on Sunday.',
      'Caroline: I went to an LGBTQ meetup yesterday and it was so powerful.',
      'Melanie: Caroline, go for it, we all support you.',
      'Caroline: Our group will go for support next week.',
      'Caroline: Talk soon, Mel!',
    ];
    for (const line of chat) await postMessage(client, session, line);
    const page = await search(client, { query: 'When did Caroline go to the LGBTQ support group?', sessionId: session, scope: 'SESSION', first: 3 });
    // Counting each shared word alike, the line holding four of them would win.
    expect(page.edges[0].node.event.text).toBe(chat[6]);
    // The same words in another area weigh otherwise: there "caroline" is as rare as "lgbtq".
    const elsewhere = await createSession(client, 'Elsewhere');
    await postMessage(client, elsewhere, 'Caroline called about the invoice.');
    await postMessage(client, elsewhere, 'The LGBTQ centre opens at nine.');
    await postMessage(client, elsewhere, 'Lunch is at noon.');
    const other = await search(client, { query: 'Caroline LGBTQ', sessionId: elsewhere, scope: 'SESSION' });
    expect(other.edges.map((edge) => edge.node.score)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(Math.abs(other.edges[0].node.score - other.edges[1].node.score)).toBeLessThan(0.3);
  });

  it('takes the speaker of a "Name: text" message for a field of its own: a question about someone finds what they said first', async () => {
    const session = await createSession(client, 'Pottery');
    const said = 'Caroline: The pottery class starts Monday, and honestly I cannot wait for it.';
    const addressed = 'Melanie: Caroline, the pottery class starts Monday.';
    for (const line of ['Melanie: Morning!', addressed, said, 'Melanie: Lunch is at noon.', 'Caroline: See you then.'])
      await postMessage(client, session, line);
    const page = await search(client, { query: "When does Caroline's pottery class start?", sessionId: session, scope: 'SESSION', first: 2 });
    expect(page.edges.map((edge) => edge.node.event.text)).toEqual([said, addressed]);
  });

  it('pages a large area tier by tier exactly as ranking every match would, and never reads another account', async () => {
    const query = 'nightly export bucket keys rotation';
    const pageThrough = async (variables: Record<string, unknown>) => {
      const seen: SearchPage['edges'] = [];
      let after: string | null = null;
      for (;;) {
        const page: SearchPage = await search(client, { query, ...variables, first: 3, after });
        seen.push(...page.edges);
        if (!page.pageInfo.hasNextPage) return seen;
        after = page.pageInfo.endCursor;
      }
    };
    // A page larger than every match reads the widest tier, every match ranked.
    const everyMatch = async (variables: Record<string, unknown>) => {
      const page = await search(client, { query, ...variables, first: 100 });
      expect(page.totalCount).toBeLessThan(100);
      return page.edges.map((edge) => edge.node.event.id);
    };
    const expectTheSamePages = async () => {
      const inLineage = await everyMatch({ sessionId: lineage[9] });
      expect((await pageThrough({ sessionId: lineage[9] })).map((edge) => edge.node.event.id)).toEqual(inLineage);
      const inAccount = await everyMatch({});
      const accountPages = await pageThrough({});
      expect(accountPages.map((edge) => edge.node.event.id)).toEqual(inAccount);
      // The other account holds the same facts.
      expect(accountPages.map((edge) => edge.node.event.session.id)).not.toContain(foreign);
    };
    const sql = (text: string) => server.app.database.dataSource.query(text, [lineage]);
    // Sessions counting more events than they hold make the area large to the server.
    await sql('UPDATE sessions SET event_count = event_count + 10000 WHERE id = ANY($1::uuid[])');
    try {
      // Before the table has statistics the account is read from the index; once analyzed, an
      // account holding most of the table (as this one does on a new embedded database) is
      // checked on each hit instead.
      await expectTheSamePages();
      await server.app.database.dataSource.query('ANALYZE events');
      await expectTheSamePages();
    } finally {
      await sql('UPDATE sessions SET event_count = event_count - 10000 WHERE id = ANY($1::uuid[])');
    }
  });

  it('pages with cursors: no hit twice, none missed, the same totalCount on every page', async () => {
    const all = await search(client, { query: 'bucket export keys rotation', sessionId: lineage[9], first: 100 });
    expect(all.totalCount).toBeGreaterThan(20);
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: SearchPage = await search(client, { query: 'bucket export keys rotation', sessionId: lineage[9], first: 7, after });
      expect(page.totalCount).toBe(all.totalCount);
      seen.push(...page.edges.map((edge) => edge.node.event.id));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.edges.map((edge) => edge.node.event.id));
    // An empty page still counts every match of its scope.
    const none = await search(client, { query: 'bucket export keys rotation', sessionId: lineage[9], first: 0 });
    expect(none.totalCount).toBe(all.totalCount);
    const inSession = await search(client, { query: 'bucket export keys rotation', sessionId: lineage[9], scope: 'SESSION' });
    expect((await search(client, { query: 'bucket export keys rotation', sessionId: lineage[9], scope: 'SESSION', first: 0 })).totalCount).toBe(
      inSession.totalCount,
    );
  });

  it.each([
    ['an empty query', { query: '   ' }],
    ['a query that only excludes', { query: '-export' }],
    ['an over-long query', { query: 'word '.repeat(101) }],
    ['a page size over 100', { query: 'export', first: 101 }],
    ['a SESSION scope without a session', { query: 'export', scope: 'SESSION' }],
    ['a cursor of something else', { query: 'export', after: 'not-a-cursor' }],
  ])('refuses %s with INVALID_INPUT', async (_case, variables) => {
    const response = await client.request(SEARCH, variables);
    expect(response.status).toBeLessThan(500);
    expect(response.errors?.[0].extensions?.code).toBe('INVALID_INPUT');
  });
});
