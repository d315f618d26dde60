import { MigrationInterface, QueryRunner } from 'typeorm';

/** Plans as append-only revisions: a manifest can name the exact revision it carried or closed. */
export class Plans1796029200000 implements MigrationInterface {
  name = 'Plans1796029200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE plan_revisions (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        session_id uuid NOT NULL REFERENCES sessions (id),
        revision integer NOT NULL CHECK (revision >= 1),
        closed boolean NOT NULL,
        steps jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT plan_revisions_session_revision UNIQUE (session_id, revision)
      )`);
    await queryRunner.query(`
      CREATE FUNCTION plan_revisions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'plan revisions are append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER plan_revisions_no_update_or_delete BEFORE UPDATE OR DELETE ON plan_revisions
      FOR EACH ROW EXECUTE FUNCTION plan_revisions_are_immutable()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE plan_revisions`);
    await queryRunner.query(`DROP FUNCTION plan_revisions_are_immutable()`);
  }
}
