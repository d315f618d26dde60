import { EntityManager } from 'typeorm';
import { preparedQuery } from '../../platform/db/prepared';
import { columnList, entityFromRow, returnedRows } from '../../platform/db/rows';
import type { CombinedStatement } from '../../platform/db/statement';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';
import { WebhookEvent, webhookBody } from './webhooks';

/**
 * The outbox: one PENDING delivery per event and per endpoint of its account that subscribes to
 * its type and is not disabled. With no such endpoint it writes nothing, and costs one probe of
 * the endpoints' index.
 */
const OUTBOX = `INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event, body, status, attempts, round_attempts, next_attempt_at, created_at)
  SELECT gen_random_uuid(), endpoint.account_id, endpoint.id, pending.event, pending.body, 'PENDING', 0, 0, statement_timestamp(), statement_timestamp()
  FROM unnest($1::uuid[], $2::text[], $3::text[]) AS pending (account_id, event, body)
  JOIN webhook_endpoints endpoint ON endpoint.account_id = pending.account_id AND endpoint.disabled_at IS NULL AND pending.event = ANY (endpoint.events)`;

function outboxValues(events: WebhookEvent[]): unknown[] {
  return [events.map((event) => event.accountId), events.map((event) => event.type), events.map(webhookBody)];
}

/** Writes the events to the outbox inside the caller's transaction. */
export async function enqueueWebhooks(manager: EntityManager, events: WebhookEvent[]): Promise<void> {
  if (events.length > 0) await preparedQuery(manager, OUTBOX, outboxValues(events));
}

/**
 * A boolean SQL expression: whether the account `accountParameter` names has an endpoint that is
 * not disabled. A write that locks its rows with it in its first statement can leave the outbox out
 * of its last when there is none: an endpoint receives the writes that start after it is created.
 */
export function hasActiveEndpoint(accountParameter: string): string {
  return `EXISTS (SELECT 1 FROM webhook_endpoints WHERE account_id = ${accountParameter} AND disabled_at IS NULL)`;
}

/** Adds the events' outbox rows to a combined statement, to be written with the rest of it. */
export function withWebhooks(statement: CombinedStatement, events: WebhookEvent[]): CombinedStatement {
  return events.length > 0 ? statement.raw(OUTBOX, outboxValues(events)) : statement;
}

/** A delivery claimed for an attempt, with what sending it takes. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  url: string;
  secret: string;
  body: string;
  roundAttempts: number;
  /** How long it had been due when claimed, in seconds. */
  waitedSeconds: number;
}

/**
 * Claims up to `limit` due deliveries, oldest due first, for `leaseMs`: their due time moves to
 * the end of the lease, so that a delivery whose process died is attempted again then. SKIP
 * LOCKED lets the workers of other processes pass over the rows claimed here, as runs are claimed.
 */
export async function claimDueDeliveries(manager: EntityManager, limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
  const rows = returnedRows(
    await preparedQuery(
      manager,
      `WITH due AS (
         SELECT id, next_attempt_at FROM webhook_deliveries
         WHERE status = 'PENDING' AND next_attempt_at <= statement_timestamp()
         ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED
       )
       UPDATE webhook_deliveries delivery SET next_attempt_at = statement_timestamp() + $2 * interval '1 millisecond'
       FROM due, webhook_endpoints endpoint
       WHERE delivery.id = due.id AND endpoint.id = delivery.endpoint_id
       RETURNING delivery.id, delivery.endpoint_id, endpoint.url, endpoint.secret, delivery.body, delivery.round_attempts,
                 extract(epoch FROM statement_timestamp() - due.next_attempt_at)::float8 AS waited_seconds`,
      [limit, leaseMs],
    ),
  );
  return rows.map((row) => ({
    id: row.id as string,
    endpointId: row.endpoint_id as string,
    url: row.url as string,
    secret: row.secret as string,
    body: row.body as string,
    roundAttempts: row.round_attempts as number,
    waitedSeconds: Math.max(0, row.waited_seconds as number),
  }));
}

/** Records 2xx answers: the deliveries are DELIVERED, and their endpoints no longer failing. */
export async function recordDelivered(manager: EntityManager, answered: { delivery: ClaimedDelivery; responseStatus: number }[]): Promise<void> {
  await preparedQuery(
    manager,
    `WITH delivered AS (
       UPDATE webhook_deliveries delivery SET status = 'DELIVERED', attempts = attempts + 1, round_attempts = round_attempts + 1,
              last_response_status = answer.status, last_error = NULL, next_attempt_at = NULL, delivered_at = statement_timestamp()
       FROM unnest($1::uuid[], $2::integer[]) AS answer (id, status)
       WHERE delivery.id = answer.id AND delivery.status = 'PENDING'
       RETURNING delivery.endpoint_id
     )
     UPDATE webhook_endpoints SET failing_since = NULL WHERE id IN (SELECT endpoint_id FROM delivered) AND failing_since IS NOT NULL`,
    [answered.map((entry) => entry.delivery.id), answered.map((entry) => entry.responseStatus)],
  );
}

/** A failed attempt: its answer's status (none for a network error) and what went wrong. */
export interface AttemptFailure {
  responseStatus: number | null;
  error: string;
  /** The wait before the next attempt; null when the retries are spent and the delivery FAILED. */
  retryInMs: number | null;
}

/**
 * Records a failed attempt. The endpoint is failing from its first failure after a success; once
 * it has failed for `disableAfterMs`, it is disabled and its pending deliveries FAILED. Returns
 * whether this attempt disabled it.
 */
export async function recordFailure(manager: EntityManager, delivery: ClaimedDelivery, failure: AttemptFailure, disableAfterMs: number): Promise<boolean> {
  const rows = returnedRows(
    await preparedQuery(
      manager,
      `WITH attempt AS (
         UPDATE webhook_deliveries SET attempts = attempts + 1, round_attempts = round_attempts + 1,
                last_response_status = $2, last_error = $3,
                status = CASE WHEN $4::integer IS NULL THEN 'FAILED' ELSE 'PENDING' END,
                next_attempt_at = statement_timestamp() + $4::integer * interval '1 millisecond'
         WHERE id = $1 AND status = 'PENDING'
         RETURNING id
       )
       UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, statement_timestamp()),
              disabled_at = CASE WHEN coalesce(failing_since, statement_timestamp()) <= statement_timestamp() - $6 * interval '1 millisecond'
                                 THEN statement_timestamp() END
       WHERE id = $5 AND disabled_at IS NULL
       RETURNING disabled_at IS NOT NULL AS disabled`,
      [delivery.id, failure.responseStatus, failure.error, failure.retryInMs, delivery.endpointId, disableAfterMs],
    ),
  );
  const disabled = rows[0]?.disabled === true;
  if (disabled) {
    await manager.query(
      `UPDATE webhook_deliveries SET status = 'FAILED', next_attempt_at = NULL, last_error = coalesce(last_error, 'The endpoint was disabled.')
       WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [delivery.endpointId],
    );
  }
  return disabled;
}

/** Puts a delivery of the account back in the queue, due now, with a fresh retry schedule; null when unknown. */
export async function requeueDelivery(manager: EntityManager, accountId: string, deliveryId: string): Promise<WebhookDeliveryEntity | null> {
  const rows = returnedRows(
    await manager.query(
      `UPDATE webhook_deliveries SET status = 'PENDING', round_attempts = 0, next_attempt_at = statement_timestamp()
       WHERE id = $1 AND account_id = $2
       RETURNING ${columnList(manager, WebhookDeliveryEntity)}`,
      [deliveryId, accountId],
    ),
  );
  return rows.length ? entityFromRow(manager, WebhookDeliveryEntity, rows[0]) : null;
}

/**
 * Deletes up to `limit` deliveries that ended before `endedBefore`, oldest end first; returns how
 * many. A DELIVERED one ended at `delivered_at`; a FAILED one keeps no time of its last attempt,
 * so `created_at` stands for its end. PENDING ones, in flight or not, are never taken. SKIP
 * LOCKED lets processes prune at once, and passes over a row being redelivered; the partial
 * index `webhook_deliveries_ended` finds the oldest without reading the rest. The ids go as an
 * array, so that the delete takes each by its primary key: with `IN (SELECT ...)` a plan kept
 * for the connection may hash-join against a scan of the whole table.
 */
export async function pruneEndedDeliveries(manager: EntityManager, endedBefore: Date, limit: number): Promise<number> {
  const rows = returnedRows(
    await preparedQuery(
      manager,
      `WITH pruned AS (
         DELETE FROM webhook_deliveries WHERE id = ANY (ARRAY(
           SELECT id FROM webhook_deliveries
           WHERE status IN ('DELIVERED', 'FAILED') AND coalesce(delivered_at, created_at) < $1
           ORDER BY coalesce(delivered_at, created_at) LIMIT $2 FOR UPDATE SKIP LOCKED
         ))
         RETURNING 1
       )
       SELECT count(*)::integer AS pruned FROM pruned`,
      [endedBefore, limit],
    ),
  );
  return rows[0].pruned as number;
}
