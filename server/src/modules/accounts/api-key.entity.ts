import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ApiKeyScope } from '../../shared/access';

/** An API key, stored only as its sha256 hash. */
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Index({ unique: true })
  @Column({ name: 'key_hash', type: 'text' })
  keyHash: string;

  @Column({ type: 'text' })
  name: string;

  /** The secret's first characters, to recognise it; empty for keys made before keys had names. */
  @Column({ type: 'text' })
  prefix: string;

  @Column({ type: 'text', array: true })
  scopes: ApiKeyScope[];

  /** When set, the key reaches only these sessions' lineages. */
  @Column({ name: 'session_ids', type: 'uuid', array: true, nullable: true })
  sessionIds: string[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  /** Written at most once a minute per key and process: a hint, not an audit log. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
