import { canonicalJson } from '../../shared/canonical-json';
import { ManifestContent, manifestHash } from '../continuation/projection/manifest';
import { EventContent, EventKind, GENESIS_HASH, eventHash } from '../conversation/transcript';

/** A broken promise of the API, with the ids an operator needs to find the rows. */
export interface Violation {
  code: ViolationCode;
  message: string;
  ids: Record<string, string>;
}

export const ViolationCode = {
  /** An event's hash is not the hash of its content chained to the event before. */
  EVENT_HASH_MISMATCH: 'EVENT_HASH_MISMATCH',
  /** A session's seq does not run 1, 2, 3, ... without gaps or repeats. */
  SEQ_GAP: 'SEQ_GAP',
  /** A session's event count or last hash disagrees with its events. */
  SESSION_TOTALS_MISMATCH: 'SESSION_TOTALS_MISMATCH',
  /** A CONTINUED session with no continuation edge to a successor. */
  CONTINUED_WITHOUT_SUCCESSOR: 'CONTINUED_WITHOUT_SUCCESSOR',
  /** An edge without its manifest, or a manifest naming other sessions or another initiating event. */
  EDGE_WITHOUT_MANIFEST: 'EDGE_WITHOUT_MANIFEST',
  /** An edge whose predecessor has no transition card for it. */
  EDGE_WITHOUT_TRANSITION_CARD: 'EDGE_WITHOUT_TRANSITION_CARD',
  /** An edge whose successor does not open with its banner. */
  EDGE_WITHOUT_BANNER: 'EDGE_WITHOUT_BANNER',
  /** An edge whose successor's second event is not the initiating message, exactly. */
  EDGE_WITHOUT_INITIATING_MESSAGE: 'EDGE_WITHOUT_INITIATING_MESSAGE',
  /** A manifest whose hash is not the hash of its content. */
  MANIFEST_HASH_MISMATCH: 'MANIFEST_HASH_MISMATCH',
  /** A run left RUNNING past its lease and the grace period: no heartbeat renewed it and no worker took it over. */
  LEASE_EXPIRED: 'LEASE_EXPIRED',
  /** A RUNNING run with no lease (no worker can take it over), or a lease on a run that is not RUNNING. */
  LEASE_INCONSISTENT: 'LEASE_INCONSISTENT',
} as const;
export type ViolationCode = (typeof ViolationCode)[keyof typeof ViolationCode];

/** An event as stored, with what its hash covers. */
export interface StoredEvent extends EventContent {
  id: string;
  hash: string;
  /** Set when an erasure removed the content: the hash stays as recorded and cannot be recomputed. */
  erasedAt?: Date | string | null;
}

/** A session's stored totals, which its events must agree with. */
export interface StoredSession {
  id: string;
  status: string;
  eventCount: number;
  lastEventHash: string;
  /** Continuation edges from this session. */
  successorCount: number;
}

/**
 * Follows one session's events in seq order, a page at a time: recomputes each hash from the
 * previous event's stored hash (so one altered event is one violation) and checks that seq runs
 * from 1 without gaps. An erased event's content is gone, so its hash is taken as recorded and
 * counted apart: the chain still verifies around it, from the events before to those after.
 * `finish` checks the session's totals against what it saw.
 */
export class TranscriptCheck {
  private previousHash = GENESIS_HASH;
  private lastSeq = 0;
  private count = 0;
  /** Erased events seen: reported apart from violations. */
  erased = 0;

  constructor(private readonly session: StoredSession) {}

  event(event: StoredEvent): Violation[] {
    const violations: Violation[] = [];
    const ids = { sessionId: this.session.id, eventId: event.id };
    if (event.seq !== this.lastSeq + 1) {
      violations.push({
        code: ViolationCode.SEQ_GAP,
        message: `Event seq ${event.seq} follows seq ${this.lastSeq}; expected ${this.lastSeq + 1}.`,
        ids,
      });
    }
    const expected = event.erasedAt ? event.hash : eventHash(this.previousHash, event);
    if (event.erasedAt) this.erased += 1;
    if (expected !== event.hash) {
      violations.push({
        code: ViolationCode.EVENT_HASH_MISMATCH,
        message: `Event seq ${event.seq} has hash ${event.hash}; its content and the previous hash give ${expected}.`,
        ids,
      });
    }
    this.previousHash = event.hash;
    this.lastSeq = event.seq;
    this.count += 1;
    return violations;
  }

  finish(): Violation[] {
    const { session } = this;
    const violations: Violation[] = [];
    const ids = { sessionId: session.id };
    if (session.eventCount !== this.count || session.eventCount !== this.lastSeq) {
      violations.push({
        code: ViolationCode.SESSION_TOTALS_MISMATCH,
        message: `The session counts ${session.eventCount} events; it has ${this.count}, the last with seq ${this.lastSeq}.`,
        ids,
      });
    }
    if (session.lastEventHash !== this.previousHash) {
      violations.push({
        code: ViolationCode.SESSION_TOTALS_MISMATCH,
        message: `The session's last hash is "${session.lastEventHash}"; its last event's is "${this.previousHash}".`,
        ids,
      });
    }
    if (session.status === 'CONTINUED' && session.successorCount === 0) {
      violations.push({ code: ViolationCode.CONTINUED_WITHOUT_SUCCESSOR, message: 'The session is CONTINUED but no edge leads to a successor.', ids });
    }
    return violations;
  }
}

/** An edge with what must exist beside it: its manifest, the predecessor's card, the successor's first two events. */
export interface StoredEdge {
  id: string;
  predecessorId: string;
  successorId: string;
  initiatingEventId: string;
  manifest: { id: string; predecessorId: string; successorId: string; initiatingEventId: string } | null;
  /** The predecessor's CONTINUATION event whose role is transition_card for this edge. */
  transitionCardId: string | null;
  banner: { id: string; kind: string; data: unknown } | null;
  /** The successor's second event. */
  opening: { id: string; kind: string; text: string | null; replayOfId: string | null; attachmentCids: string[]; erased?: boolean } | null;
  initiatingText: string | null;
  /** Whether the initiating message's content was erased: its replay then cannot be compared with it. */
  initiatingErased?: boolean;
  /** The attachments the initiating message links, which its replay links too. */
  initiatingAttachmentCids: string[] | null;
}

/**
 * The continuation written whole: a manifest naming the edge's sessions and initiating event, the
 * predecessor's transition card, and the successor opening with its banner and then the initiating
 * message, replayed exactly with the same attachments (or, for a branch, the new message itself).
 */
export function edgeViolations(edge: StoredEdge): Violation[] {
  const violations: Violation[] = [];
  const ids = { edgeId: edge.id, predecessorId: edge.predecessorId, successorId: edge.successorId };
  const { manifest } = edge;
  if (!manifest) {
    violations.push({ code: ViolationCode.EDGE_WITHOUT_MANIFEST, message: 'The edge has no projection manifest.', ids });
  } else if (
    manifest.predecessorId !== edge.predecessorId ||
    manifest.successorId !== edge.successorId ||
    manifest.initiatingEventId !== edge.initiatingEventId
  ) {
    violations.push({
      code: ViolationCode.EDGE_WITHOUT_MANIFEST,
      message: 'The manifest names other sessions or another initiating event than its edge.',
      ids: { ...ids, manifestId: manifest.id },
    });
  }
  if (!edge.transitionCardId) {
    violations.push({ code: ViolationCode.EDGE_WITHOUT_TRANSITION_CARD, message: 'The predecessor has no transition card for the edge.', ids });
  }
  const bannerData = edge.banner?.data as { role?: unknown; edgeId?: unknown } | null | undefined;
  if (!edge.banner || edge.banner.kind !== EventKind.CONTINUATION || bannerData?.role !== 'banner' || bannerData.edgeId !== edge.id) {
    violations.push({
      code: ViolationCode.EDGE_WITHOUT_BANNER,
      message: "The successor's first event is not the edge's banner.",
      ids: edge.banner ? { ...ids, eventId: edge.banner.id } : ids,
    });
  }
  const { opening } = edge;
  const erased = opening?.erased === true || edge.initiatingErased === true;
  const replayed =
    opening?.replayOfId === edge.initiatingEventId &&
    (erased || (opening.text === edge.initiatingText && canonicalJson(opening.attachmentCids) === canonicalJson(edge.initiatingAttachmentCids ?? [])));
  const branched = opening?.replayOfId == null && opening?.id === edge.initiatingEventId;
  if (!opening || opening.kind !== EventKind.USER_MESSAGE || !(replayed || branched)) {
    violations.push({
      code: ViolationCode.EDGE_WITHOUT_INITIATING_MESSAGE,
      message: "The successor's second event is not the initiating message replayed exactly.",
      ids: { ...ids, initiatingEventId: edge.initiatingEventId, ...(opening ? { eventId: opening.id } : {}) },
    });
  }
  return violations;
}

/** A manifest as stored: its content and the hash written with it; an erased one keeps its hash as recorded, unchecked. */
export function manifestViolations(manifest: ManifestContent & { hash: string; erasedAt?: Date | string | null }): Violation[] {
  const { hash, erasedAt, ...content } = manifest;
  if (erasedAt) return [];
  const expected = manifestHash(content);
  return expected === hash
    ? []
    : [
        {
          code: ViolationCode.MANIFEST_HASH_MISMATCH,
          message: `The manifest has hash ${hash}; its content gives ${expected}.`,
          ids: { manifestId: manifest.id, edgeId: manifest.edgeId },
        },
      ];
}

export interface StoredRun {
  id: string;
  sessionId: string;
  status: string;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
}

/**
 * A RUNNING run is held by a lease that its worker's heartbeat renews; once the lease expires,
 * any worker takes the run over within its poll interval. So a run still RUNNING under a lease
 * that expired more than `graceMs` before the database's `now` is stranded. A RUNNING run without
 * a lease can never be taken over, and a settled or queued run holds none.
 */
export function runViolations(run: StoredRun, now: Date, graceMs: number): Violation[] {
  const ids = { runId: run.id, sessionId: run.sessionId };
  if (run.status === 'RUNNING' && run.leaseExpiresAt === null) {
    return [{ code: ViolationCode.LEASE_INCONSISTENT, message: 'The run is RUNNING without a lease.', ids }];
  }
  if (run.status !== 'RUNNING' && run.leaseOwner !== null) {
    return [{ code: ViolationCode.LEASE_INCONSISTENT, message: `The run is ${run.status} but still leased to ${run.leaseOwner}.`, ids }];
  }
  if (run.status === 'RUNNING' && run.leaseExpiresAt !== null && now.getTime() - run.leaseExpiresAt.getTime() > graceMs) {
    return [
      {
        code: ViolationCode.LEASE_EXPIRED,
        message: `The run's lease (held by ${run.leaseOwner}) expired at ${run.leaseExpiresAt.toISOString()}, more than ${graceMs} ms ago, and no worker took it over.`,
        ids,
      },
    ];
  }
  return [];
}
