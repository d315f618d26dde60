import DataLoader from 'dataloader';
import type { LoaderFactories } from '../../shared/graphql/lazy-loaders';
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
export const planLoaders: LoaderFactories<Pick<PlanLoaders, 'planBySessionId'>, PlanServices> = {
  planBySessionId: (_viewer, services) => new DataLoader((ids) => services.plans.plansBySessionIds(ids)),
};
