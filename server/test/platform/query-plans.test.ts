import { Client } from 'pg';
import { prepareValue } from 'pg/lib/utils';
import { CONTINUE, continuation, createSession, postMessage } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { eventsOf, settledRuns } from '../helpers/runs';
import { TestServer, startTestServer } from '../helpers/test-server';
import { download, PNG_1X1, uploaded } from '../helpers/attachments';
import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { entities } from '../../src/modules/entities';
import { openDatabase } from '../../src/platform/db/database';
import { WRITE_PLAN_SETTINGS } from '../../src/platform/db/write-transaction';
import { directUrl } from '../setup/test-database';

/**
 * Every statement the server sends on its hot paths must run on index plans whatever the tables
 * held when a connection planned it: a plan made on an empty table and kept for the life of the
 * connection would otherwise scan the table on every call as it grows.
 */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** Tables that grow with use: a sequential scan of any of them costs time in proportion to the data. */
const GROWING_TABLES = ['events', 'sessions', 'continuation_edges', 'projection_manifests', 'runs', 'continuation_proposals', 'attachments', 'attachment_chunks', 'webhook_endpoints', 'webhook_deliveries', 'search_terms'];

interface Statement {
  text: string;
  values: unknown[];
  /** Kept prepared on the connection (named), so PostgreSQL may settle on one generic plan for it. */
  kept: boolean;
  /** Kept by a write transaction, which plans it with {@link WRITE_PLAN_SETTINGS}. */
  inWriteTransaction: boolean;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  Filter?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** An index condition on the account alone: the scan reads every row the account holds in the table. */
const ACCOUNT_ALONE = /^\((\w+\.)?account_id = \$\d+\)$/;

/**
 * Reads of a growing table whole: a sequential scan, or an index scan that reads every row of the
 * account to keep those a filter matches (its cost grows with the account as a scan's with the table).
 */
function growingTablesReadWhole(node: PlanNode): string[] {
  const relation = node['Relation Name'];
  const growing = relation !== undefined && GROWING_TABLES.includes(relation);
  const own =
    growing && node['Node Type'] === 'Seq Scan'
      ? [`${relation} ${node.Alias} (${node.Filter ?? 'no filter'})`]
      : growing && node.Filter !== undefined && ACCOUNT_ALONE.test(node['Index Cond'] ?? '')
        ? [`${relation} ${node.Alias} through ${node['Index Name']} on ${node['Index Cond']} alone, filtered by ${node.Filter}`]
        : [];
  return [...own, ...(node.Plans ?? []).flatMap(growingTablesReadWhole)];
}

/** Records the parameterized statements the server sends, one entry per text. */
function recordStatements(server: TestServer): Map<string, Statement> {
  const statements = new Map<string, Statement>();
  const logger = server.app.database.dataSource.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    const kept = typeof query !== 'string';
    const text = kept ? (query as { text: string }).text : query;
    const inWriteTransaction = kept && (query as { name: string }).name.startsWith('sc_pipelined_');
    if (Array.isArray(parameters) && parameters.length > 0) statements.set(text, { text, values: parameters, kept, inWriteTransaction });
    return logQuery(query, parameters, runner);
  };
  return statements;
}

/**
 * The plan the statement runs on when a server connection prepares it now: for a kept statement
 * the generic plan (made with a write transaction's settings for one of its statements), which
 * PostgreSQL may keep for the life of the connection; for any other, the plan made for these very
 * values. Planned in a transaction, as the server's writes are, which takes its settings with it.
 */
async function planOf(client: Client, statement: Statement): Promise<PlanNode> {
  await client.query('DEALLOCATE ALL');
  await client.query('BEGIN');
  try {
    if (statement.inWriteTransaction) await client.query(WRITE_PLAN_SETTINGS);
    else await client.query(`SET LOCAL plan_cache_mode = ${statement.kept ? 'force_generic_plan' : 'force_custom_plan'}`);
    await client.query(`PREPARE kept AS ${statement.text}`);
    const {
      rows: [{ parameter_types: types }],
    } = await client.query<{ parameter_types: string[] }>(
      `SELECT parameter_types::text[] AS parameter_types FROM pg_prepared_statements WHERE name = 'kept'`,
    );
    const literals = statement.values.map((value, index) => {
      const prepared = prepareValue(value);
      // Bytes (an attachment's chunk) as bytea's hex form: their raw form is no text.
      const literal = Buffer.isBuffer(prepared) ? `\\x${prepared.toString('hex')}` : String(prepared);
      return `${prepared === null ? 'NULL' : client.escapeLiteral(literal)}::${types[index]}`;
    });
    const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) EXECUTE kept(${literals.join(', ')})`);
    return rows[0]['QUERY PLAN'][0].Plan;
  } finally {
    await client.query('ROLLBACK');
  }
}

/** Statements whose kept plan reads a growing table whole, with the plan to show why. */
async function wholeReads(databaseUrl: string, statements: Iterable<Statement>): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const findings: string[] = [];
    for (const statement of statements) {
      const plan = await planOf(client, statement);
      const readWhole = growingTablesReadWhole(plan);
      if (readWhole.length > 0) {
        findings.push(`${statement.kept ? 'kept' : 'planned'} statement reads whole ${readWhole.join('; ')}:\n${statement.text}\n${JSON.stringify(plan)}`);
      }
    }
    return findings;
  } finally {
    await client.end();
  }
}

/**
 * `work` on a new, migrated database whose empty tables are analyzed, as autovacuum soon analyzes
 * a new deployment's: PostgreSQL then trusts that they are empty, and a table read whole is the
 * cheapest plan there is.
 */
async function onNewDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: process.env.TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  const name = `plans_new_${process.pid}_${Date.now()}`;
  const url = new URL(process.env.TEST_DATABASE_ADMIN_URL!);
  url.pathname = `/${name}`;
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const database = await openDatabase({ databaseUrl: url.toString(), dataDir: '', poolSize: 1, entities });
    try {
      await database.dataSource.query('ANALYZE');
    } finally {
      await database.close();
    }
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

/** Uses the API as a person and the agent do: messages answered, a continuation citing a range, reads of the lineage. */
async function useTheApi(server: TestServer): Promise<void> {
  const client = await server.newAccount('planner');
  const origin = await createSession(client, 'Plans');
  const notes = await uploaded(client, 'plans.txt', 'text/plain', Buffer.from('Index plans only.'));
  const image = await uploaded(client, 'plan.png', 'image/png', PNG_1X1);
  await uploaded(client, 'again.png', 'image/png', PNG_1X1);
  await download(client, image.cid);
  await client.data(
    `mutation ($input: PostMessageInput!) { postMessage(input: $input) { ... on PostMessageSuccess { event { attachments { cid } } } } }`,
    { input: { sessionId: origin, text: 'We store events in PostgreSQL.', attachments: [image.cid] } },
  );
  await settledRuns(client, origin);
  await postMessage(client, origin, 'And we keep every statement on an index plan.');
  await settledRuns(client, origin);
  const events = await eventsOf(client, origin);
  const input = continuation(origin, {
    sources: [
      { kind: 'SESSION_EVENTS', sessionId: origin, fromEventId: events[0].id, toEventId: events[1].id, relevance: 'the start' },
      { kind: 'ATTACHMENT', cid: notes.cid, relevance: 'the notes' },
    ],
  });
  await client.data(
    `query ($input: ContinueSessionInput!) { previewProjection(input: $input) { __typename } }`,
    { input },
  );
  await client.data(
    `query ($input: ContinueSessionInput!) { previewProjection(input: $input) { __typename } }`,
    { input: { ...input, assist: true } },
  );
  const { continueSession } = await client.data<{ continueSession: { successor: { id: string } } }>(CONTINUE, { input });
  const successor = continueSession.successor.id;
  await settledRuns(client, successor);
  await postMessage(client, successor, 'Continue with the next step.');
  await settledRuns(client, successor);
  await client.data(
    `query ($id: ID!, $from: ID!, $to: ID!, $phrase: String!) {
      attachment(cid: "${notes.cid}") { name }
      session(id: $id) { events(first: 5) { edges { node { attachments { cid } } } } lineage { id } lineageTree { session { id } } currentContinuation { id } continuedFrom { manifest { items { kind } } } }
      sessions(first: 10) { edges { node { id runs { id } newest: runs(last: 5) { id } failed: runs(status: FAILED, last: 5) { id } } } }
      eventRange(sessionId: $from, fromEventId: $to, toEventId: $to) { id }
      inLineage: searchEvents(query: "index plan statement", sessionId: $id) { totalCount edges { node { snippet } } }
      inAccount: searchEvents(query: $phrase) { totalCount }
      recommendSources(sessionId: $id, purpose: "keep every statement on an index plan") { score reason }
    }`,
    { id: successor, from: origin, to: events[0].id, phrase: '"index plan" -scan' },
  );
  await decideProposals(server, client);
}

/** An ASK session's proposals: one approved, one rejected (and answered in place), one left to expire. */
async function decideProposals(server: TestServer, client: GraphQLTestClient): Promise<void> {
  const proposal = async (title: string) => {
    const { createSession } = await client.data<{ createSession: { id: string } }>(
      'mutation ($t: String!) { createSession(input: { title: $t, continuationApproval: ASK }) { id } }',
      { t: title },
    );
    await postMessage(client, createSession.id, 'We plan the work in phases.');
    await settledRuns(client, createSession.id);
    await postMessage(client, createSession.id, `/continue ${title} next`);
    await settledRuns(client, createSession.id);
    const { session } = await client.data<{ session: { pendingProposal: { id: string } } }>(
      'query ($id: ID!) { session(id: $id) { pendingProposal { id status preview { tokenCost } } } }',
      { id: createSession.id },
    );
    return { sessionId: createSession.id, proposalId: session.pendingProposal.id };
  };
  const approved = await proposal('Approved');
  await client.data('mutation ($id: ID!) { approveContinuation(input: { proposalId: $id, title: "Edited" }) { __typename } }', { id: approved.proposalId });
  const rejected = await proposal('Rejected');
  await client.data('mutation ($id: ID!) { rejectContinuation(proposalId: $id, note: "not yet") { status } }', { id: rejected.proposalId });
  await settledRuns(client, rejected.sessionId);
  const expiring = await proposal('Expiring');
  const deadline = Date.now() + 10_000;
  for (;;) {
    // Marked by the sweep, not only shown as expired.
    const [{ status }] = await server.app.database.dataSource.query('SELECT status FROM continuation_proposals WHERE id = $1', [expiring.proposalId]);
    if (status === 'EXPIRED') break;
    if (Date.now() > deadline) throw new Error('The proposal did not expire');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Another account's history, then fresh statistics: 500 origins each continued once, 100 events
 * in every session (100,000 in all), a finished run and a rejected proposal per session, an edge and manifest per pair,
 * and 10,000 attachments of two chunks each; 2,000 other accounts with a webhook endpoint each and 50 deliveries made.
 */
async function seed(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      WITH account AS (INSERT INTO accounts (name) VALUES ('seeded') RETURNING id),
      pairs AS (SELECT gen_random_uuid() AS origin, gen_random_uuid() AS successor, gen_random_uuid() AS edge, n FROM generate_series(1, 500) n),
      sessions AS (
        INSERT INTO sessions (id, account_id, kind, status, title, created_at, origin_id, lineage_depth, event_count)
        SELECT pairs.origin, account.id, 'ROOT', 'CONTINUED', 'seeded ' || n, now(), pairs.origin, 0, 100 FROM account, pairs
        UNION ALL
        SELECT pairs.successor, account.id, 'CONTINUATION', 'ACTIVE', 'seeded ' || n, now(), pairs.origin, 1, 100 FROM account, pairs
        RETURNING id, account_id
      ),
      events AS (
        INSERT INTO events (id, session_id, account_id, seq, kind, text, token_count, token_total, hash, created_at)
        SELECT gen_random_uuid(), sessions.id, sessions.account_id, seq, CASE WHEN seq % 2 = 1 THEN 'USER_MESSAGE' ELSE 'ASSISTANT_MESSAGE' END,
               'seeded event ' || seq, 3, 3 * seq, md5(sessions.id::text || seq), now()
        FROM sessions, generate_series(1, 100) seq
        RETURNING id, session_id, seq
      ),
      runs AS (
        INSERT INTO runs (id, account_id, session_id, kind, status, trigger_event_id, created_at, updated_at)
        SELECT gen_random_uuid(), sessions.account_id, sessions.id, 'TURN', 'SUCCEEDED', events.id, now(), now()
        FROM sessions JOIN events ON events.session_id = sessions.id AND events.seq = 99
      ),
      edges AS (
        INSERT INTO continuation_edges (id, account_id, predecessor_id, predecessor_depth, successor_id, successor_depth, reason, actor,
                                        initiating_event_id, idempotency_key, request_fingerprint, created_at)
        SELECT pairs.edge, account.id, pairs.origin, 0, pairs.successor, 1, 'TOPIC_CHANGE', 'AGENT', events.id, 'seeded ' || n, '', now()
        FROM account, pairs JOIN events ON events.session_id = pairs.origin AND events.seq = 99
        RETURNING id, account_id, predecessor_id, successor_id, initiating_event_id
      )
      INSERT INTO projection_manifests (id, account_id, edge_id, predecessor_id, successor_id, origin_id, initiating_event_id, actor, reason,
                                        handoff, sources, items, transferred_state, lineage_block, context, compiler_version,
                                        model_version, token_budget, token_cost, hash, created_at)
      SELECT gen_random_uuid(), account_id, id, predecessor_id, successor_id, predecessor_id, initiating_event_id, 'AGENT', 'TOPIC_CHANGE',
             '{}', '[]', '[]', '{}', '', '{}', 'seeded', 'seeded', 1000, 100, '', now()
      FROM edges`);
    await client.query(`
      INSERT INTO continuation_proposals (id, account_id, session_id, tool_call_id, status, draft, created_at, expires_at, decided_at)
      SELECT gen_random_uuid(), account_id, id, 'seeded ' || id, 'REJECTED', '{}', now(), now(), now()
      FROM sessions WHERE title LIKE 'seeded %'`);
    await client.query(`
      WITH account AS (SELECT id FROM accounts WHERE name = 'seeded'),
      blobs AS (SELECT gen_random_uuid() AS blob, n FROM generate_series(1, 10000) n),
      chunks AS (INSERT INTO attachment_chunks (blob_id, seq, bytes) SELECT blob, seq, '\\x00'::bytea FROM blobs, generate_series(0, 1) seq)
      INSERT INTO attachments (account_id, cid, name, media_type, byte_size, storage, storage_key, created_at)
      SELECT account.id, encode(sha256(n::text::bytea), 'hex'), 'seeded ' || n, 'text/plain', 2, 'database', blob::text, now() FROM account, blobs`);
    await client.query(`
      WITH owners AS (INSERT INTO accounts (name) SELECT 'seeded hooks ' || n FROM generate_series(1, 2000) n RETURNING id),
      endpoints AS (
        INSERT INTO webhook_endpoints (id, account_id, url, events, secret, created_at)
        SELECT gen_random_uuid(), id, 'https://hooks.example.com/', '{MESSAGE_POSTED,RUN_SUCCEEDED}', 'whsec_c2VlZGVk', now() FROM owners
        RETURNING id, account_id
      )
      INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, created_at, delivered_at)
      SELECT gen_random_uuid(), account_id, id, 'MESSAGE_POSTED', '{}', 'DELIVERED', 1, now(), now() FROM endpoints, generate_series(1, 50)`);
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

const PROPOSAL_TTL_MS = 3_000;

onPostgres('query plans of the hot statements', () => {
  let server: TestServer;
  let statements: Map<string, Statement>;

  beforeAll(async () => {
    // Proposals live a few seconds here, so that the expiry sweep runs too.
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin' }, approval: { defaultApproval: 'AUTOMATIC', proposalTtlMs: PROPOSAL_TTL_MS } });
    statements = recordStatements(server);
    await useTheApi(server);
  }, 60_000);

  afterAll(() => server?.close());

  // Planned on a connection of its own: through a transaction pooler, PREPARE and EXECUTE could land on different backends.
  const databaseUrl = () => directUrl((server.app.database.dataSource.options as { url: string }).url);

  it('the server sent the statements of every hot path', () => {
    const texts = [...statements.keys()].join('\n');
    expect(texts).toContain('FOR UPDATE SKIP LOCKED');
    expect(texts).toContain('WITH RECURSIVE anchor AS');
    expect(texts).toMatch(/INSERT INTO "?events"?/);
    expect(texts).toContain('UPDATE continuation_proposals SET status = $1, decided_at = statement_timestamp()');
    expect(statements.size).toBeGreaterThan(20);
  });

  /**
   * The recorded statements `selected` picks, more than `atLeast` of them; behind a transaction
   * pooler none, since nothing is kept there and each statement is planned for its own values.
   */
  const keptStatements = (selected: (statement: Statement) => boolean, atLeast: number): Statement[] => {
    const picked = [...statements.values()].filter(selected);
    if (server.app.database.poolMode === 'transaction') expect(picked).toEqual([]);
    else expect(picked.length).toBeGreaterThan(atLeast);
    return picked;
  };

  // Only a kept statement can carry a plan from here into a filled database. One planned for each
  // call is planned again on the data of that call: on tables this small a scan is its best plan.
  it('plans no whole read of a growing table for a kept statement on the database as it started, nearly empty', async () => {
    const kept = keptStatements((statement) => statement.kept, 5);
    expect(await wholeReads(databaseUrl(), kept)).toEqual([]);
  }, 60_000);

  // A write transaction's statements make their plans when a connection opens, often on a new
  // deployment's empty tables, and keep them until PostgreSQL analyzes the tables again.
  it("plans no whole read of a growing table for a write transaction's statement on a new deployment, its tables empty and analyzed", async () => {
    const inWrites = keptStatements((statement) => statement.inWriteTransaction, 3);
    expect(await onNewDatabase((url) => wholeReads(url, inWrites))).toEqual([]);
  }, 60_000);

  it('plans no whole read of a growing table for any statement once it holds 100,000 events', async () => {
    await seed(databaseUrl());
    expect(await wholeReads(databaseUrl(), statements.values())).toEqual([]);
  }, 120_000);
});
