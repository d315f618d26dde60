import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over resource versions (the string values of their blocks) and memory
 * entries, so that assisted selection can recommend them beside event ranges; indexed with the
 * account like the events' vector. Both tables are immutable, so neither vector ever changes.
 */
export class ContentSearch1796065200000 implements MigrationInterface {
  name = 'ContentSearch1796065200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE resource_versions ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (jsonb_to_tsvector('english'::regconfig, blocks, '["string"]')) STORED`,
    );
    await queryRunner.query(`CREATE INDEX resource_versions_search ON resource_versions USING gin (account_id, search_vector)`);
    await queryRunner.query(
      `ALTER TABLE memory_entries ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, content)) STORED`,
    );
    await queryRunner.query(`CREATE INDEX memory_entries_search ON memory_entries USING gin (account_id, search_vector)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX memory_entries_search`);
    await queryRunner.query(`ALTER TABLE memory_entries DROP COLUMN search_vector`);
    await queryRunner.query(`DROP INDEX resource_versions_search`);
    await queryRunner.query(`ALTER TABLE resource_versions DROP COLUMN search_vector`);
  }
}
