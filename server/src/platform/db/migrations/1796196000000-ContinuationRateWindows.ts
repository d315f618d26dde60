import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each account's continuations per one-minute window, the current and the previous one: the rate
 * check reads one row instead of counting the account's recent edges. It starts empty: an
 * account's first continuation after the upgrade opens its window.
 */
export class ContinuationRateWindows1796196000000 implements MigrationInterface {
  name = 'ContinuationRateWindows1796196000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE continuation_rate_windows (
      account_id uuid PRIMARY KEY REFERENCES accounts (id),
      window_start timestamptz NOT NULL,
      current_count integer NOT NULL,
      previous_count integer NOT NULL
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE continuation_rate_windows`);
  }
}
