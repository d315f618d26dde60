import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Where an attachment's bytes are kept. */
export type AttachmentStorageName = 'database' | 's3';

/** A file of one account, by content. Immutable: a trigger refuses UPDATE, DELETE and TRUNCATE. */
@Entity({ name: 'attachments' })
export class AttachmentEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** sha256 hex of the bytes. */
  @PrimaryColumn({ type: 'text' })
  cid: string;

  /** The file name of the first upload of these bytes. */
  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'media_type', type: 'text' })
  mediaType: string;

  @Column({ name: 'byte_size', type: 'integer' })
  byteSize: number;

  @Column({ type: 'text' })
  storage: AttachmentStorageName;

  /** What the storage knows the bytes by: a blob id, an object key. */
  @Column({ name: 'storage_key', type: 'text' })
  storageKey: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
