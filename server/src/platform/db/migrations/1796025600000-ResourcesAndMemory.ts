import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Versioned resources and content-addressed memory. Urls and paths are unique through
 * `url_key` / `path_key` (sha256 hex of the name): a btree entry holds at most 2,704 bytes,
 * less than a name within the documented limits can take in UTF-8.
 */
export class ResourcesAndMemory1796025600000 implements MigrationInterface {
  name = 'ResourcesAndMemory1796025600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION rows_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% rows are immutable: % is not allowed', TG_TABLE_NAME, TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);

    await queryRunner.query(`
      CREATE TABLE resources (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        url text NOT NULL,
        url_key text NOT NULL,
        -- Versions are 1..version_count without gaps: a put takes the next under a lock of this row.
        version_count integer NOT NULL DEFAULT 0 CHECK (version_count >= 0),
        revoked_at timestamptz,
        created_at timestamptz NOT NULL,
        CONSTRAINT resources_account_url UNIQUE (account_id, url_key)
      )`);
    await queryRunner.query(`
      CREATE TABLE resource_versions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL,
        url text NOT NULL,
        url_key text NOT NULL,
        version text NOT NULL CHECK (version ~ '^[1-9][0-9]*$'),
        cid text NOT NULL,
        blocks jsonb NOT NULL,
        token_count integer NOT NULL CHECK (token_count >= 0),
        created_at timestamptz NOT NULL,
        CONSTRAINT resource_versions_account_url_version UNIQUE (account_id, url_key, version),
        CONSTRAINT resource_versions_resource FOREIGN KEY (account_id, url_key) REFERENCES resources (account_id, url_key)
      )`);
    await this.makeImmutable(queryRunner, 'resource_versions');

    await queryRunner.query(`
      CREATE TABLE memory_entries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        path text NOT NULL,
        path_key text NOT NULL,
        cid text NOT NULL,
        content text NOT NULL,
        token_count integer NOT NULL CHECK (token_count >= 0),
        created_at timestamptz NOT NULL,
        CONSTRAINT memory_entries_account_path_cid UNIQUE (account_id, path_key, cid)
      )`);
    await this.makeImmutable(queryRunner, 'memory_entries');
    // Which entry a path names now: rewriting earlier content moves it back without a new entry.
    await queryRunner.query(`
      CREATE TABLE memory_paths (
        account_id uuid NOT NULL REFERENCES accounts (id),
        path_key text NOT NULL,
        entry_id uuid NOT NULL REFERENCES memory_entries (id),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (account_id, path_key)
      )`);
  }

  private async makeImmutable(queryRunner: QueryRunner, table: string): Promise<void> {
    await queryRunner.query(`
      CREATE TRIGGER ${table}_no_update_or_delete BEFORE UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION rows_are_immutable()`);
    await queryRunner.query(`
      CREATE TRIGGER ${table}_no_truncate BEFORE TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION rows_are_immutable()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE memory_paths`);
    await queryRunner.query(`DROP TABLE memory_entries`);
    await queryRunner.query(`DROP TABLE resource_versions`);
    await queryRunner.query(`DROP TABLE resources`);
    await queryRunner.query(`DROP FUNCTION rows_are_immutable()`);
  }
}
