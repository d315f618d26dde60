import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { claimRun } from '../../src/modules/conversation/run.repository';
import { createSession, postMessage } from '../helpers/continuations';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { startTestServer, TestServer } from '../helpers/test-server';

/** Claimers racing on one database needs a database server: this suite runs on PostgreSQL only. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onPostgres('claiming queued turns', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    // Turns are queued, but no worker of the server takes them: the test's claimers are the only ones.
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, concurrency: 0 } });
    client = await server.newAccount('claims');
  });
  afterAll(() => server.close());

  it("never hands a session's next turn to one claimer while another is taking the turn before it", async () => {
    const dataSource = server.app.database.dataSource;
    const session = await createSession(client, 'Two turns');
    const firstMessage = await postMessage(client, session, 'First.');
    const secondMessage = await postMessage(client, session, 'Second.');

    const taking = dataSource.createQueryRunner();
    await taking.connect();
    try {
      await taking.startTransaction();
      const first = await claimRun(taking.manager, 'worker-a', 60_000);
      expect(first?.triggerEventId).toBe(firstMessage);
      // The first turn is locked and not yet committed as running: another claimer skips it.
      expect(await claimRun(dataSource.manager, 'worker-b', 60_000)).toBeNull();
      await taking.commitTransaction();
    } finally {
      await taking.release();
    }
    // Taken, it holds a live lease: the second turn still waits.
    expect(await claimRun(dataSource.manager, 'worker-b', 60_000)).toBeNull();
    const [second] = await dataSource.query(`SELECT status FROM runs WHERE trigger_event_id = $1`, [secondMessage]);
    expect(second.status).toBe('QUEUED');
  });
});
