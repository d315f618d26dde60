import { MigrationInterface, QueryRunner } from 'typeorm';

/** Columns of an event that an erasure keeps exactly: its place in the transcript, its chain and its times. */
const EVENT_STRUCTURE = ['id', 'session_id', 'account_id', 'seq', 'kind', 'tool_call_id', 'token_count', 'token_total', 'hash', 'replay_of_id', 'client_message_id', 'created_at'];
/** Columns of a manifest that an erasure keeps exactly. */
const MANIFEST_STRUCTURE = [
  'id',
  'account_id',
  'edge_id',
  'predecessor_id',
  'successor_id',
  'origin_id',
  'initiating_event_id',
  'actor',
  'reason',
  'compiler_version',
  'model_version',
  'token_budget',
  'token_cost',
  'hash',
  'created_at',
];
const PLAN_STRUCTURE = ['id', 'account_id', 'session_id', 'revision', 'closed', 'created_at'];

const unchanged = (columns: string[]) => `(${columns.map((column) => `NEW.${column}`).join(', ')}) IS NOT DISTINCT FROM (${columns.map((column) => `OLD.${column}`).join(', ')})`;

/**
 * The data's life cycle: erasure, retention, export and import.
 *
 * Events, manifests and plan revisions stay immutable but for one change each: their erasure,
 * which sets `erased_at` once and removes their content while keeping every structural column
 * (ids, seq, kinds, times, hashes as recorded) exactly, so that lineages still walk and hash
 * chains still verify around what was erased. An erased event keeps of its `data` only what the
 * erasure left (a continuation card's ids), never more than it had. Attachments may be deleted
 * only by an erasure, which says so in its transaction (`lifecycle.erasing`).
 */
export class DataLifecycle1796181596470 implements MigrationInterface {
  name = 'DataLifecycle1796181596470';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['events', 'sessions', 'projection_manifests', 'plan_revisions']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN erased_at timestamptz`);
    }
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL
           AND NEW.text IS NULL AND NEW.attachment_cids = '{}' AND (NEW.data IS NULL OR OLD.data @> NEW.data)
           AND ${unchanged(EVENT_STRUCTURE)} THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION projection_manifests_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL AND ${unchanged(MANIFEST_STRUCTURE)} THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'projection manifests are stored once: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION plan_revisions_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL AND NEW.steps = '[]'::jsonb AND ${unchanged(PLAN_STRUCTURE)} THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'plan revisions are append-only: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION attachments_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('lifecycle.erasing', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'attachments rows are immutable: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
      END
      $$`);
    await queryRunner.query(`DROP TRIGGER attachments_no_update_or_delete ON attachments`);
    await queryRunner.query(`
      CREATE TRIGGER attachments_no_update_or_delete BEFORE UPDATE OR DELETE ON attachments
      FOR EACH ROW EXECUTE FUNCTION attachments_are_immutable()`);
    // Which messages still link a cid: an erasure keeps the bytes while any does. Most events link none.
    await queryRunner.query(`CREATE INDEX events_attachment_cids ON events USING gin (attachment_cids) WHERE attachment_cids <> '{}'`);

    await queryRunner.query(`
      CREATE TABLE erasure_receipts (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        scope text NOT NULL CHECK (scope IN ('SESSION', 'LINEAGE', 'EVENT')),
        session_ids uuid[] NOT NULL,
        event_id uuid,
        event_count integer NOT NULL CHECK (event_count >= 0),
        attachment_count integer NOT NULL CHECK (attachment_count >= 0),
        reason text NOT NULL,
        actor text NOT NULL CHECK (actor IN ('AGENT', 'USER', 'SYSTEM')),
        requested_by text NOT NULL,
        erased_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX erasure_receipts_account_erased ON erasure_receipts (account_id, erased_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE retention_policies (
        account_id uuid PRIMARY KEY REFERENCES accounts (id),
        retention_days integer NOT NULL CHECK (retention_days >= 1),
        updated_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`
      CREATE TABLE imports (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts (id),
        kind text NOT NULL CHECK (kind IN ('BUNDLE', 'TRANSCRIPT')),
        root_session_id uuid NOT NULL REFERENCES sessions (id),
        session_ids uuid[] NOT NULL,
        source_sha256 text NOT NULL,
        source jsonb NOT NULL,
        created_at timestamptz NOT NULL
      )`);
    await queryRunner.query(`CREATE INDEX imports_root_session ON imports (root_session_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE imports`);
    await queryRunner.query(`DROP TABLE retention_policies`);
    await queryRunner.query(`DROP TABLE erasure_receipts`);
    await queryRunner.query(`DROP INDEX events_attachment_cids`);
    await queryRunner.query(`DROP TRIGGER attachments_no_update_or_delete ON attachments`);
    await queryRunner.query(`
      CREATE TRIGGER attachments_no_update_or_delete BEFORE UPDATE OR DELETE ON attachments
      FOR EACH ROW EXECUTE FUNCTION rows_are_immutable()`);
    await queryRunner.query(`DROP FUNCTION attachments_are_immutable()`);
    const refusals: [name: string, message: string][] = [
      ['events_are_append_only', 'events are append-only'],
      ['projection_manifests_are_immutable', 'projection manifests are stored once'],
      ['plan_revisions_are_immutable', 'plan revisions are append-only'],
    ];
    for (const [name, message] of refusals) {
      await queryRunner.query(`
        CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          RAISE EXCEPTION '${message}: % is not allowed', TG_OP USING ERRCODE = 'restrict_violation';
        END
        $$`);
    }
    for (const table of ['plan_revisions', 'projection_manifests', 'sessions', 'events']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN erased_at`);
    }
  }
}
