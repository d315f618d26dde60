import './plan.enums';
import { PlanResolver, SessionPlanResolver } from './plan.resolver';

/** A session's plan, revision by revision. */
export const plansResolvers = [PlanResolver, SessionPlanResolver] as const;
