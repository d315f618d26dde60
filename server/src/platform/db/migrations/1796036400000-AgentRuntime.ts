import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the agent runtime needs: leases on runs so that several processes share the work and a
 * dead process's run is taken over, the message a turn answers, and the delegation and fork
 * relations between sessions.
 */
export class AgentRuntime1796036400000 implements MigrationInterface {
  name = 'AgentRuntime1796036400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE runs
        ADD COLUMN trigger_event_id uuid REFERENCES events (id),
        ADD COLUMN attempt integer NOT NULL DEFAULT 0 CHECK (attempt >= 0),
        ADD COLUMN lease_owner text,
        ADD COLUMN lease_expires_at timestamptz,
        ADD COLUMN started_at timestamptz,
        ADD COLUMN finished_at timestamptz,
        ADD CONSTRAINT runs_lease_whole CHECK ((lease_owner IS NULL) = (lease_expires_at IS NULL)),
        ADD CONSTRAINT runs_delegated_has_child CHECK (kind <> 'DELEGATED' OR (child_session_id IS NOT NULL AND tool_call_id IS NOT NULL))`);
    // Claiming scans only runs that may be taken: queued ones, and running ones whose lease may have expired.
    await queryRunner.query(`CREATE INDEX runs_claimable ON runs (created_at, id) WHERE status IN ('QUEUED', 'RUNNING')`);
    await queryRunner.query(`CREATE INDEX runs_child_session ON runs (child_session_id) WHERE child_session_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX runs_tool_call ON runs (tool_call_id) WHERE tool_call_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX runs_trigger_event ON runs (trigger_event_id) WHERE trigger_event_id IS NOT NULL`);

    await queryRunner.query(`
      ALTER TABLE sessions
        ADD COLUMN parent_id uuid REFERENCES sessions (id),
        ADD COLUMN forked_from_event_id uuid REFERENCES events (id),
        ADD CONSTRAINT sessions_parent_only_for_children CHECK ((parent_id IS NOT NULL) = (kind = 'CHILD')),
        ADD CONSTRAINT sessions_fork_point_only_for_forks CHECK ((forked_from_event_id IS NOT NULL) = (kind = 'FORK'))`);
    await queryRunner.query(`CREATE INDEX sessions_parent ON sessions (parent_id) WHERE parent_id IS NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX sessions_parent`);
    await queryRunner.query(`
      ALTER TABLE sessions
        DROP CONSTRAINT sessions_fork_point_only_for_forks,
        DROP CONSTRAINT sessions_parent_only_for_children,
        DROP COLUMN forked_from_event_id,
        DROP COLUMN parent_id`);
    await queryRunner.query(`DROP INDEX runs_trigger_event`);
    await queryRunner.query(`DROP INDEX runs_tool_call`);
    await queryRunner.query(`DROP INDEX runs_child_session`);
    await queryRunner.query(`DROP INDEX runs_claimable`);
    await queryRunner.query(`
      ALTER TABLE runs
        DROP CONSTRAINT runs_delegated_has_child,
        DROP CONSTRAINT runs_lease_whole,
        DROP COLUMN finished_at,
        DROP COLUMN started_at,
        DROP COLUMN lease_expires_at,
        DROP COLUMN lease_owner,
        DROP COLUMN attempt,
        DROP COLUMN trigger_event_id`);
  }
}
