import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { ErrorCode } from '../../../shared/errors';
import { failureError, toPayload, valueOrThrow } from '../../../shared/graphql/errors';
import type { OperationError } from '../../../shared/graphql/operation-error.type';
import type { WebhookDeliveryEntity } from '../webhook-delivery.entity';
import type { WebhookEndpointEntity } from '../webhook-endpoint.entity';
import { DELIVERIES_PAGE_MAX } from '../webhooks';
import type { WebhooksContext } from '../webhooks.context';
import { CreateWebhookEndpointInput, CreateWebhookEndpointResult, CreateWebhookEndpointSuccess, WebhookDelivery, WebhookEndpoint } from './webhook.type';

// The secret stays out of the API type: only the create payload carries it, once.
const endpointOf = ({ id, url, events, description, createdAt, disabledAt }: WebhookEndpointEntity) =>
  Object.assign(new WebhookEndpoint(), { id, url, events, description, createdAt, disabledAt });
const deliveryOf = (entity: WebhookDeliveryEntity) => Object.assign(new WebhookDelivery(), entity);

@Resolver(() => WebhookEndpoint)
export class WebhookResolver {
  @Query(() => [WebhookEndpoint], { description: "The viewer's account's webhook endpoints, oldest first (ADMIN scope)." })
  async webhookEndpoints(@Ctx() ctx: WebhooksContext): Promise<WebhookEndpoint[]> {
    return (await ctx.services.webhooks.endpoints(ctx.viewer)).map(endpointOf);
  }

  @Mutation(() => CreateWebhookEndpointResult, {
    description: 'Registers an endpoint for event types (ADMIN scope); its secret is in the answer and never shown again. Events from then on are POSTed to it, signed.',
  })
  async createWebhookEndpoint(
    @Arg('input', { description: 'The URL, the event types and a description.' }) input: CreateWebhookEndpointInput,
    @Ctx() ctx: WebhooksContext,
  ): Promise<CreateWebhookEndpointSuccess | OperationError> {
    return toPayload(await ctx.services.webhooks.createEndpoint(ctx.viewer, input), ({ endpoint, secret }) =>
      Object.assign(new CreateWebhookEndpointSuccess(), { endpoint: endpointOf(endpoint), secret }),
    );
  }

  @Mutation(() => WebhookEndpoint, { nullable: true, description: 'Deletes an endpoint and its deliveries (ADMIN scope); null when there is no such endpoint.' })
  async deleteWebhookEndpoint(@Arg('id', () => ID, { description: "The endpoint (null for another account's)." }) id: string, @Ctx() ctx: WebhooksContext): Promise<WebhookEndpoint | null> {
    const deleted = await ctx.services.webhooks.deleteEndpoint(ctx.viewer, id);
    return deleted && endpointOf(deleted);
  }

  @Mutation(() => WebhookDelivery, { nullable: true, description: 'Sends a delivery again now, with its original webhook-id (ADMIN scope); null when there is no such delivery, or no longer: an ended one is deleted once past the server\'s delivery retention.' })
  async redeliverWebhook(@Arg('deliveryId', () => ID, { description: "The delivery (null for another account's)." }) deliveryId: string, @Ctx() ctx: WebhooksContext): Promise<WebhookDelivery | null> {
    const delivery = valueOrThrow(await ctx.services.webhooks.redeliver(ctx.viewer, deliveryId));
    return delivery && deliveryOf(delivery);
  }

  @FieldResolver(() => [WebhookDelivery], { description: 'Newest first. An ended delivery (DELIVERED or FAILED) is deleted once past the server\'s delivery retention (30 days unless configured): older history is gone.' })
  async deliveries(
    @Root() endpoint: WebhookEndpoint,
    @Ctx() ctx: WebhooksContext,
    @Arg('first', () => Int, { nullable: true, description: `How many, from 1 to ${DELIVERIES_PAGE_MAX}; 20 when absent.` }) first?: number | null,
  ): Promise<WebhookDelivery[]> {
    const count = first ?? 20;
    if (count < 1 || count > DELIVERIES_PAGE_MAX) {
      const message = `first must be from 1 to ${DELIVERIES_PAGE_MAX}.`;
      throw failureError({ code: ErrorCode.INVALID_INPUT, message, details: [{ path: ['first'], message }] });
    }
    return (await ctx.services.webhooks.deliveries(endpoint.id, count)).map(deliveryOf);
  }
}
