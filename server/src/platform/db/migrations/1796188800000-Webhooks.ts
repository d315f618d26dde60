import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks: an account's endpoints, and one delivery row per event and endpoint, written in the
 * transaction of the change it reports (the outbox) and claimed by the delivery workers.
 */
export class Webhooks1796188800000 implements MigrationInterface {
  name = 'Webhooks1796188800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        url text NOT NULL,
        events text[] NOT NULL,
        description text,
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        disabled_at timestamptz,
        failing_since timestamptz
      )`);
    // The outbox's probe on every reported change: the account's endpoints still delivering.
    await queryRunner.query(`CREATE INDEX webhook_endpoints_active ON webhook_endpoints (account_id) WHERE disabled_at IS NULL`);
    await queryRunner.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event text NOT NULL,
        body text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED')),
        attempts integer NOT NULL DEFAULT 0,
        round_attempts integer NOT NULL DEFAULT 0,
        last_response_status integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL,
        delivered_at timestamptz,
        CONSTRAINT webhook_deliveries_due_when_pending CHECK ((next_attempt_at IS NOT NULL) = (status = 'PENDING'))
      )`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'PENDING'`);
    await queryRunner.query(`CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_deliveries`);
    await queryRunner.query(`DROP TABLE webhook_endpoints`);
  }
}
