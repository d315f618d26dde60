import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The entry a memory path names now: the one written last, even when its content was written before. */
@Entity({ name: 'memory_paths' })
export class MemoryPathEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @PrimaryColumn({ name: 'path_key', type: 'text' })
  pathKey: string;

  @Column({ name: 'entry_id', type: 'uuid' })
  entryId: string;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
