import { spawn } from 'node:child_process';
import path from 'node:path';
import type { QueryRunner } from 'typeorm';
import type { Violation } from '../../src/modules/integrity/invariants';
import { verifyDatabase, VerifyReport } from '../../src/modules/integrity/integrity.service';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';
import { isolatedServerDatabase, TEST_EMBEDDED_BUFFER_MB } from '../setup/test-database';

const serverDir = path.resolve(__dirname, '..', '..');

/** `npm run verify` as an operator runs it, against the database in `env`. */
function runVerifier(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/scripts/verify.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH, EMBEDDED_BUFFER_MB: String(TEST_EMBEDDED_BUFFER_MB), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

describe('the verifier', () => {
  let server: TestServer;
  let database: Awaited<ReturnType<typeof isolatedServerDatabase>>;
  let client: GraphQLTestClient;
  let runner: QueryRunner;
  /** Written through the API: a chain of two continuations, a branch, a fork. */
  const ids = { root: '', rootSecondEvent: '', successor: '', successorOfSuccessor: '', branch: '', fork: '', edge: '', plain: '' };
  let serverClosed = false;

  async function verify(pageSize = 3): Promise<{ report: VerifyReport; violations: Violation[] }> {
    const violations: Violation[] = [];
    const report = await verifyDatabase((text, parameters) => runner.query(text, parameters), {
      pageSize,
      onViolation: (violation) => violations.push(violation),
    });
    return { report, violations };
  }

  beforeAll(async () => {
    // A database of its own: the test corrupts it.
    database = await isolatedServerDatabase();
    server = await startTestServer({
      databaseUrl: database.databaseUrl,
      dataDir: database.dataDir,
      continuationPolicy: { streakLimit: 100, perAccountPerMinute: 1_000, defaultTokenBudget: 8_000 },
    });
    client = await server.newAccount('verified');
    ids.root = await createSession(client, 'root');
    await postMessage(client, ids.root, 'first message');
    ids.rootSecondEvent = await postMessage(client, ids.root, 'second message');
    await postMessage(client, ids.root, 'please continue with the plan');
    const first = await continueSession(client, continuation(ids.root, { title: 'successor' }));
    ids.successor = first.successor!.id;
    ids.edge = first.edge!.id;
    await settleRuns(server, ids.successor);
    await postMessage(client, ids.successor, 'and on again');
    const second = await continueSession(client, continuation(ids.successor, { title: 'successor of successor', reason: 'PHASE_CHANGE' }));
    ids.successorOfSuccessor = second.successor!.id;
    const { postMessage: branched } = await client.data<{ postMessage: { session: { id: string } } }>(
      `mutation ($s: ID!) { postMessage(input: { sessionId: $s, text: "another direction", branch: true }) {
        ... on PostMessageSuccess { session { id } } } }`,
      { s: ids.root },
    );
    ids.branch = branched.session.id;
    const { forkSession } = await client.data<{ forkSession: { id: string } }>(
      'mutation ($e: ID!) { forkSession(input: { eventId: $e }) { id } }',
      { e: ids.rootSecondEvent },
    );
    ids.fork = forkSession.id;
    await postMessage(client, ids.fork, 'on the fork');
    ids.plain = await createSession(client, 'plain');
    for (const text of ['one', 'two', 'three']) await postMessage(client, ids.plain, text);
    runner = server.app.database.dataSource.createQueryRunner();
    await runner.connect();
  }, 120_000);

  afterAll(async () => {
    if (!serverClosed) {
      await runner.release();
      await server.close();
    }
    await database?.drop();
  }, 60_000);

  it('finds nothing wrong in a database written through the API, reading it in small pages', async () => {
    const { report, violations } = await verify();
    expect(violations).toEqual([]);
    expect(report.violations).toBe(0);
    expect(report.checked).toEqual({ sessions: 6, events: expect.any(Number), edges: 3, manifests: 3, runs: expect.any(Number) });
    const [{ events }] = await runner.query('SELECT count(*)::int AS events FROM events');
    expect(report.checked.events).toBe(events);
  });

  it('reports a stranded run lease, and a lease on a settled run, with their ids', async () => {
    const [run] = await runner.query('SELECT id, session_id FROM runs WHERE session_id = $1', [ids.successorOfSuccessor]);
    await runner.query(
      `UPDATE runs SET status = 'RUNNING', attempt = 1, lease_owner = 'gone-worker', lease_expires_at = now() - interval '2 minutes' WHERE id = $1`,
      [run.id],
    );
    try {
      const { violations } = await verify();
      expect(violations).toEqual([
        { code: 'LEASE_EXPIRED', message: expect.stringMatching(/gone-worker/), ids: { runId: run.id, sessionId: ids.successorOfSuccessor } },
      ]);
      await runner.query(`UPDATE runs SET status = 'SUCCEEDED', lease_expires_at = now() + interval '1 minute' WHERE id = $1`, [run.id]);
      expect((await verify()).violations.map((violation) => [violation.code, violation.ids.runId])).toEqual([['LEASE_INCONSISTENT', run.id]]);
    } finally {
      await runner.query(`UPDATE runs SET status = 'QUEUED', attempt = 0, lease_owner = NULL, lease_expires_at = NULL WHERE id = $1`, [run.id]);
    }
  });

  it('reports altered and deleted events, a broken manifest, a broken banner and a lost successor with their ids, and the command exits non-zero', async () => {
    // Only an operator bypassing the append-only triggers can do this.
    await runner.query('ALTER TABLE events DISABLE TRIGGER events_no_update_or_delete');
    await runner.query('ALTER TABLE projection_manifests DISABLE TRIGGER projection_manifests_no_update_or_delete');
    await runner.query(`UPDATE events SET text = 'rewritten history' WHERE id = $1`, [ids.rootSecondEvent]);
    const [, second, third] = await runner.query('SELECT id FROM events WHERE session_id = $1 ORDER BY seq', [ids.plain]);
    await runner.query('DELETE FROM events WHERE id = $1', [second.id]);
    const [manifest] = await runner.query('SELECT id FROM projection_manifests WHERE edge_id = $1', [ids.edge]);
    await runner.query(`UPDATE projection_manifests SET handoff = jsonb_set(handoff, '{purpose}', '"something else"') WHERE id = $1`, [manifest.id]);
    const [banner] = await runner.query('SELECT id FROM events WHERE session_id = $1 AND seq = 1', [ids.branch]);
    await runner.query(`UPDATE events SET data = jsonb_set(data, '{role}', '"decoration"') WHERE id = $1`, [banner.id]);
    await runner.query(`UPDATE sessions SET status = 'CONTINUED' WHERE id = $1`, [ids.fork]);
    const [branchEdge] = await runner.query('SELECT id FROM continuation_edges WHERE successor_id = $1', [ids.branch]);
    const { violations } = await verify();
    const found = violations.map(({ code, ids }) => ({ code, ids }));
    expect(found).toHaveLength(8);
    expect(found).toEqual(
      expect.arrayContaining([
        { code: 'EVENT_HASH_MISMATCH', ids: { sessionId: ids.root, eventId: ids.rootSecondEvent } },
        // The event after the deleted one no longer follows on, in seq or in hash, and the session's count is off.
        { code: 'SEQ_GAP', ids: { sessionId: ids.plain, eventId: third.id } },
        { code: 'EVENT_HASH_MISMATCH', ids: { sessionId: ids.plain, eventId: third.id } },
        { code: 'SESSION_TOTALS_MISMATCH', ids: { sessionId: ids.plain } },
        { code: 'MANIFEST_HASH_MISMATCH', ids: { manifestId: manifest.id, edgeId: ids.edge } },
        { code: 'EVENT_HASH_MISMATCH', ids: { sessionId: ids.branch, eventId: banner.id } },
        { code: 'EDGE_WITHOUT_BANNER', ids: { edgeId: branchEdge.id, predecessorId: ids.root, successorId: ids.branch, eventId: banner.id } },
        { code: 'CONTINUED_WITHOUT_SUCCESSOR', ids: { sessionId: ids.fork } },
      ]),
    );

    // The command reads the same database once the server has let go of it.
    serverClosed = true;
    await runner.release();
    await server.close();
    const { code, output } = await runVerifier(
      database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { DATA_DIR: database.dataDir },
    );
    expect(code).toBe(1);
    expect(output).toMatch(/Checked 6 sessions with \d+ events/);
    expect(output).toContain(`VIOLATION EVENT_HASH_MISMATCH sessionId=${ids.root} eventId=${ids.rootSecondEvent}`);
    expect(output).toContain(`VIOLATION MANIFEST_HASH_MISMATCH manifestId=${manifest.id} edgeId=${ids.edge}`);
    expect(output).toContain(`VIOLATION SEQ_GAP sessionId=${ids.plain} eventId=${third.id}`);
    expect(output).toContain(`VIOLATION EDGE_WITHOUT_BANNER edgeId=${branchEdge.id}`);
    expect(output).toMatch(/^8 violations\.$/m);
  }, 120_000);
});

describe('npm run verify', () => {
  it('exits 0 and says so on a clean database', async () => {
    const database = await isolatedServerDatabase();
    const server = await startTestServer({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    try {
      const client = await server.newAccount('clean');
      await postMessage(client, await createSession(client, 'clean'), 'hello');
    } finally {
      await server.close();
    }
    try {
      const { code, output } = await runVerifier(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { DATA_DIR: database.dataDir });
      expect({ code, output }).toEqual({ code: 0, output: expect.stringMatching(/Checked 1 sessions with 1 events[\s\S]*No violations\./) });
    } finally {
      await database.drop();
    }
  }, 120_000);
});
