import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keys as rows a person manages: a name, the secret's prefix, scopes, an optional set of sessions,
 * expiry, last use and revocation. Keys made before hold every scope and keep working.
 */
export class ApiKeyScopes1796185200000 implements MigrationInterface {
  name = 'ApiKeyScopes1796185200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_keys
        ADD COLUMN name text NOT NULL DEFAULT 'First key',
        ADD COLUMN prefix text NOT NULL DEFAULT '',
        ADD COLUMN scopes text[] NOT NULL DEFAULT ARRAY['READ', 'WRITE', 'ADMIN'],
        ADD COLUMN session_ids uuid[],
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN last_used_at timestamptz,
        ADD COLUMN revoked_at timestamptz,
        ADD CONSTRAINT api_keys_scopes_known CHECK (scopes <@ ARRAY['READ', 'WRITE', 'ADMIN'] AND cardinality(scopes) > 0)`);
    await queryRunner.query(`ALTER TABLE api_keys ALTER COLUMN name DROP DEFAULT, ALTER COLUMN prefix DROP DEFAULT, ALTER COLUMN scopes DROP DEFAULT`);
    await queryRunner.query(`CREATE INDEX api_keys_account ON api_keys (account_id, created_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX api_keys_account`);
    await queryRunner.query(`
      ALTER TABLE api_keys
        DROP CONSTRAINT api_keys_scopes_known,
        DROP COLUMN name, DROP COLUMN prefix, DROP COLUMN scopes, DROP COLUMN session_ids,
        DROP COLUMN expires_at, DROP COLUMN last_used_at, DROP COLUMN revoked_at`);
  }
}
