import type { RequestContext } from '../../shared/graphql/request-context';
import type { WebhookService } from './webhooks.service';

export interface WebhookServices {
  webhooks: WebhookService;
}

export interface WebhooksContext extends RequestContext {
  services: WebhookServices;
}
