import { EntityManager, In } from 'typeorm';
import type { PlanStep } from './plans';
import { PlanRevisionEntity } from './plan-revision.entity';
import { entitiesRead, firstOf } from '../../platform/db/rows';
import { Read, runRead } from '../../platform/db/read-batch';
import { newRowId } from '../../shared/ids';

/** The newest revision of a session's plan, or null when it never had one. */
export function latestPlan(manager: EntityManager, sessionId: string): Promise<PlanRevisionEntity | null> {
  return runRead(manager, latestPlanRead(manager, sessionId));
}

/** {@link latestPlan} as a read, to run with others. */
export function latestPlanRead(manager: EntityManager, sessionId: string): Read<PlanRevisionEntity | null> {
  return firstOf(entitiesRead(manager, PlanRevisionEntity, 'WHERE session_id = $1 ORDER BY revision DESC LIMIT 1', [sessionId]));
}

/** The newest plan revision of each session, aligned with `sessionIds`. */
export async function latestPlans(manager: EntityManager, sessionIds: readonly string[]): Promise<(PlanRevisionEntity | null)[]> {
  const rows = sessionIds.length
    ? await manager
        .createQueryBuilder(PlanRevisionEntity, 'plan')
        .distinctOn(['plan.sessionId'])
        .where({ sessionId: In([...sessionIds]) })
        .orderBy('plan.sessionId')
        .addOrderBy('plan.revision', 'DESC')
        .getMany()
    : [];
  const bySession = new Map(rows.map((row) => [row.sessionId, row]));
  return sessionIds.map((id) => bySession.get(id) ?? null);
}

/** The revision after `previous` (revision 1 when there is none), not yet written. */
export function nextPlanRevision(
  session: { id: string; accountId: string },
  previous: PlanRevisionEntity | null,
  plan: { closed: boolean; steps: PlanStep[] },
  createdAt: Date,
): PlanRevisionEntity {
  return Object.assign(new PlanRevisionEntity(), {
    id: newRowId(),
    accountId: session.accountId,
    sessionId: session.id,
    revision: (previous?.revision ?? 0) + 1,
    closed: plan.closed,
    steps: plan.steps,
    createdAt,
  });
}

/** Writes the next revision after `previous`. */
export async function appendPlanRevision(
  manager: EntityManager,
  session: { id: string; accountId: string },
  previous: PlanRevisionEntity | null,
  plan: { closed: boolean; steps: PlanStep[] },
): Promise<PlanRevisionEntity> {
  const revision = nextPlanRevision(session, previous, plan, new Date());
  await manager.insert(PlanRevisionEntity, revision);
  return revision;
}
