import { TranscriptCheck, Violation, edgeViolations, manifestViolations, runViolations } from './invariants';
import type { StoredEvent } from './invariants';
import * as rows from './integrity.repository';
import type { SqlQuery } from './integrity.repository';

export interface VerifyOptions {
  /** Rows read per statement; memory holds about one page of each kind. */
  pageSize?: number;
  /** How long after its lease expired a RUNNING run may wait to be taken over before it counts as stranded. */
  leaseGraceMs?: number;
  /** Called with each violation as it is found. */
  onViolation(violation: Violation): void;
}

/** How many of each kind of row were checked, and how many violations were found. */
export interface VerifyReport {
  checked: { sessions: number; events: number; edges: number; manifests: number; runs: number };
  /** Events and manifests whose content an erasure removed: their hashes stand as recorded, and they are no violation. */
  erased: { events: number; manifests: number };
  violations: number;
}

export const DEFAULT_VERIFY_PAGE_SIZE = 200;
/** Workers take over an expired lease within their poll interval (1 s by default); a minute covers a busy or restarting fleet. */
export const DEFAULT_LEASE_GRACE_MS = 60_000;

/**
 * Reads the whole database page by page (keyset pagination) and checks every invariant the API
 * promises: each session's hash chain and gap-free seq, its totals, a successor for every
 * CONTINUED session, every continuation edge with its manifest, transition card, banner and
 * initiating message, every manifest's hash, and no run stranded past its lease.
 * It reads in one read-only REPEATABLE READ transaction, so a database in use is checked as of
 * one moment: `query` must therefore send every statement on one connection.
 * @throws the database's error when a statement fails (e.g. the schema is missing).
 */
export async function verifyDatabase(query: SqlQuery, options: VerifyOptions): Promise<VerifyReport> {
  await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', []);
  try {
    return await verifySnapshot(query, options);
  } finally {
    await query('ROLLBACK', []);
  }
}

async function verifySnapshot(query: SqlQuery, options: VerifyOptions): Promise<VerifyReport> {
  const pageSize = options.pageSize ?? DEFAULT_VERIFY_PAGE_SIZE;
  const checked = { sessions: 0, events: 0, edges: 0, manifests: 0, runs: 0 };
  const erased = { events: 0, manifests: 0 };
  let violations = 0;
  const report = (found: Violation[]) => {
    for (const violation of found) {
      violations += 1;
      options.onViolation(violation);
    }
  };

  // Sessions and events are walked side by side, both in session id order; every event has its session.
  const events = rows.events(query, pageSize);
  let next: IteratorResult<StoredEvent> = await events.next();
  for await (const session of rows.sessions(query, pageSize)) {
    checked.sessions += 1;
    const transcript = new TranscriptCheck(session);
    for (; !next.done && next.value.sessionId === session.id; next = await events.next()) {
      checked.events += 1;
      report(transcript.event(next.value));
    }
    report(transcript.finish());
    erased.events += transcript.erased;
  }
  for await (const edge of rows.edges(query, pageSize)) {
    checked.edges += 1;
    report(edgeViolations(edge));
  }
  for await (const manifest of rows.manifests(query, pageSize)) {
    checked.manifests += 1;
    if (manifest.erasedAt) erased.manifests += 1;
    report(manifestViolations(manifest));
  }
  const now = await rows.databaseNow(query);
  for await (const run of rows.runs(query, pageSize)) {
    checked.runs += 1;
    report(runViolations(run, now, options.leaseGraceMs ?? DEFAULT_LEASE_GRACE_MS));
  }
  return { checked, erased, violations };
}
