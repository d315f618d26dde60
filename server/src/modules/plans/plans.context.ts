import DataLoader from 'dataloader';
import type { Viewer } from '../../shared/viewer';
import type { ConversationContext, ConversationLoaders, ConversationServices } from '../conversation/graphql/conversation.context';
import type { PlanRevisionEntity } from './plan-revision.entity';
import type { PlanService } from './plans.service';

export interface PlanServices extends ConversationServices {
  plans: PlanService;
}

export interface PlanLoaders extends ConversationLoaders {
  planBySessionId: DataLoader<string, PlanRevisionEntity | null>;
}

export interface PlansContext extends ConversationContext {
  services: PlanServices;
  loaders: PlanLoaders;
}

/** The plans module's own loaders; the conversation's come from its module. */
export function planLoaders(_viewer: Viewer, services: PlanServices): Pick<PlanLoaders, 'planBySessionId'> {
  return { planBySessionId: new DataLoader((ids) => services.plans.plansBySessionIds(ids)) };
}
