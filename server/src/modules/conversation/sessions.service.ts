import { DataSource } from 'typeorm';
import { accountRows } from '../../platform/db/rows';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../shared/errors';
import { isId } from '../../shared/ids';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, validatePageSize } from '../../shared/pagination';
import { SessionKind, SessionStatus, validateSessionText, ContinuationApproval } from './sessions';
import { forkSession, rootSession, sessionTitle } from './session-rows';
import { SessionEntity } from './session.entity';
import { alignMany, alignOne } from '../../shared/batch';
import { EventEntity } from './event.entity';
import { Viewer } from '../../shared/viewer';

export interface SessionListArgs {
  first?: number | null;
  after?: string | null;
  status?: SessionStatus | null;
  rootsOnly?: boolean | null;
}

export interface SessionPage {
  sessions: SessionEntity[];
  cursors: string[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  totalCount: number;
}

const SESSION_CURSOR = 'session';

/** Kinds that start a lineage of their own: no predecessor and no parent. */
const ROOT_KINDS: SessionKind[] = [SessionKind.ROOT, SessionKind.FORK];

function sessionCursor(session: SessionEntity): string {
  return encodeCursor(SESSION_CURSOR, `${session.createdAt.toISOString()}|${session.id}`);
}

export class SessionService {
  constructor(
    private readonly dataSource: DataSource,
    /** The approval mode of a new session that names none. */
    private readonly defaultApproval: ContinuationApproval = ContinuationApproval.AUTOMATIC,
  ) {}

  /** Creates an empty ROOT session. Fails with INVALID_INPUT for an empty or oversized title or description. */
  async createSession(
    viewer: Viewer,
    input: { title: string; description?: string | null; continuationApproval?: ContinuationApproval | null },
  ): Promise<Outcome<SessionEntity>> {
    const details = validateSessionText(input, ['input']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const session = rootSession({
      accountId: viewer.accountId,
      title: input.title.trim(),
      description: input.description,
      continuationApproval: input.continuationApproval ?? this.defaultApproval,
    });
    await this.dataSource.manager.insert(SessionEntity, session);
    return succeed(session);
  }

  /**
   * A FORK: an alternative path from an earlier event of any of the viewer's sessions. Its history
   * up to that event is referenced, not copied; its own transcript starts empty. Fails with
   * NOT_FOUND for an event outside the account, INVALID_INPUT for a bad title.
   */
  async forkSession(viewer: Viewer, input: { eventId: string; title?: string | null }): Promise<Outcome<SessionEntity>> {
    const manager = this.dataSource.manager;
    const event = isId(input.eventId) ? await manager.findOneBy(EventEntity, { id: input.eventId, accountId: viewer.accountId }) : null;
    if (!event) return notFound('event', ['input', 'eventId']);
    const source = await manager.findOneByOrFail(SessionEntity, { id: event.sessionId });
    const title = input.title ?? forkTitle(source.title, event.seq);
    const details = validateSessionText({ title }, ['input']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const fork = forkSession({ accountId: viewer.accountId, title: title.trim(), continuationApproval: this.defaultApproval, forkedFromEventId: event.id });
    await manager.insert(SessionEntity, fork);
    return succeed(fork);
  }

  /** Child sessions (delegated work) of each parent, oldest first, aligned with `parentIds`: a DataLoader batch function. */
  async childrenOf(accountId: string, parentIds: readonly string[]): Promise<SessionEntity[][]> {
    const rows = await accountRows(this.dataSource.manager, SessionEntity, 'parent_id', accountId, parentIds, 'ORDER BY created_at, id');
    return alignMany(parentIds, rows, (session) => session.parentId!);
  }

  /** The viewer's session, or null when it does not exist in the viewer's account. */
  async findSession(viewer: Viewer, id: string): Promise<SessionEntity | null> {
    return (await this.sessionsByIds(viewer.accountId, [id]))[0];
  }

  /** Sessions of one account by id, aligned with `ids` (null where absent): a DataLoader batch function. */
  async sessionsByIds(accountId: string, ids: readonly string[]): Promise<(SessionEntity | null)[]> {
    const rows = await accountRows(this.dataSource.manager, SessionEntity, 'id', accountId, ids);
    return alignOne(ids, rows, (session) => session.id);
  }

  /** The viewer's sessions, newest first, keyset-paginated on (createdAt, id). */
  async listSessions(viewer: Viewer, args: SessionListArgs): Promise<Outcome<SessionPage>> {
    const details = validatePageSize('first', args.first);
    let afterKey: [string, string] | null = null;
    if (args.after != null) {
      const decoded = decodeCursor(SESSION_CURSOR, args.after)?.split('|');
      if (!decoded || decoded.length !== 2 || Number.isNaN(Date.parse(decoded[0])) || !isId(decoded[1])) {
        details.push({ path: ['after'], message: 'after is not a cursor of this list.' });
      } else {
        afterKey = [decoded[0], decoded[1]];
      }
    }
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);

    const filtered = () => {
      const query = this.dataSource.manager
        .createQueryBuilder(SessionEntity, 'session')
        .where('session.accountId = :accountId', { accountId: viewer.accountId });
      if (args.status) query.andWhere('session.status = :status', { status: args.status });
      if (args.rootsOnly) query.andWhere('session.kind IN (:...rootKinds)', { rootKinds: ROOT_KINDS });
      return query;
    };
    const first = args.first ?? DEFAULT_PAGE_SIZE;
    const page = filtered().orderBy('session.createdAt', 'DESC').addOrderBy('session.id', 'DESC').take(first + 1);
    if (afterKey) {
      page.andWhere('(session.createdAt, session.id) < (:afterCreatedAt, :afterId)', {
        afterCreatedAt: afterKey[0],
        afterId: afterKey[1],
      });
    }
    const [rows, totalCount] = await Promise.all([page.getMany(), filtered().getCount()]);
    const sessions = rows.slice(0, first);
    return succeed({
      sessions,
      cursors: sessions.map(sessionCursor),
      hasNextPage: rows.length > first,
      hasPreviousPage: afterKey !== null,
      totalCount,
    });
  }
}

function forkTitle(title: string, seq: number): string {
  return sessionTitle(title, { suffix: ` (fork at #${seq})` });
}
