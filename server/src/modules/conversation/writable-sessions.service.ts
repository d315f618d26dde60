import type { EntityManager } from 'typeorm';
import { ErrorCode, OperationFailure } from '../../shared/errors';
import type { SessionEntity } from './session.entity';
import { SessionStatus, erasedSessionFailure } from './sessions';

/** The session at the end of the newest continuation chain from `sessionId`; the continuation module answers it. */
export type CurrentContinuationLookup = (manager: EntityManager, accountId: string, sessionId: string) => Promise<SessionEntity | null>;

/**
 * The one rule that a continued or erased session takes no more writes: every write to a session asks here.
 * The refusal is SESSION_CONTINUED, naming where the conversation went, or INVALID_INPUT for an erased one.
 */
export class WritableSessions {
  constructor(private readonly currentContinuation: CurrentContinuationLookup) {}

  /**
   * Null when `session` takes writes; else the refusal, whose message ends with `whatToDo` and
   * whose detail is addressed at `path`. Read inside the write's transaction, after its lock.
   */
  async refusal(manager: EntityManager, session: SessionEntity, path: string[], whatToDo: string): Promise<OperationFailure | null> {
    if (session.erasedAt) return erasedSessionFailure(path);
    if (session.status !== SessionStatus.CONTINUED) return null;
    const current = await this.currentContinuation(manager, session.accountId, session.id);
    return {
      code: ErrorCode.SESSION_CONTINUED,
      message: `This session was continued: ${whatToDo}`,
      details: [{ path, message: 'The session is CONTINUED and read-only.' }],
      currentContinuationId: current?.id,
    };
  }
}
