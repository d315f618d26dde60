/**
 * The runtime's continuation at the context threshold against a plain turn, in the same run: the
 * server's share of the time from a user message to the first token of the model call that answers
 * it (the successor's, when the runtime continued: after its draft call and the continuation).
 * The stand-in model runs in a process of its own (`model-process.ts`), as a remote model would,
 * and everything from a request's arrival there to its last byte is the provider's time: its wait,
 * and its own work (counting the prompt's tokens, writing each chunk), which a real model's prompt
 * processing and generation take too. The server's share is the rest: from the message to the
 * first request's arrival, and from each request's last byte to the next one's arrival (for a
 * continuation, the draft's last byte to the successor's request). Target: a continuation's share
 * at most 2x a plain turn's. Printed beside it, per continuation, where its time went.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:pressure
 *
 * PRESSURE_SESSIONS (24): conversations, each driven past its threshold once: the median of a dozen
 * continuations moved by a tenth from run to run.
 */
import { GraphQLClient } from './graphql';
import { log, runOnNewDatabase, startBenchServer } from './harness';
import { monotonicNow, startModelProcess, TimedRequest } from './model-process';
import { fixed, spread, table } from './stats';

const SESSIONS = Number(process.env.PRESSURE_SESSIONS ?? 24);
const WINDOW = 8_000;
const THRESHOLD = 0.7;
const FIRST_TOKEN_MS = 25;
/** Nominal: timers stretch it, and the stand-in records the time actually waited. */
const PER_TOKEN_MS = 1;

const POST = `mutation ($s: ID!, $t: String!) { postMessage(input: { sessionId: $s, text: $t }) { ... on PostMessageSuccess { run { id } } ... on OperationError { code message } } }`;
const SESSION = `query ($id: ID!) { session(id: $id) { status runs { status } continuations { successor { id runs { status } } } } }`;

interface SessionState {
  status: string;
  runs: { status: string }[];
  continuations: { successor: { id: string; runs: { status: string }[] } }[];
}

const settled = (runs: { status: string }[]) => runs.length > 0 && runs.every((run) => run.status !== 'QUEUED' && run.status !== 'RUNNING');

/** A message of about 300 tokens, each different. */
function message(session: number, index: number): string {
  return Array.from(
    { length: 10 },
    (_, line) => `Session ${session}, note ${index}.${line}: the survey of berth ${line + index} found ${session * 31 + line} metres of quay wall to repair before spring.`,
  ).join(' ');
}

async function untilSettled(client: GraphQLClient, sessionId: string): Promise<SessionState> {
  let seen: SessionState | null = null;
  for (;;) {
    const { session } = await client.data<{ session: SessionState }>(SESSION, { id: sessionId });
    const successor = session.continuations[session.continuations.length - 1]?.successor;
    // A query's fields are read one after another: a continuation committing between them can show
    // the run settled before the session continued, so a settled state counts once it reads the same twice.
    if (settled(session.runs) && (!successor || settled(successor.runs))) {
      if (seen && seen.status === session.status && seen.continuations.length === session.continuations.length) return session;
      seen = session;
      continue;
    }
    seen = null;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The server's share: from the message to the first request's arrival, and from each request's
 * last byte to the next one's arrival. From a request's arrival to its last byte the time is the provider's.
 */
function serverShare(postedAt: number, requests: TimedRequest[]): number {
  return requests.reduce((sum, request, index) => sum + request.arrivedAt - (index === 0 ? postedAt : requests[index - 1].finishedAt!), 0);
}

/** The provider's own work before a request's first token, beyond the wait it was told to take. */
const providerWork = (request: TimedRequest) => request.firstTokenAt! - request.arrivedAt - request.modelFirstTokenMs;

runOnNewDatabase(async (databaseUrl) => {
  const model = await startModelProcess({ contextTokens: WINDOW, replyTokens: 40, timing: { firstTokenMs: FIRST_TOKEN_MS, perTokenMs: PER_TOKEN_MS } });
  const app = await startBenchServer(databaseUrl, {
    poolSize: 10,
    agent: {
      provider: 'openai',
      openai: { baseURL: model.baseURL, apiKey: 'sk-bench', model: 'gpt-4o', timeoutMs: 30_000 },
      windowTokens: WINDOW,
      continuationThreshold: THRESHOLD,
      concurrency: 2,
      pollMs: 1_000,
    },
  });
  const admin = new GraphQLClient(app.url, app.bootstrapKey.apiKey);
  const { createAccount } = await admin.data<{ createAccount: { apiKey: string } }>('mutation { createAccount(name: "pressure") { apiKey } }');
  const client = new GraphQLClient(app.url, createAccount.apiKey);
  const plain: number[] = [];
  const continued: number[] = [];
  const plainProviderWork: number[] = [];
  const draftProviderWork: number[] = [];
  let seen = 0;
  let overContext = 0;
  let failed = 0;
  try {
    for (let index = 0; index < SESSIONS; index += 1) {
      const { createSession } = await client.data<{ createSession: { id: string } }>('mutation ($t: String!) { createSession(input: { title: $t }) { id } }', {
        t: `Quay survey ${index}`,
      });
      for (let turn = 0; ; turn += 1) {
        const postedAt = monotonicNow();
        await client.data(POST, { s: createSession.id, t: message(index, turn) });
        const state = await untilSettled(client, createSession.id);
        failed += [...state.runs, ...state.continuations.flatMap((edge) => edge.successor.runs)].filter((run) => run.status === 'FAILED').length;
        const requests = await model.requests(seen);
        seen += requests.length;
        overContext += requests.filter((request) => request.overContext).length;
        if (state.status === 'CONTINUED') {
          continued.push(serverShare(postedAt, requests));
          const answering = requests[requests.length - 1];
          const draft = requests[requests.length - 2];
          draftProviderWork.push(draft.finishedAt! - draft.arrivedAt - draft.modelTimeMs);
          log(
            `  message to draft call ${fixed(requests[0].arrivedAt - postedAt)} ms; ${requests.length - 1} draft call(s), the last ${fixed(draft.finishedAt! - draft.arrivedAt)} ms ` +
              `(waits ${fixed(draft.modelTimeMs)}); draft's last byte to the successor's call ${fixed(answering.arrivedAt - draft.finishedAt!)} ms; ` +
              `its first token ${fixed(answering.firstTokenAt! - answering.arrivedAt)} ms (wait ${fixed(answering.modelFirstTokenMs)})`,
          );
          break;
        }
        plain.push(serverShare(postedAt, requests));
        plainProviderWork.push(providerWork(requests[requests.length - 1]));
      }
      log(`session ${index + 1}/${SESSIONS}: continued after ${plain.length} plain turns so far`);
    }
  } finally {
    client.close();
    admin.close();
    await app.close();
    await model.close();
  }
  const plainSpread = spread(plain);
  const continuedSpread = spread(continued);
  const ms = (value: number) => fixed(value, 1);
  console.log(
    `\nServer's share of the time from a user message to the answering model call's first token (ms): to the first request's arrival, ` +
      `and from each request's last byte to the next one's arrival\n`,
  );
  console.log(
    table(
      ['turn', 'samples', 'min', 'median', 'max'],
      [
        ['plain turn', String(plain.length), ms(plainSpread.min), ms(plainSpread.median), ms(plainSpread.max)],
        ['continued at the threshold', String(continued.length), ms(continuedSpread.min), ms(continuedSpread.median), ms(continuedSpread.max)],
      ],
    ),
  );
  console.log(
    `\nContinuation / plain turn, each against the plain median: min ${fixed(continuedSpread.min / plainSpread.median, 2)}x, median ${fixed(continuedSpread.median / plainSpread.median, 2)}x, max ${fixed(continuedSpread.max / plainSpread.median, 2)}x (target: median at most 2x). Failed runs: ${failed}.`,
  );
  const answerWork = spread(plainProviderWork);
  const draftWork = spread(draftProviderWork);
  console.log(
    `The stand-in's own work, the provider's time (min / median / max, ms): before a plain answer's first token ${ms(answerWork.min)} / ${ms(answerWork.median)} / ${ms(answerWork.max)}, ` +
      `in a draft call beyond its waits ${ms(draftWork.min)} / ${ms(draftWork.median)} / ${ms(draftWork.max)}.`,
  );
  if (overContext > 0) console.log(`${overContext} request(s) did not fit the window.`);
});
