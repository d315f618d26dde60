import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ended webhook deliveries by when they ended (delivered_at, or created_at for a FAILED one),
 * so that pruning finds the oldest past the retention without reading the rest of the table. An
 * operator may have built it CONCURRENTLY beforehand, on a table too large to hold writes to.
 */
export class WebhookDeliveryPruning1796192400000 implements MigrationInterface {
  name = 'WebhookDeliveryPruning1796192400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX IF NOT EXISTS webhook_deliveries_ended ON webhook_deliveries ((coalesce(delivered_at, created_at))) WHERE status IN ('DELIVERED', 'FAILED')`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX webhook_deliveries_ended`);
  }
}
