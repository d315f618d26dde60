import './production';
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
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
 * in Chrome DevTools or speedscope) and prints the process's CPU time per operation, the frames
 * with the most self time and the parts of the code they add up to. CPU time per operation moves
 * much less than throughput on a busy machine: it is the figure to compare before and after a
 * change (the profile says where it went). PROFILE_HEAP=1 samples allocations instead.
 */
const CLIENTS = 16;
const SECTIONS = ['continue', 'message'];
/** PROFILE_OPERATIONS and PROFILE_WARMUP set other counts. */
const OPERATIONS: Record<string, number> = { continue: Number(process.env.PROFILE_OPERATIONS ?? 1_600), message: Number(process.env.PROFILE_OPERATIONS ?? 4_000) };
const WARMUP: Record<string, number> = { continue: Number(process.env.PROFILE_WARMUP ?? 320), message: Number(process.env.PROFILE_WARMUP ?? 2_000) };
const TOP_FRAMES = Number(process.env.PROFILE_TOP ?? 25);
/** Microseconds between samples: sampling costs CPU, so a coarse interval reads CPU per operation closer to an unprofiled run. */
const SAMPLING_INTERVAL_US = Number(process.env.PROFILE_INTERVAL_US ?? 200);

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
}

interface HeapProfileNode {
  id: number;
  callFrame: CallFrame;
  children: HeapProfileNode[];
}

interface HeapProfile {
  head: HeapProfileNode;
  samples: { size: number; nodeId: number }[];
}

/** Where a frame is, as the report names it: a file of the server's or of the benchmark, a package, or nothing (V8, the kernel). */
function whereOf(url: string): string {
  return url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(/^.*\/(server|bench)\//, '$1/');
}

function frameOf({ functionName, url, lineNumber }: CallFrame): string {
  const where = whereOf(url);
  return `${functionName || '(anonymous)'}${where ? ` ${where}:${lineNumber + 1}` : ''}`;
}

/**
 * The part of the code a frame belongs to: a module or folder of the server's, the load generator,
 * a package, Node.js's own code; V8's and the kernel's frames (`writev`, the collector) alone.
 */
function partOf(callFrame: CallFrame): string {
  const where = whereOf(callFrame.url);
  if (!where) return callFrame.functionName || '(anonymous)';
  if (where.startsWith('node:')) return 'Node.js';
  if (where.startsWith('bench/')) return 'the load generator (bench/)';
  const server = /^server\/src\/(modules\/[^/]+|shared\/[^/]+|[^/]+\/[^/]+(?=\/)|[^/]+)/.exec(where);
  if (server) return `server/src/${server[1].replace(/\.ts$/, '')}`;
  return `package ${/^(@[^/]+\/)?[^/]+/.exec(where)![0]}`;
}

/**
 * Self time per function (name, file and line) and per part of the code, the largest first, as
 * shares of the samples the process was not idle in, each sample counted once. V8 takes a sample
 * when its sampling thread gets a core, which on a busy machine is often just as the main thread
 * hands a write to the kernel; weighted by the time since the previous sample, `writev` took the
 * sampling thread's waits too (26% of one profile by time, 12% by count, where `perf` read the
 * kernel's share of the process's CPU, every system call included, at 7%). The report prints the
 * kernel's share of the CPU beside the total.
 */
function selfTimes(profile: CpuProfile): { byFrame: Share[]; byPart: Share[] } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFrame = new Map<string, number>();
  const byPart = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const { callFrame } = nodes.get(id)!;
    // Waiting, and the profiler's own stop (`dispatch`), are no work of the server's.
    if (callFrame.functionName === '(idle)' || (callFrame.functionName === 'dispatch' && !callFrame.url)) continue;
    add(byFrame, frameOf(callFrame), 1);
    add(byPart, partOf(callFrame), 1);
    total += 1;
  }
  return { byFrame: shares(byFrame, total), byPart: shares(byPart, total) };
}

interface Share {
  name: string;
  share: number;
}

function add(sums: Map<string, number>, key: string, value: number) {
  sums.set(key, (sums.get(key) ?? 0) + value);
}

function shares(sums: Map<string, number>, total: number): Share[] {
  return [...sums].map(([name, sum]) => ({ name, share: sum / total })).sort((a, b) => b.share - a.share);
}

/** Bytes allocated per function while sampling (the objects collected since included), the largest first. */
function allocations(profile: HeapProfile): { bytes: number; byFrame: { name: string; bytes: number }[] } {
  const frames = new Map<number, string>();
  const visit = (node: HeapProfileNode) => {
    frames.set(node.id, frameOf(node.callFrame));
    node.children.forEach(visit);
  };
  visit(profile.head);
  const byFrame = new Map<string, number>();
  let bytes = 0;
  for (const sample of profile.samples) {
    add(byFrame, frames.get(sample.nodeId)!, sample.size);
    bytes += sample.size;
  }
  return { bytes, byFrame: [...byFrame].map(([name, size]) => ({ name, bytes: size })).sort((a, b) => b.bytes - a.bytes) };
}

/**
 * With PROFILE_HEAP=1, V8's sampling heap profiler instead of its CPU profiler: what the measured
 * operations allocate, the objects collected since counted too (they are what the collector's
 * share of the CPU pays for).
 */
const HEAP = process.env.PROFILE_HEAP === '1';
/** Bytes between allocation samples, on average. */
const HEAP_SAMPLING_BYTES = 4_096;
const TOP_PARTS = 15;

interface Profiled<T> {
  result: T;
  cpuMs: number;
  systemMs: number;
  file: string;
  profile: CpuProfile | HeapProfile;
}

async function profiled<T>(name: string, work: () => Promise<T>): Promise<Profiled<T>> {
  const session = new Session();
  session.connect();
  if (HEAP) {
    const sampling = { samplingInterval: HEAP_SAMPLING_BYTES, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', sampling);
  } else {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await session.post('Profiler.start');
  }
  const cpuBefore = process.cpuUsage();
  const result = await work();
  const cpu = process.cpuUsage(cpuBefore);
  const { profile } = (await session.post(HEAP ? 'HeapProfiler.stopSampling' : 'Profiler.stop')) as unknown as { profile: CpuProfile | HeapProfile };
  session.disconnect();
  const folder = process.env.PROFILE_DIR ?? tmpdir();
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${name}-${Date.now()}.${HEAP ? 'heapprofile' : 'cpuprofile'}`);
  writeFileSync(file, JSON.stringify(profile));
  return { result, cpuMs: (cpu.user + cpu.system) / 1000, systemMs: cpu.system / 1000, file, profile };
}

/** The frames with the most self time and the parts of the code they are in; or, of a heap profile, what each allocated. */
function printProfile(profile: CpuProfile | HeapProfile, operations: number) {
  if (HEAP) {
    const { bytes, byFrame } = allocations(profile as HeapProfile);
    const perOperation = (size: number) => fixed(size / 1024 / operations, 1);
    console.log(`allocated: ${perOperation(bytes)} KB per operation\n`);
    console.log(table(['KB per op', 'frame'], byFrame.slice(0, TOP_FRAMES).map(({ name, bytes: size }) => [perOperation(size), name])));
    return;
  }
  const { byFrame, byPart } = selfTimes(profile as CpuProfile);
  const rows = (list: Share[], count: number) => list.slice(0, count).map(({ name, share }) => [fixed(share * 100), name]);
  console.log(table(['self %', 'frame'], rows(byFrame, TOP_FRAMES)));
  console.log(`\n${table(['self %', 'part of the code'], rows(byPart, TOP_PARTS))}`);
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
    printProfile(profile, OPERATIONS[section]);
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
