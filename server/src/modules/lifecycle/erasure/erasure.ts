import { ErrorDetail } from '../../../shared/errors';
import { WebhookEvent, WebhookEventType } from '../../webhooks/webhooks';

/** What an erasure covers: one session, its whole lineage, or (redactEvent) one event. */
export const ErasureScope = { SESSION: 'SESSION', LINEAGE: 'LINEAGE', EVENT: 'EVENT' } as const;
export type ErasureScope = (typeof ErasureScope)[keyof typeof ErasureScope];

/** Who asked: a person through the API, or the retention policy. */
export const ErasureActor = { USER: 'USER', SYSTEM: 'SYSTEM' } as const;
export type ErasureActor = (typeof ErasureActor)[keyof typeof ErasureActor];

export const ERASURE_REASON_MAX_CHARS = 1_000;
/** The title an erased session keeps: its own was content. */
export const ERASED_SESSION_TITLE = 'Erased conversation';
/**
 * What an erased continuation card or banner keeps of its data: the ids and kinds that tie it to
 * its edge, so that the lineage still walks and the verifier still finds each edge's card and
 * banner. Titles, carried summaries and counts go with the rest of the content.
 */
export const ERASED_CARD_KEYS = ['role', 'edgeId', 'manifestId', 'predecessorId', 'successorId', 'reason', 'actor'] as const;

/** Problems with an erasure's reason, addressed at `path`. */
export function validateErasureReason(reason: string, path: string[]): ErrorDetail[] {
  if (reason.trim().length === 0) return [{ path, message: 'Say why the content is erased: the receipt keeps the reason.' }];
  if (reason.length > ERASURE_REASON_MAX_CHARS) return [{ path, message: `The reason is at most ${ERASURE_REASON_MAX_CHARS} characters.` }];
  return [];
}

/** An erasure's record: who, when, why and what; never the content itself. */
export interface ErasureReceiptRecord {
  id: string;
  accountId: string;
  scope: ErasureScope;
  sessionIds: string[];
  eventId: string | null;
  eventCount: number;
  attachmentCount: number;
  reason: string;
  actor: ErasureActor;
  /** The account's name for a person's erasure; "retention policy" for the sweep's. */
  requestedBy: string;
  erasedAt: Date;
}

/** `session.erased` for an erasure: its receipt's ids and counts, never its reason or the content. */
export function sessionErased(receipt: ErasureReceiptRecord): WebhookEvent {
  return {
    accountId: receipt.accountId,
    type: WebhookEventType.SESSION_ERASED,
    occurredAt: receipt.erasedAt,
    data: {
      receiptId: receipt.id,
      scope: receipt.scope,
      sessionIds: receipt.sessionIds,
      eventId: receipt.eventId,
      eventCount: receipt.eventCount,
      attachmentCount: receipt.attachmentCount,
      actor: receipt.actor,
      erasedAt: receipt.erasedAt.toISOString(),
    },
  };
}
