import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ResourceBlock } from './resources';

/** One stored version of a resource. Immutable: a trigger refuses UPDATE, DELETE and TRUNCATE. */
@Entity({ name: 'resource_versions' })
export class ResourceVersionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ name: 'url_key', type: 'text' })
  urlKey: string;

  /** "1", "2", ... per url. */
  @Column({ type: 'text' })
  version: string;

  /** sha256 hex of the canonical JSON of `blocks`. */
  @Column({ type: 'text' })
  cid: string;

  @Column({ type: 'jsonb' })
  blocks: ResourceBlock[];

  /** Tokens of the version as rendered for a model (see domain/resources `renderResourceVersion`). */
  @Column({ name: 'token_count', type: 'integer' })
  tokenCount: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
