import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The index on `continuation_edges (account_id, created_at)` served the rate count that
 * `continuation_rate_windows` replaced. Left in place, a connection that planned the idempotency
 * lookup on empty tables kept a plan reading the account's every edge through it, filtered by key,
 * on every continuation; the unique index on `(account_id, idempotency_key)` is the only one left
 * for that lookup.
 */
export class EdgesWithoutAccountTimeIndex1796199600000 implements MigrationInterface {
  name = 'EdgesWithoutAccountTimeIndex1796199600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX IF EXISTS continuation_edges_account_created`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX continuation_edges_account_created ON continuation_edges (account_id, created_at)`);
  }
}
