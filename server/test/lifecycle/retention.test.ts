import { GraphQLTestClient } from '../helpers/graphql-client';
import { violationsOf } from '../helpers/attachments';
import { createSession, postMessage } from '../helpers/continuations';
import { buildLineage } from '../helpers/lineage';
import { startTestServer, TestServer } from '../helpers/test-server';

const DAY = 86_400_000;

describe('retention', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  /** The server's clock, moved by the test instead of waiting. */
  let now = new Date();

  beforeAll(async () => {
    server = await startTestServer({ clock: () => now });
    client = await server.newAccount('retention');
  });
  afterAll(() => server.close());

  const setPolicy = (days: number | null) =>
    client.request<{ setRetentionPolicy: { retentionDays: number | null } }>('mutation ($d: Int) { setRetentionPolicy(retentionDays: $d) { id retentionDays } }', { d: days });

  it('sets and clears the account retention, refusing periods that are no policy', async () => {
    expect((await setPolicy(30)).data?.setRetentionPolicy.retentionDays).toBe(30);
    expect((await client.data<{ viewer: { retentionDays: number } }>('query { viewer { retentionDays } }')).viewer.retentionDays).toBe(30);
    for (const bad of [0, -1, 36_501]) expect((await setPolicy(bad)).errors?.[0].extensions?.code).toBe('INVALID_INPUT');
    expect((await setPolicy(null)).data?.setRetentionPolicy.retentionDays).toBeNull();
  });

  it('erases whole lineages whose last event is older than the period, with a SYSTEM receipt, and keeps the rest', async () => {
    now = new Date();
    const old = await buildLineage(server, client, 'oldpangolin');
    // A conversation begun long ago and written in today: its last event decides, not its start.
    const resumed = await createSession(client, 'begun long ago');
    await server.app.database.dataSource.query(`UPDATE sessions SET created_at = created_at - interval '90 days' WHERE id = $1`, [resumed]);
    await postMessage(client, resumed, 'first words about the otter');
    const patient = await server.newAccount('keeps two months');
    const kept = await createSession(patient, 'two months');
    await postMessage(patient, kept, 'kept for sixty days');
    await patient.data('mutation { setRetentionPolicy(retentionDays: 60) { id } }');
    const other = await server.newAccount('keeps everything');
    const untouched = await createSession(other, 'no policy');
    await postMessage(other, untouched, 'nothing expires here');
    await setPolicy(30);
    const session = async (c: GraphQLTestClient, id: string) =>
      (await c.data<{ session: { title: string; erasedAt: string | null } }>('query ($s: ID!) { session(id: $s) { title erasedAt } }', { s: id })).session;

    expect(await server.app.retention.sweepOnce()).toBe(0);
    now = new Date(Date.now() + 31 * DAY);
    expect(await server.app.retention.sweepOnce()).toBe(2);
    expect(await server.app.retention.sweepOnce()).toBe(0);

    const { erasures } = await client.data<{ erasures: { scope: string; actor: string; requestedBy: string; sessionIds: string[]; reason: string }[] }>(
      'query { erasures { scope actor requestedBy sessionIds reason } }',
    );
    expect(erasures).toHaveLength(2);
    for (const receipt of erasures) {
      expect(receipt).toMatchObject({ scope: 'LINEAGE', actor: 'SYSTEM', requestedBy: 'retention policy', reason: 'Retention policy: no new event in the lineage for 30 days.' });
    }
    expect(erasures.map((receipt) => [...receipt.sessionIds].sort())).toEqual(expect.arrayContaining([[...old.sessionIds].sort(), [resumed]]));
    expect((await session(client, old.sessionIds[1])).erasedAt).not.toBeNull();
    expect(await session(patient, kept)).toEqual({ title: 'two months', erasedAt: null });
    expect(await session(other, untouched)).toEqual({ title: 'no policy', erasedAt: null });
    expect(await violationsOf(server, [...old.sessionIds, resumed])).toEqual([]);

    now = new Date(Date.now() + 61 * DAY);
    expect(await server.app.retention.sweepOnce()).toBe(1);
    expect((await session(patient, kept)).erasedAt).not.toBeNull();
    expect(await session(other, untouched)).toEqual({ title: 'no policy', erasedAt: null });
  });

  it('keeps a lineage whose last event is within the period, however old its first session', async () => {
    now = new Date();
    await setPolicy(30);
    const resumed = await createSession(client, 'begun long ago, written today');
    await server.app.database.dataSource.query(`UPDATE sessions SET created_at = created_at - interval '90 days' WHERE id = $1`, [resumed]);
    await postMessage(client, resumed, 'still talking');
    expect(await server.app.retention.sweepOnce()).toBe(0);
  });
});
