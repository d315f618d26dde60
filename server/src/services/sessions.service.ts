import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import { ErrorCode, Outcome, fail, succeed } from '../domain/errors';
import { isId } from '../domain/ids';
import { DEFAULT_PAGE_SIZE, decodeCursor, encodeCursor, validatePageSize } from '../domain/pagination';
import { SessionKind, SessionStatus, validateSessionText } from '../domain/sessions';
import { SessionEntity } from '../db/entities/session.entity';
import { alignOne } from './batch';
import { Viewer } from './viewer';

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
  constructor(private readonly dataSource: DataSource) {}

  /** Creates an empty ROOT session. Fails with INVALID_INPUT for an empty or oversized title or description. */
  async createSession(
    viewer: Viewer,
    input: { title: string; description?: string | null },
  ): Promise<Outcome<SessionEntity>> {
    const details = validateSessionText(input, ['input']);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const id = randomUUID();
    const session = this.dataSource.manager.create(SessionEntity, {
      id,
      originId: id,
      accountId: viewer.accountId,
      kind: SessionKind.ROOT,
      status: SessionStatus.ACTIVE,
      title: input.title.trim(),
      description: input.description ?? null,
      createdAt: new Date(),
    });
    await this.dataSource.manager.insert(SessionEntity, session);
    return succeed(session);
  }

  /** The viewer's session, or null when it does not exist in the viewer's account. */
  findSession(viewer: Viewer, id: string): Promise<SessionEntity | null> {
    if (!isId(id)) return Promise.resolve(null);
    return this.dataSource.manager.findOneBy(SessionEntity, { id, accountId: viewer.accountId });
  }

  /** Sessions of one account by id, aligned with `ids` (null where absent): a DataLoader batch function. */
  async sessionsByIds(accountId: string, ids: readonly string[]): Promise<(SessionEntity | null)[]> {
    const validIds = ids.filter(isId);
    const rows = validIds.length ? await this.dataSource.manager.findBy(SessionEntity, { id: In(validIds), accountId }) : [];
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
