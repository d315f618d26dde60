import { WebhookResolver } from './graphql/webhook.resolver';

/** Webhooks: endpoints, their deliveries, redelivery. */
export const webhooksResolvers = [WebhookResolver] as const;
