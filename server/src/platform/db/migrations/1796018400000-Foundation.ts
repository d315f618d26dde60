import { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, API keys, sessions and the append-only transcript. */
export class Foundation1796018400000 implements MigrationInterface {
  name = 'Foundation1796018400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        is_admin boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts (id),
        key_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX api_keys_key_hash ON api_keys (key_hash)`);
    await queryRunner.query(`
      CREATE TABLE sessions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts (id),
        kind text NOT NULL CHECK (kind IN ('ROOT', 'CHILD', 'CONTINUATION', 'FORK')),
        status text NOT NULL CHECK (status IN ('ACTIVE', 'CONTINUED', 'ARCHIVED')),
        title text NOT NULL,
        description text,
        created_at timestamptz NOT NULL,
        event_count integer NOT NULL DEFAULT 0 CHECK (event_count >= 0),
        token_count integer NOT NULL DEFAULT 0 CHECK (token_count >= 0),
        last_event_hash text NOT NULL DEFAULT ''
      )`);
    await queryRunner.query(`CREATE INDEX sessions_account_created ON sessions (account_id, created_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE events (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_id uuid NOT NULL REFERENCES sessions (id),
        account_id uuid NOT NULL REFERENCES accounts (id),
        seq integer NOT NULL CHECK (seq >= 1),
        kind text NOT NULL CHECK (kind IN ('USER_MESSAGE', 'ASSISTANT_MESSAGE', 'TOOL_CALL', 'TOOL_RESULT', 'SYSTEM', 'CONTINUATION')),
        text text,
        data jsonb,
        tool_call_id text,
        token_count integer NOT NULL CHECK (token_count >= 0),
        token_total integer NOT NULL CHECK (token_total >= token_count),
        hash text NOT NULL,
        replay_of_id uuid REFERENCES events (id),
        client_message_id text,
        created_at timestamptz NOT NULL,
        CONSTRAINT events_session_seq UNIQUE (session_id, seq)
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX events_session_client_message ON events (session_id, client_message_id) WHERE client_message_id IS NOT NULL`,
    );
    await queryRunner.query(`
      CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
      FOR EACH ROW EXECUTE FUNCTION events_are_append_only()`);
    await queryRunner.query(`
      CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
      FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE events`);
    await queryRunner.query(`DROP FUNCTION events_are_append_only()`);
    await queryRunner.query(`DROP TABLE sessions`);
    await queryRunner.query(`DROP TABLE api_keys`);
    await queryRunner.query(`DROP TABLE accounts`);
  }
}
