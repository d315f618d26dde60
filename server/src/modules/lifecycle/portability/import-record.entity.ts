import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ImportKind = 'BUNDLE' | 'TRANSCRIPT';

/** Where imported sessions came from: which bundle or transcript (by sha256), when, and what it said of itself. */
@Entity({ name: 'imports' })
export class ImportRecordEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ type: 'text' })
  kind: ImportKind;

  @Column({ name: 'root_session_id', type: 'uuid' })
  rootSessionId: string;

  @Column({ name: 'session_ids', type: 'uuid', array: true })
  sessionIds: string[];

  /** sha256 of the bundle's checksum list, or of the transcript's bytes. */
  @Column({ name: 'source_sha256', type: 'text' })
  sourceSha256: string;

  /** For a bundle: its header (format, version, scope, the original ids, when it was exported). */
  @Column({ type: 'jsonb' })
  source: object;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
