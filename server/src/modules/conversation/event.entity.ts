import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { EventKind } from './transcript';

/** One transcript entry. Rows are append-only: a trigger refuses UPDATE, DELETE and TRUNCATE, but for an erasure's. */
@Entity({ name: 'events' })
export class EventEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'session_id', type: 'uuid' })
  sessionId: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'integer' })
  seq: number;

  @Column({ type: 'text' })
  kind: EventKind;

  @Column({ type: 'text', nullable: true })
  text: string | null;

  @Column({ type: 'jsonb', nullable: true })
  data: object | null;

  @Column({ name: 'tool_call_id', type: 'text', nullable: true })
  toolCallId: string | null;

  @Column({ name: 'token_count', type: 'integer' })
  tokenCount: number;

  /** The session's token count up to and including this event: any range's tokens in O(1). */
  @Column({ name: 'token_total', type: 'integer' })
  tokenTotal: number;

  @Column({ type: 'text' })
  hash: string;

  @Column({ name: 'replay_of_id', type: 'uuid', nullable: true })
  replayOfId: string | null;

  @Column({ name: 'client_message_id', type: 'text', nullable: true })
  clientMessageId: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Cids of the attachments a message links, in order; empty for most events. */
  @Column({ name: 'attachment_cids', type: 'text', array: true })
  attachmentCids: string[];

  /** When an erasure removed the content (text, data, attachment links); structure and hash stay as recorded. */
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt: Date | null;
}
