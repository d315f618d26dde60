import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { WritableSessions } from '../conversation/writable-sessions.service';
import { ErrorCode, Outcome, fail, succeed, notFound } from '../../shared/errors';
import { isId } from '../../shared/ids';
import { PlanStepStatus, validatePlanSteps } from './plans';
import { PlanRevisionEntity } from './plan-revision.entity';
import { appendPlanRevision, latestPlan, latestPlans } from './plan.repository';
import { lockSession } from '../conversation/transcript.repository';
import { Viewer } from '../../shared/viewer';

export interface UpdatePlanInput {
  sessionId: string;
  expectedRevision?: number | null;
  steps: { id?: string | null; title: string; status: PlanStepStatus }[];
  closed?: boolean | null;
}

export class PlanService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly writable: WritableSessions,
  ) {}

  /** The current plan of each session, aligned with `sessionIds`: a DataLoader batch function. */
  plansBySessionIds(sessionIds: readonly string[]): Promise<(PlanRevisionEntity | null)[]> {
    return latestPlans(this.dataSource.manager, sessionIds);
  }

  /**
   * Writes the plan's next revision; steps without an id get a new one. With `expectedRevision`,
   * refuses (INVALID_INPUT) when the plan has moved on since. NOT_FOUND for an unknown session,
   * SESSION_CONTINUED for a continued one (its plan is history).
   */
  async updatePlan(viewer: Viewer, input: UpdatePlanInput): Promise<Outcome<PlanRevisionEntity>> {
    const details = validatePlanSteps(input.steps);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    if (!isId(input.sessionId)) return notFound('session', ['input', 'sessionId']);
    return this.dataSource.transaction(async (manager) => {
      const session = await lockSession(manager, viewer.accountId, input.sessionId);
      if (!session) return notFound('session', ['input', 'sessionId']);
      const refusal = await this.writable.refusal(manager, session, ['input', 'sessionId'], 'update the plan in its current continuation.');
      if (refusal) return { ok: false, error: refusal };
      const current = await latestPlan(manager, session.id);
      const currentRevision = current?.revision ?? 0;
      if (input.expectedRevision != null && input.expectedRevision !== currentRevision) {
        return fail(
          ErrorCode.INVALID_INPUT,
          `The plan is at revision ${currentRevision}, not ${input.expectedRevision}: read it again and reapply the change.`,
          [{ path: ['input', 'expectedRevision'], message: `The current revision is ${currentRevision}.` }],
        );
      }
      const steps = input.steps.map((step) => ({ id: step.id ?? randomUUID(), title: step.title.trim(), status: step.status }));
      return succeed(await appendPlanRevision(manager, session, current, { closed: input.closed ?? false, steps }));
    });
  }
}
