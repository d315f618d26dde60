import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Content stored under a path, once per distinct content. Immutable: a trigger refuses UPDATE, DELETE and TRUNCATE. */
@Entity({ name: 'memory_entries' })
export class MemoryEntryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  path: string;

  /** sha256 hex of the path: what uniqueness and look-ups use (see domain/resources `nameKey`). */
  @Column({ name: 'path_key', type: 'text' })
  pathKey: string;

  /** sha256 hex of the content. */
  @Column({ type: 'text' })
  cid: string;

  @Column({ type: 'text' })
  content: string;

  @Column({ name: 'token_count', type: 'integer' })
  tokenCount: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
