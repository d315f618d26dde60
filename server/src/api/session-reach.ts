import type { DataSource } from 'typeorm';
import { ancestryOrigins } from '../modules/conversation/session-reach.repository';
import { isId } from '../shared/ids';
import type { Viewer } from '../shared/viewer';

/** Things an argument can name, each belonging to one session. */
export type SessionThing = 'session' | 'event' | 'run' | 'proposal' | 'manifest';

/** The session each kind of thing belongs to, by the thing's id. */
const SESSION_OF: Record<Exclude<SessionThing, 'session'>, string> = {
  event: 'SELECT session_id FROM events WHERE id = $1 AND account_id = $2',
  run: 'SELECT session_id FROM runs WHERE id = $1 AND account_id = $2',
  proposal: 'SELECT session_id FROM continuation_proposals WHERE id = $1 AND account_id = $2',
  manifest: 'SELECT successor_id AS session_id FROM projection_manifests WHERE id = $1 AND account_id = $2',
};

/**
 * Whether a session-limited key reaches a session: its ancestry (lineage, then the sessions forks
 * and delegations came from) passes through an origin the key's sessions have. Answers are kept
 * per viewer: ancestry never changes, and a viewer lives as long as its key is cached.
 */
export class SessionReach {
  private readonly known = new WeakMap<Viewer, Map<string, Promise<boolean>>>();

  constructor(private readonly dataSource: DataSource) {}

  /** Whether the viewer reaches the thing; true for a viewer with no session limit. */
  reaches(viewer: Viewer, thing: SessionThing, id: string): Promise<boolean> {
    if (!viewer.reach) return Promise.resolve(true);
    if (!isId(id)) return Promise.resolve(false);
    let answers = this.known.get(viewer);
    if (!answers) this.known.set(viewer, (answers = new Map()));
    const key = `${thing}:${id}`;
    let answer = answers.get(key);
    if (!answer) {
      answer = this.look(viewer, thing, id);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
    }
    return answer;
  }

  private async look(viewer: Viewer, thing: SessionThing, id: string): Promise<boolean> {
    const manager = this.dataSource.manager;
    let sessionId: string | undefined = id;
    if (thing !== 'session') {
      const rows = (await manager.query(SESSION_OF[thing], [id, viewer.accountId])) as { session_id: string }[];
      sessionId = rows[0]?.session_id;
    }
    if (!sessionId) return false;
    const origins = await ancestryOrigins(manager, viewer.accountId, sessionId);
    return origins.some((origin) => viewer.reach!.originIds.includes(origin));
  }
}

/** The session an object the API returns belongs to, by its shape; null for an object of no session. */
export function sessionOfObject(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  if (typeof record.sessionId === 'string') return record.sessionId;
  if (typeof record.successorId === 'string') return record.successorId;
  if (typeof record.originId === 'string' && typeof record.id === 'string') return record.id;
  return null;
}
