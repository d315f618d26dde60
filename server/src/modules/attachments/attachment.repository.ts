import { EntityManager } from 'typeorm';
import { AttachmentEntity } from './attachment.entity';
import { preparedQuery } from '../../platform/db/prepared';
import { columnList, entityFromRow } from '../../platform/db/rows';

/** Records an attachment unless the account holds its cid already; true when this call recorded it. */
export async function recordAttachment(manager: EntityManager, attachment: AttachmentEntity): Promise<boolean> {
  const rows: unknown[] = await preparedQuery(
    manager,
    `INSERT INTO attachments (account_id, cid, name, media_type, byte_size, storage, storage_key, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (account_id, cid) DO NOTHING RETURNING cid`,
    [
      attachment.accountId,
      attachment.cid,
      attachment.name,
      attachment.mediaType,
      attachment.byteSize,
      attachment.storage,
      attachment.storageKey,
      attachment.createdAt,
    ],
  );
  return rows.length === 1;
}

/** The account's attachments among `cids`, in no particular order. */
export async function findAttachments(manager: EntityManager, accountId: string, cids: readonly string[]): Promise<AttachmentEntity[]> {
  if (cids.length === 0) return [];
  const rows = await preparedQuery(
    manager,
    `SELECT ${columnList(manager, AttachmentEntity)} FROM attachments WHERE account_id = $1 AND cid = ANY($2::text[])`,
    [accountId, [...cids]],
  );
  return rows.map((row) => entityFromRow(manager, AttachmentEntity, row));
}

/**
 * Deletes the account's attachments among `cids`, in the caller's transaction (an erasure's: only
 * an erasure may delete them, and it says so for this transaction), with the bytes the database
 * keeps for them. Returns the deleted rows: bytes kept elsewhere are the caller's to remove once
 * the transaction has committed.
 */
export async function deleteAttachments(manager: EntityManager, accountId: string, cids: readonly string[]): Promise<AttachmentEntity[]> {
  if (cids.length === 0) return [];
  await manager.query(`SELECT set_config('lifecycle.erasing', 'on', true)`);
  const rows: Record<string, unknown>[] = await manager.query(
    `WITH deleted AS (DELETE FROM attachments WHERE account_id = $1 AND cid = ANY($2::text[]) RETURNING *),
     chunks AS (DELETE FROM attachment_chunks WHERE blob_id IN (SELECT storage_key::uuid FROM deleted WHERE storage = 'database'))
     SELECT * FROM deleted`,
    [accountId, [...cids]],
  );
  return rows.map((row) => entityFromRow(manager, AttachmentEntity, row));
}
