import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode, Outcome, fail, succeed } from '../../shared/errors';
import { isId, newRowId } from '../../shared/ids';
import type { Viewer } from '../../shared/viewer';
import { destinationRefusal } from './destination';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { requeueDelivery } from './webhook.repository';
import { ENDPOINTS_PER_ACCOUNT_MAX, EndpointRequest, WebhookSettings, validateEndpoint } from './webhooks';

export interface CreatedEndpoint {
  endpoint: WebhookEndpointEntity;
  /** `whsec_` and the base64 key: returned here only. */
  secret: string;
}

/**
 * An account's webhook endpoints and their deliveries: registering (the URL checked against the
 * network rules), listing, deleting and redelivering. The deliveries themselves are written by
 * the outbox and sent by {@link WebhookDeliveryWorker}.
 */
export class WebhookService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: Pick<WebhookSettings, 'allowHttp' | 'allowPrivateNetworks'>,
    /** Tells this process's delivery worker that a delivery is due now. */
    private readonly deliveryDue: () => void = () => undefined,
  ) {}

  /**
   * Registers an endpoint; returns it with its secret, which is never shown again. Fails with
   * INVALID_INPUT for a URL that is not https (unless allowed), does not resolve, or resolves to a
   * loopback, private, link-local or metadata address (unless allowed), for no event types, or
   * past the account's number of endpoints.
   */
  async createEndpoint(viewer: Viewer, request: EndpointRequest): Promise<Outcome<CreatedEndpoint>> {
    const details = validateEndpoint(request, this.settings.allowHttp);
    if (details.length > 0) return fail(ErrorCode.INVALID_INPUT, details[0].message, details);
    const refusal = this.settings.allowPrivateNetworks ? null : await destinationRefusal(new URL(request.url));
    if (refusal) return fail(ErrorCode.INVALID_INPUT, refusal, [{ path: ['input', 'url'], message: refusal }]);
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const endpoint = Object.assign(new WebhookEndpointEntity(), {
      id: newRowId(),
      accountId: viewer.accountId,
      url: request.url,
      events: [...new Set(request.events)],
      description: request.description?.trim() || null,
      secret,
      createdAt: new Date(),
      disabledAt: null,
      failingSince: null,
    });
    const added = await this.dataSource.transaction(async (manager) => {
      // Serializes the account's registrations, so that the count holds.
      await manager.query(`SELECT id FROM accounts WHERE id = $1 FOR UPDATE`, [viewer.accountId]);
      if ((await manager.countBy(WebhookEndpointEntity, { accountId: viewer.accountId })) >= ENDPOINTS_PER_ACCOUNT_MAX) return false;
      await manager.insert(WebhookEndpointEntity, endpoint);
      return true;
    });
    if (!added) {
      const message = `An account has at most ${ENDPOINTS_PER_ACCOUNT_MAX} webhook endpoints: delete one first.`;
      return fail(ErrorCode.INVALID_INPUT, message, [{ path: ['input'], message }]);
    }
    return succeed({ endpoint, secret });
  }

  /** The viewer's account's endpoints, oldest first. */
  endpoints(viewer: Viewer): Promise<WebhookEndpointEntity[]> {
    return this.dataSource.manager.find(WebhookEndpointEntity, { where: { accountId: viewer.accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Deletes an endpoint of the viewer's account with its deliveries; returns it, or null when unknown. */
  async deleteEndpoint(viewer: Viewer, id: string): Promise<WebhookEndpointEntity | null> {
    if (!isId(id)) return null;
    return this.dataSource.transaction(async (manager) => {
      const endpoint = await manager.findOneBy(WebhookEndpointEntity, { id, accountId: viewer.accountId });
      if (endpoint) await manager.delete(WebhookEndpointEntity, { id });
      return endpoint;
    });
  }

  /** An endpoint's deliveries, newest first. */
  deliveries(endpointId: string, first: number): Promise<WebhookDeliveryEntity[]> {
    return this.dataSource.manager.find(WebhookDeliveryEntity, { where: { endpointId }, order: { createdAt: 'DESC', id: 'DESC' }, take: first });
  }

  /**
   * Sends a delivery of the viewer's account again now, under its original id, with the retry
   * schedule anew; null when unknown. Fails with INVALID_INPUT when its endpoint was disabled.
   */
  async redeliver(viewer: Viewer, deliveryId: string): Promise<Outcome<WebhookDeliveryEntity | null>> {
    if (!isId(deliveryId)) return succeed(null);
    const outcome = await this.dataSource.transaction(async (manager): Promise<Outcome<WebhookDeliveryEntity | null>> => {
      const delivery = await manager.findOneBy(WebhookDeliveryEntity, { id: deliveryId, accountId: viewer.accountId });
      if (!delivery) return succeed(null);
      const endpoint = await manager.findOneByOrFail(WebhookEndpointEntity, { id: delivery.endpointId });
      if (endpoint.disabledAt) {
        const message = 'Its endpoint was disabled after failing for too long: register the endpoint again.';
        return fail(ErrorCode.INVALID_INPUT, message, [{ path: ['deliveryId'], message }]);
      }
      return succeed(await requeueDelivery(manager, viewer.accountId, deliveryId));
    });
    if (outcome.ok && outcome.value) this.deliveryDue();
    return outcome;
  }
}
