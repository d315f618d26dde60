import { MigrationInterface, QueryRunner } from 'typeorm';

/** Continuation edges, projection manifests, runs, and each session's place in its lineage. */
export class Continuations1796022000000 implements MigrationInterface {
  name = 'Continuations1796022000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE sessions ADD COLUMN origin_id uuid`);
    await queryRunner.query(`UPDATE sessions SET origin_id = id`);
    await queryRunner.query(`ALTER TABLE sessions ALTER COLUMN origin_id SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_origin FOREIGN KEY (origin_id) REFERENCES sessions (id)`);
    await queryRunner.query(`ALTER TABLE sessions ADD COLUMN lineage_depth integer NOT NULL DEFAULT 0 CHECK (lineage_depth >= 0)`);
    await queryRunner.query(
      `ALTER TABLE sessions ADD COLUMN continuation_streak integer NOT NULL DEFAULT 0 CHECK (continuation_streak >= 0)`,
    );
    // Lets edges reference a session together with its depth (see continuation_edges_depth).
    await queryRunner.query(`ALTER TABLE sessions ADD CONSTRAINT sessions_id_depth UNIQUE (id, lineage_depth)`);
    await queryRunner.query(`CREATE INDEX sessions_origin_depth ON sessions (origin_id, lineage_depth)`);

    await queryRunner.query(`
      CREATE TABLE continuation_edges (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        predecessor_id uuid NOT NULL,
        predecessor_depth integer NOT NULL,
        successor_id uuid NOT NULL,
        successor_depth integer NOT NULL,
        reason text NOT NULL CHECK (reason IN ('TOPIC_CHANGE', 'PHASE_CHANGE', 'CONTEXT_PRESSURE', 'USER_REQUEST', 'OTHER')),
        actor text NOT NULL CHECK (actor IN ('AGENT', 'USER', 'SYSTEM')),
        initiating_event_id uuid NOT NULL REFERENCES events (id),
        idempotency_key text NOT NULL,
        request_fingerprint text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT continuation_edges_one_predecessor UNIQUE (successor_id),
        CONSTRAINT continuation_edges_idempotency UNIQUE (account_id, idempotency_key),
        CONSTRAINT continuation_edges_predecessor FOREIGN KEY (predecessor_id, predecessor_depth)
          REFERENCES sessions (id, lineage_depth),
        CONSTRAINT continuation_edges_successor FOREIGN KEY (successor_id, successor_depth)
          REFERENCES sessions (id, lineage_depth),
        -- Depth grows by one along every edge, so no chain of edges can return to where it began.
        CONSTRAINT continuation_edges_depth CHECK (successor_depth = predecessor_depth + 1)
      )`);
    await queryRunner.query(`CREATE INDEX continuation_edges_predecessor_created ON continuation_edges (predecessor_id, created_at DESC)`);
    await queryRunner.query(`CREATE INDEX continuation_edges_account_created ON continuation_edges (account_id, created_at)`);

    await queryRunner.query(`
      CREATE TABLE projection_manifests (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        edge_id uuid NOT NULL UNIQUE REFERENCES continuation_edges (id),
        predecessor_id uuid NOT NULL REFERENCES sessions (id),
        successor_id uuid NOT NULL REFERENCES sessions (id),
        origin_id uuid NOT NULL REFERENCES sessions (id),
        initiating_event_id uuid NOT NULL REFERENCES events (id),
        actor text NOT NULL,
        reason text NOT NULL,
        handoff jsonb NOT NULL,
        sources jsonb NOT NULL,
        items jsonb NOT NULL,
        transferred_state jsonb NOT NULL,
        lineage_block text NOT NULL,
        context jsonb NOT NULL,
        compiler_version text NOT NULL,
        model_version text NOT NULL,
        token_budget integer NOT NULL CHECK (token_budget > 0),
        token_cost integer NOT NULL CHECK (token_cost <= token_budget),
        hash text NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION projection_manifests_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'projection manifests are stored once: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER projection_manifests_no_update_or_delete BEFORE UPDATE OR DELETE ON projection_manifests
      FOR EACH ROW EXECUTE FUNCTION projection_manifests_are_immutable()`);

    await queryRunner.query(`
      CREATE TABLE runs (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        session_id uuid NOT NULL REFERENCES sessions (id),
        kind text NOT NULL CHECK (kind IN ('TURN', 'DELEGATED')),
        status text NOT NULL CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED')),
        child_session_id uuid REFERENCES sessions (id),
        tool_call_id text,
        error text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX runs_session_status ON runs (session_id, status)`);
    await queryRunner.query(
      `CREATE INDEX events_session_tool_call ON events (session_id, tool_call_id) WHERE tool_call_id IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX events_session_kind_seq ON events (session_id, kind, seq)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX events_session_kind_seq`);
    await queryRunner.query(`DROP INDEX events_session_tool_call`);
    await queryRunner.query(`DROP TABLE runs`);
    await queryRunner.query(`DROP TABLE projection_manifests`);
    await queryRunner.query(`DROP FUNCTION projection_manifests_are_immutable()`);
    await queryRunner.query(`DROP TABLE continuation_edges`);
    await queryRunner.query(`DROP INDEX sessions_origin_depth`);
    await queryRunner.query(`ALTER TABLE sessions DROP CONSTRAINT sessions_id_depth`);
    await queryRunner.query(`ALTER TABLE sessions DROP COLUMN continuation_streak`);
    await queryRunner.query(`ALTER TABLE sessions DROP COLUMN lineage_depth`);
    await queryRunner.query(`ALTER TABLE sessions DROP COLUMN origin_id`);
  }
}
