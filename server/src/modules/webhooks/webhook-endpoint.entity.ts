import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { WebhookEventType } from './webhooks';

/** A URL of an account that receives the events it names, signed with its own secret. */
@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'text', array: true })
  events: WebhookEventType[];

  @Column({ type: 'text', nullable: true })
  description: string | null;

  /** `whsec_` and the base64 key; shown once, when the endpoint is created. */
  @Column({ type: 'text' })
  secret: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Set when it failed for too long; no delivery is made to it then. */
  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  /** The first failure since its last success; null while it answers. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;
}
