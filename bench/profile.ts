import './production';
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { continueOverHttp, preparePredecessors, Predecessor } from './continue-session';
import { BenchAccount, createBenchAccounts, log, numberedNames, runOnNewDatabase, startBenchServer } from './harness';
import { MESSAGE_TEXTS, postOverHttp } from './post-message';
import { fixed, measure, table } from './stats';
import { settleCompiler } from './warm-up';

/**
 * Where the server's CPU goes under the load of the main benchmark: the real server in this
 * process, 16 clients over 16 accounts, once the compiler has settled and after a warm-up, with
 * V8's sampling profiler on for the measured operations only. Writes the `.cpuprofile` (open it
 * in Chrome DevTools or speedscope) and prints the process's CPU time per operation and the frames
 * with the most self time. CPU time per operation moves much less than throughput on a busy
 * machine: it is the figure to compare before and after a change (the profile says where it went).
 */
const CLIENTS = 16;
const SECTIONS = ['continue', 'message'];
/** PROFILE_OPERATIONS and PROFILE_WARMUP set other counts. */
const OPERATIONS: Record<string, number> = { continue: Number(process.env.PROFILE_OPERATIONS ?? 1_600), message: Number(process.env.PROFILE_OPERATIONS ?? 4_000) };
const WARMUP: Record<string, number> = { continue: Number(process.env.PROFILE_WARMUP ?? 320), message: Number(process.env.PROFILE_WARMUP ?? 2_000) };
const TOP_FRAMES = Number(process.env.PROFILE_TOP ?? 25);
/** Microseconds between samples: sampling costs CPU, so a coarse interval reads CPU per operation closer to an unprofiled run. */
const SAMPLING_INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? 200);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Self time per function (name, file and line), the largest first, as shares of the samples the
 * process was not idle in. The profiler samples wall time: `writev` includes the time the kernel
 * spends handing a write to the database, and the time the process waits for a core when the
 * write wakes a database backend that takes its own, so its share is far larger than the kernel's
 * share of the CPU, which the report prints beside the total.
 */
function selfTimes(profile: CpuProfile): { frame: string; share: number }[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFrame = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
    // Waiting, and the profiler's own stop (`dispatch`), are no work of the server's.
    if (functionName === '(idle)' || (functionName === 'dispatch' && !url)) return;
    const where = url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*\/(server|bench)\//, '$1/');
    const frame = `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
    const delta = profile.timeDeltas[index] ?? 0;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + delta);
    total += delta;
  });
  return [...byFrame]
    .map(([frame, time]) => ({ frame, share: time / total }))
    .sort((a, b) => b.share - a.share);
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<{ result: T; cpuMs: number; systemMs: number; file: string; profile: CpuProfile }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
  await session.post('Profiler.start');
  const cpuBefore = process.cpuUsage();
  const result = await work();
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: CpuProfile };
  session.disconnect();
  const file = path.join(process.env.PROFILE_DIR ?? tmpdir(), `${name}-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  return { result, cpuMs: (cpu.user + cpu.system) / 1000, systemMs: cpu.system / 1000, file, profile };
}

async function bench(databaseUrl: string, section: string) {
  await settleCompiler(databaseUrl, log);
  const app = await startBenchServer(databaseUrl, { poolSize: CLIENTS, agent: { provider: 'builtin', concurrency: 0 } });
  const setup = new Pool({ connectionString: databaseUrl, max: 2 });
  const accounts: BenchAccount[] = [];
  try {
    accounts.push(...(await createBenchAccounts(app, numberedNames('profile', CLIENTS))));
    const clientOf = (predecessor: Predecessor) => accounts.find((account) => account.id === predecessor.accountId)!.client;
    const total = WARMUP[section] + OPERATIONS[section];
    // Predecessors (or sessions to write in) spread over the accounts, consecutive ones in different accounts.
    const perAccount = section === 'continue' ? Math.ceil(total / CLIENTS) : 4;
    const byAccount = await Promise.all(accounts.map((account) => preparePredecessors(setup, account.id, perAccount)));
    const sessions = Array.from({ length: perAccount * CLIENTS }, (_, index) => byAccount[index % CLIENTS][Math.floor(index / CLIENTS)]);
    await setup.query('ANALYZE');
    const operation =
      section === 'continue'
        ? (index: number) => continueOverHttp(clientOf(sessions[index]), sessions[index])
        : (index: number) => {
            const session = sessions[index % sessions.length];
            return postOverHttp(clientOf(session), session.id, MESSAGE_TEXTS[index % MESSAGE_TEXTS.length]);
          };
    log(`Warming up with ${WARMUP[section]} operations...`);
    await measure(CLIENTS, WARMUP[section], operation);
    log(`Profiling ${OPERATIONS[section]} operations at ${CLIENTS} clients...`);
    const queriesBefore = app.database.queryCount();
    const offset = WARMUP[section];
    const { result, cpuMs, systemMs, file, profile } = await profiled(section, () => measure(CLIENTS, OPERATIONS[section], (index) => operation(offset + index)));
    const queries = (app.database.queryCount() - queriesBefore) / OPERATIONS[section];
    console.log(
      `\n${section}: ${OPERATIONS[section]} operations at ${CLIENTS} clients, ${fixed(result.opsPerSecond)} ops/s (indicative), ` +
        `process CPU ${fixed(cpuMs / OPERATIONS[section], 3)} ms per operation (${fixed(systemMs / OPERATIONS[section], 3)} in the kernel), ${fixed(queries)} database queries per operation\nprofile: ${file}\n`,
    );
    console.log(
      table(
        ['self %', 'frame'],
        selfTimes(profile)
          .slice(0, TOP_FRAMES)
          .map(({ frame, share }) => [fixed(share * 100), frame]),
      ),
    );
  } finally {
    accounts.forEach((account) => account.client.close());
    await setup.end();
    await app.close();
  }
}

const section = process.argv[2] ?? process.env.BENCH ?? 'continue';
if (!SECTIONS.includes(section)) {
  console.error(`Profile one of: ${SECTIONS.join(', ')}.`);
  process.exit(2);
}
runOnNewDatabase((databaseUrl) => bench(databaseUrl, section));
