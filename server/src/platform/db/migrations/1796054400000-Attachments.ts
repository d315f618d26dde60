import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attachments: files stored once per account under their cid (sha256 hex of the bytes), with the
 * name and media type of their first upload. Their bytes live where `storage` says: in
 * `attachment_chunks` (bytea rows of up to 256 KiB, so that backups hold them), or in an
 * S3-compatible bucket. A message links attachments by cid, in order, in `events.attachment_cids`:
 * an array on the append-only row, since the event's hash covers it.
 */
export class Attachments1796054400000 implements MigrationInterface {
  name = 'Attachments1796054400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE attachments (
        account_id uuid NOT NULL REFERENCES accounts (id),
        cid text NOT NULL CHECK (cid ~ '^[0-9a-f]{64}$'),
        name text NOT NULL,
        media_type text NOT NULL,
        byte_size integer NOT NULL CHECK (byte_size >= 0),
        storage text NOT NULL CHECK (storage IN ('database', 's3')),
        storage_key text NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, cid)
      )`);
    await queryRunner.query(`
      CREATE TRIGGER attachments_no_update_or_delete BEFORE UPDATE OR DELETE ON attachments
      FOR EACH ROW EXECUTE FUNCTION rows_are_immutable()`);
    await queryRunner.query(`
      CREATE TRIGGER attachments_no_truncate BEFORE TRUNCATE ON attachments
      FOR EACH STATEMENT EXECUTE FUNCTION rows_are_immutable()`);
    // Chunks of a blob whose upload did not become an attachment (a duplicate, one over the limit) are deleted.
    await queryRunner.query(`
      CREATE TABLE attachment_chunks (
        blob_id uuid NOT NULL,
        seq integer NOT NULL CHECK (seq >= 0),
        bytes bytea NOT NULL,
        PRIMARY KEY (blob_id, seq)
      )`);
    // A constant default: PostgreSQL adds the column without rewriting the table (or firing its triggers).
    await queryRunner.query(`ALTER TABLE events ADD COLUMN attachment_cids text[] NOT NULL DEFAULT '{}'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE events DROP COLUMN attachment_cids`);
    await queryRunner.query(`DROP TABLE attachment_chunks`);
    await queryRunner.query(`DROP TABLE attachments`);
  }
}
