import { statfsSync } from 'node:fs';

/** Room a run's scratch files need: a migrated embedded data folder per running test server, and a template. */
const NEEDED_BYTES = 2 * 1024 ** 3;
const MEMORY_BACKED = '/dev/shm';

/**
 * Where a test run keeps its scratch files (embedded data folders, uploads, bundles): a
 * memory-backed folder when the machine has one with room to spare, else the system's. An
 * embedded test server copies tens of megabytes and writes every page through the file system,
 * so on disk a run spends minutes in I/O it does not test. TMPDIR, when set, is left alone.
 */
export function scratchFolder(): string | undefined {
  if (process.env.TMPDIR) return undefined;
  try {
    const { bavail, bsize } = statfsSync(MEMORY_BACKED);
    return bavail * bsize >= NEEDED_BYTES ? MEMORY_BACKED : undefined;
  } catch {
    return undefined;
  }
}
