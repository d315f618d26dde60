import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times: 100 on Linux for every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** CPU time so far of each PostgreSQL process on this machine, in ms, by process id. */
export type PostgresCpu = Map<string, number>;

/**
 * CPU time of each PostgreSQL process on this machine so far, from /proc; null where there is no
 * /proc (or no PostgreSQL on this machine).
 */
export function postgresCpu(): PostgresCpu | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const cpu: PostgresCpu = new Map();
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // Ended between the listing and the read.
    }
    const nameEnd = stat.lastIndexOf(')');
    if (!stat.slice(stat.indexOf('(') + 1, nameEnd).startsWith('postgres')) continue;
    // After the name: state is field 3; utime and stime are fields 14 and 15.
    const fields = stat.slice(nameEnd + 2).split(' ');
    cpu.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND);
  }
  return cpu.size > 0 ? cpu : null;
}

/**
 * The CPU time PostgreSQL's processes used since `before`, in ms: a process started since counts
 * whole, one that ended since is not counted. Every database's backends count: read it while
 * nothing else uses the server, as a benchmark does.
 */
export function postgresCpuSince(before: PostgresCpu | null): number | null {
  const after = postgresCpu();
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/** This process's CPU time so far (user and system, every thread), in ms. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
