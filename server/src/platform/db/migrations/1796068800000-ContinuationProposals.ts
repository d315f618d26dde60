import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Approval of agent-initiated continuations: each session's approval mode, the proposals an ASK
 * session's agent makes, and in a manifest approved from one, the agent's draft.
 */
export class ContinuationProposals1796068800000 implements MigrationInterface {
  name = 'ContinuationProposals1796068800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE sessions
        ADD COLUMN continuation_approval text NOT NULL DEFAULT 'AUTOMATIC'
          CONSTRAINT sessions_continuation_approval_known CHECK (continuation_approval IN ('AUTOMATIC', 'ASK'))`);
    await queryRunner.query(`ALTER TABLE projection_manifests ADD COLUMN proposal jsonb`);
    await queryRunner.query(`
      CREATE TABLE continuation_proposals (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        session_id uuid NOT NULL REFERENCES sessions (id),
        tool_call_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED')),
        draft jsonb NOT NULL,
        note text,
        edge_id uuid REFERENCES continuation_edges (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        decided_at timestamptz,
        CONSTRAINT continuation_proposals_edge_when_approved CHECK ((edge_id IS NOT NULL) = (status = 'APPROVED')),
        CONSTRAINT continuation_proposals_decided_unless_pending CHECK ((decided_at IS NULL) = (status = 'PENDING'))
      )`);
    // A replayed tool call finds its proposal; a session has at most one pending.
    await queryRunner.query(`CREATE UNIQUE INDEX continuation_proposals_tool_call ON continuation_proposals (account_id, tool_call_id)`);
    await queryRunner.query(`CREATE UNIQUE INDEX continuation_proposals_pending ON continuation_proposals (session_id) WHERE status = 'PENDING'`);
    await queryRunner.query(`CREATE INDEX continuation_proposals_session ON continuation_proposals (session_id, created_at)`);
    // The expiry sweep reads only pending proposals, soonest first.
    await queryRunner.query(`CREATE INDEX continuation_proposals_due ON continuation_proposals (expires_at) WHERE status = 'PENDING'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE continuation_proposals`);
    await queryRunner.query(`ALTER TABLE projection_manifests DROP COLUMN proposal`);
    await queryRunner.query(`ALTER TABLE sessions DROP CONSTRAINT sessions_continuation_approval_known, DROP COLUMN continuation_approval`);
  }
}
