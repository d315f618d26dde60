import { GraphQLTestClient } from '../helpers/graphql-client';
import { download } from '../helpers/attachments';
import { buildLineage } from '../helpers/lineage';
import { startTestServer, TestServer } from '../helpers/test-server';
import { FaultStep, injectFault } from '../helpers/faults';

/** Each write of an erasure, in order, and a row condition that picks out exactly that write. */
const STEPS: FaultStep[] = [
  ['forget the search statistics', 'search_terms', 'DELETE', 'true'],
  ['erase the events', 'events', 'UPDATE', 'NEW.erased_at IS NOT NULL'],
  ['erase the manifests', 'projection_manifests', 'UPDATE', 'NEW.erased_at IS NOT NULL'],
  ['erase the plans', 'plan_revisions', 'UPDATE', 'NEW.erased_at IS NOT NULL'],
  ['stop the runs', 'runs', 'UPDATE', 'true'],
  ['delete the attachment', 'attachments', 'DELETE', 'true'],
  ['mark the sessions erased', 'sessions', 'UPDATE', 'NEW.erased_at IS NOT NULL'],
  ['write the receipt', 'erasure_receipts', 'INSERT', 'true'],
];

const ERASE = `mutation ($input: EraseSessionInput!) { eraseSession(input: $input) { __typename ... on ErasureReceipt { eventCount } } }`;

describe('eraseSession is atomic', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let accountId: string;
  const sql = (text: string, parameters: unknown[] = []) => server.app.database.dataSource.query(text, parameters);

  beforeAll(async () => {
    server = await startTestServer({ logDestination: { write: () => undefined } });
    client = await server.newAccount('atomic-erasure');
    accountId = (await client.data<{ viewer: { id: string } }>('query { viewer { id } }')).viewer.id;
  });
  afterAll(() => server.close());

  /** Everything an erasure changes, as one digest of the account's rows (and the attachment's chunks). */
  async function state(blobId: string): Promise<string> {
    const [row] = await sql(
      `SELECT md5(string_agg(line, '|' ORDER BY line)) AS digest FROM (
         SELECT 'e' || id || coalesce(text, '') || coalesce(data::text, '') || attachment_cids::text || coalesce(erased_at::text, '') AS line FROM events WHERE account_id = $1
         UNION ALL SELECT 's' || id || title || coalesce(description, '') || coalesce(erased_at::text, '') FROM sessions WHERE account_id = $1
         UNION ALL SELECT 'm' || id || handoff::text || context::text || items::text || lineage_block || coalesce(erased_at::text, '') FROM projection_manifests WHERE account_id = $1
         UNION ALL SELECT 'p' || id || steps::text FROM plan_revisions WHERE account_id = $1
         UNION ALL SELECT 'r' || id || status || coalesce(output, '') || coalesce(lease_owner, '') FROM runs WHERE account_id = $1
         UNION ALL SELECT 'a' || cid FROM attachments WHERE account_id = $1
         UNION ALL SELECT 't' || lexeme || session_id || documents FROM search_terms WHERE account_id = $1
         UNION ALL SELECT 'c' || count(*) FROM attachment_chunks WHERE blob_id = $2
         UNION ALL SELECT 'x' || count(*) FROM erasure_receipts WHERE account_id = $1
       ) rows`,
      [accountId, blobId],
    );
    return row.digest;
  }

  it('leaves everything as it was when any of its writes fails', async () => {
    const lineage = await buildLineage(server, client, 'fragilekiwi');
    await sql(`UPDATE runs SET status = 'RUNNING', lease_owner = 'a-worker', lease_expires_at = now() + interval '1 minute' WHERE session_id = $1`, [lineage.sessionIds[2]]);
    const [{ storage_key: blobId }] = await sql(`SELECT storage_key FROM attachments WHERE account_id = $1 AND cid = $2`, [accountId, lineage.attachmentCid]);
    const input = { sessionId: lineage.sessionIds[0], scope: 'LINEAGE', reason: 'testing faults' };
    const before = await state(blobId);

    for (const step of STEPS) {
      const [name] = step;
      const remove = await injectFault(sql, accountId, step);
      try {
        const response = await client.request(ERASE, { input });
        expect({ step: name, errors: response.errors?.map((error) => error.extensions?.code) }).toEqual({ step: name, errors: ['INTERNAL_SERVER_ERROR'] });
        expect({ step: name, state: await state(blobId) }).toEqual({ step: name, state: before });
        expect((await download(client, lineage.attachmentCid)).status).toBe(200);
      } finally {
        await remove();
      }
    }

    const done = await client.data<{ eraseSession: { __typename: string } }>(ERASE, { input });
    expect(done.eraseSession.__typename).toBe('ErasureReceipt');
    expect(await state(blobId)).not.toBe(before);
    expect((await sql(`SELECT count(*)::int AS n FROM attachment_chunks WHERE blob_id = $1`, [blobId]))[0].n).toBe(0);
  });
});
