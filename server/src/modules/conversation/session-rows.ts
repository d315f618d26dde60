import { SessionEntity } from './session.entity';
import { ContinuationApproval, SessionKind, SessionStatus, TITLE_MAX_CHARS } from './sessions';
import { GENESIS_HASH } from './transcript';
import { newRowId } from '../../shared/ids';

/**
 * A session title within the limit: `title` (trimmed) is cut with an ellipsis when it does not
 * fit beside `prefix` and `suffix`, which are kept whole.
 */
export function sessionTitle(title: string, { prefix = '', suffix = '' }: { prefix?: string; suffix?: string } = {}): string {
  const room = TITLE_MAX_CHARS - prefix.length - suffix.length;
  const core = title.trim();
  return prefix + (core.length > room ? `${core.slice(0, room - 1)}…` : core) + suffix;
}

interface NewSession {
  accountId: string;
  title: string;
  description?: string | null;
  continuationApproval: ContinuationApproval;
  createdAt?: Date;
}

/** Every new session starts empty, ACTIVE, at the start of its hash chain; its kind decides the rest. */
function newSession(kind: SessionKind, fields: NewSession, lineage: Partial<SessionEntity>): SessionEntity {
  const id = newRowId();
  return Object.assign(new SessionEntity(), {
    id,
    accountId: fields.accountId,
    kind,
    status: SessionStatus.ACTIVE,
    title: fields.title,
    description: fields.description ?? null,
    createdAt: fields.createdAt ?? new Date(),
    originId: id,
    lineageDepth: 0,
    continuationStreak: 0,
    parentId: null,
    forkedFromEventId: null,
    continuationApproval: fields.continuationApproval,
    eventCount: 0,
    tokenCount: 0,
    lastEventHash: GENESIS_HASH,
    erasedAt: null,
    ...lineage,
  });
}

/** A ROOT session: no inherited conversational lineage. */
export function rootSession(fields: NewSession): SessionEntity {
  return newSession(SessionKind.ROOT, fields, {});
}

/** A FORK: an alternative path whose history, up to `forkedFromEventId`, is referenced, not copied. */
export function forkSession(fields: NewSession & { forkedFromEventId: string }): SessionEntity {
  return newSession(SessionKind.FORK, fields, { forkedFromEventId: fields.forkedFromEventId });
}

/** A CHILD session doing delegated work for `parentId`, expected to report back. */
export function childSession(fields: NewSession & { parentId: string }): SessionEntity {
  return newSession(SessionKind.CHILD, fields, { parentId: fields.parentId });
}

/** A CONTINUATION of `predecessor`: one step deeper in its lineage, with the approval mode it had. */
export function continuationSession(fields: Omit<NewSession, 'continuationApproval'> & { predecessor: SessionEntity; continuationStreak: number }): SessionEntity {
  const { predecessor } = fields;
  return newSession(
    SessionKind.CONTINUATION,
    { ...fields, continuationApproval: predecessor.continuationApproval },
    { originId: predecessor.originId, lineageDepth: predecessor.lineageDepth + 1, continuationStreak: fields.continuationStreak },
  );
}
