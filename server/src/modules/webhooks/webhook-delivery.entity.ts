import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WebhookDeliveryStatus, WebhookEventType } from './webhooks';

/**
 * One event for one endpoint: the outbox row written with the change it reports, then the record
 * of its attempts. Its id is the `webhook-id` of every attempt.
 */
@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'endpoint_id', type: 'uuid' })
  endpointId: string;

  @Column({ type: 'text' })
  event: WebhookEventType;

  /** The JSON body, exactly as POSTed on every attempt. */
  @Column({ type: 'text' })
  body: string;

  @Column({ type: 'text' })
  status: WebhookDeliveryStatus;

  @Column({ type: 'integer' })
  attempts: number;

  /** Attempts since it was created or last redelivered: the retry schedule counts these. */
  @Column({ name: 'round_attempts', type: 'integer' })
  roundAttempts: number;

  @Column({ name: 'last_response_status', type: 'integer', nullable: true })
  lastResponseStatus: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError: string | null;

  /** When it is due (PENDING); while an attempt is under way, when that attempt's claim lapses. */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt: Date | null;
}
