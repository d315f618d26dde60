import { ErrorDetail } from '../../shared/errors';

export const PlanStepStatus = {
  PENDING: 'PENDING',
  IN_PROGRESS: 'IN_PROGRESS',
  DONE: 'DONE',
  CANCELLED: 'CANCELLED',
} as const;
export type PlanStepStatus = (typeof PlanStepStatus)[keyof typeof PlanStepStatus];

export interface PlanStep {
  id: string;
  title: string;
  status: PlanStepStatus;
}

export const PLAN_LIMITS = { steps: 200, titleChars: 500, stepIdChars: 100 } as const;

/** Problems with a plan update's steps, addressed under `input.steps`. */
export function validatePlanSteps(steps: { id?: string | null; title: string }[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (steps.length > PLAN_LIMITS.steps) {
    details.push({ path: ['input', 'steps'], message: `A plan has at most ${PLAN_LIMITS.steps} steps.` });
  }
  const seen = new Set<string>();
  steps.forEach((step, index) => {
    const path = ['input', 'steps', String(index)];
    if (step.title.trim().length === 0 || step.title.length > PLAN_LIMITS.titleChars) {
      details.push({ path: [...path, 'title'], message: `A step title is 1 to ${PLAN_LIMITS.titleChars} characters.` });
    }
    if (step.id != null) {
      if (step.id.length === 0 || step.id.length > PLAN_LIMITS.stepIdChars) {
        details.push({ path: [...path, 'id'], message: `A step id is 1 to ${PLAN_LIMITS.stepIdChars} characters.` });
      } else if (seen.has(step.id)) {
        details.push({ path: [...path, 'id'], message: `Step id ${step.id} appears twice.` });
      }
      seen.add(step.id);
    }
  });
  return details;
}

/** The plan as the successor's STATE section shows it: every step with its id and status. */
export function renderPlan(revision: number, closed: boolean, steps: PlanStep[]): string {
  return [
    `plan revision ${revision}${closed ? ' (closed)' : ''}:`,
    ...steps.map((step) => `- [${step.status}] ${step.title} (step ${step.id})`),
  ].join('\n');
}
