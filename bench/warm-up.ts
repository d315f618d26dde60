import { Pool } from 'pg';
import { continueOverHttp, preparePredecessors, spreadPredecessors } from './continue-session';
import { createBenchDatabase } from './database';
import { BenchAccount, BenchServerOptions, createBenchAccounts, numberedNames, startBenchServer } from './harness';
import { MESSAGE_TEXTS, postOverHttp } from './post-message';
import { measure } from './stats';

/**
 * Continuations and messages the server serves before anything is measured. V8's optimizing
 * compiler keeps compiling the server's code on its own threads for a while after start: under
 * continuations at 16 clients it took 19% and 23% of a core in the first two ten-second windows,
 * then 9%, 5% and 4% (some 10,000 continuations in). A few hundred operations leave a measurement
 * paying for that compiling, which a server that has been up a minute no longer does.
 */
const CONTINUATIONS = 8_000;
const MESSAGES = 8_000;
const CLIENTS = 16;

/**
 * Brings this process's compiled code to its steady state before a benchmark starts its server:
 * the busiest paths at 16 clients (500 continuations an account, under the policy's 600 a
 * minute), served by a server of the benchmark's settings on a database of its own, dropped
 * afterwards. The code stays compiled for the servers this process starts next, and the
 * benchmark's own database starts as empty as a new deployment's.
 */
export async function settleCompiler(
  databaseUrl: string,
  log: (message: string) => void,
  server: BenchServerOptions = { poolSize: CLIENTS, agent: { provider: 'builtin', concurrency: 0 } },
): Promise<void> {
  const scratch = await createBenchDatabase(databaseUrl);
  const app = await startBenchServer(scratch.url, server);
  const setup = new Pool({ connectionString: scratch.url, max: 2 });
  const accounts: BenchAccount[] = [];
  try {
    accounts.push(...(await createBenchAccounts(app, numberedNames('warm-up', CLIENTS))));
    const clientOf = (accountId: string) => accounts.find((account) => account.id === accountId)!.client;
    const predecessors = await spreadPredecessors(setup, accounts.map(({ id }) => id), CONTINUATIONS);
    const sessions = (await Promise.all(accounts.map(({ id }) => preparePredecessors(setup, id, 4)))).flat();
    await setup.query('ANALYZE');
    log(`Warming up the server: ${CONTINUATIONS} continuations and ${MESSAGES} messages at ${CLIENTS} clients...`);
    await measure(CLIENTS, CONTINUATIONS, (index) => continueOverHttp(clientOf(predecessors[index].accountId), predecessors[index]));
    await measure(CLIENTS, MESSAGES, (index) => {
      const session = sessions[index % sessions.length];
      return postOverHttp(clientOf(session.accountId), session.id, MESSAGE_TEXTS[index % MESSAGE_TEXTS.length]);
    });
  } finally {
    accounts.forEach((account) => account.client.close());
    await setup.end();
    await app.close();
    await scratch.drop();
  }
}
