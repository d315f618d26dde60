import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A url of one account. Its versions are immutable rows; this row only counts them and records revocation. */
@Entity({ name: 'resources' })
export class ResourceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  url: string;

  /** sha256 hex of the url: what uniqueness and look-ups use (see domain/resources `nameKey`). */
  @Column({ name: 'url_key', type: 'text' })
  urlKey: string;

  /** Versions are "1" to this number, without gaps; the newest is the latest. */
  @Column({ name: 'version_count', type: 'integer', default: 0 })
  versionCount: number;

  /** Set once by revocation: the versions stay stored but are no longer readable. */
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
