import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over event text (messages, tool results, cards): a stored vector the database
 * computes on insert, and a GIN index over the account and the vector, so that a search reads only
 * its own account's matches however many other accounts hold (btree_gin puts the account, a plain
 * value, into the same index). Events never change, so neither does the vector.
 */
export class EventSearch1796043600000 implements MigrationInterface {
  name = 'EventSearch1796043600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE events ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, coalesce(text, ''))) STORED`,
    );
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`CREATE INDEX events_search ON events USING gin (account_id, search_vector)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX events_search`);
    await queryRunner.query(`ALTER TABLE events DROP COLUMN search_vector`);
  }
}
