import { lazyLoaders } from '../shared/graphql/lazy-loaders';
import type { AccountsContext } from '../modules/accounts/accounts.context';
import { lifecycleLoaders, LifecycleContext, LifecycleServices } from '../modules/lifecycle/lifecycle.context';
import { conversationLoaders } from '../modules/conversation/graphql/conversation.context';
import { continuationLoaders, ContinuationContext, ContinuationServices } from '../modules/continuation/graphql/continuation.context';
import { planLoaders } from '../modules/plans/plans.context';
import type { ResourcesContext } from '../modules/resources/resources.context';
import type { SearchContext } from '../modules/search/search.context';
import type { AccountService } from '../modules/accounts/accounts.service';
import type { ApiKeyService } from '../modules/accounts/api-keys.service';
import type { ResourceService } from '../modules/resources/resources.service';
import type { SearchService } from '../modules/search/search.service';
import type { Viewer } from '../shared/viewer';
import type { WebhooksContext, WebhookServices } from '../modules/webhooks/webhooks.context';
import type { AppPubSub } from './pubsub';
import type { SessionReach } from './session-reach';

/** Every module's services, as the composition root builds them. */
export interface Services extends ContinuationServices, LifecycleServices, WebhookServices {
  accounts: AccountService;
  apiKeys: ApiKeyService;
  resources: ResourceService;
  search: SearchService;
}

/** An operation's context: what every module's resolvers ask of it. */
export type Context = AccountsContext & ResourcesContext & SearchContext & ContinuationContext & LifecycleContext & WebhooksContext & {
  services: Services;
  pubSub: AppPubSub;
  sessionReach: SessionReach;
};

const createLoaders = lazyLoaders<Context['loaders'], Services>({
  ...conversationLoaders,
  ...planLoaders,
  ...continuationLoaders,
  ...lifecycleLoaders,
});

/** A new context for one operation (or one subscription, whose events each refresh its loaders). */
export function createContext(viewer: Viewer, services: Services, pubSub: AppPubSub, sessionReach: SessionReach): Context {
  const context: Context = {
    viewer,
    services,
    pubSub,
    sessionReach,
    loaders: createLoaders(viewer, services),
    refreshLoaders() {
      context.loaders = createLoaders(viewer, services);
    },
  };
  return context;
}
