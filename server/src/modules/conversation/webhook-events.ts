import { WebhookEvent, WebhookEventType } from '../webhooks/webhooks';
import type { EventEntity } from './event.entity';
import type { RunEntity } from './run.entity';
import { RunStatus } from './runs';
import { EventKind } from './transcript';

const MESSAGE_KINDS: string[] = [EventKind.USER_MESSAGE, EventKind.ASSISTANT_MESSAGE];

/** `message.posted` for each user or assistant message among appended events: ids and order, not the text. */
export function messagesPosted(events: EventEntity[]): WebhookEvent[] {
  return events
    .filter((event) => MESSAGE_KINDS.includes(event.kind))
    .map((event) => ({
      accountId: event.accountId,
      type: WebhookEventType.MESSAGE_POSTED,
      occurredAt: event.createdAt,
      data: {
        sessionId: event.sessionId,
        eventId: event.id,
        seq: event.seq,
        kind: event.kind,
        replayOfId: event.replayOfId,
        createdAt: event.createdAt.toISOString(),
      },
    }));
}

const RUN_ENDINGS: Partial<Record<RunStatus, WebhookEventType>> = {
  SUCCEEDED: WebhookEventType.RUN_SUCCEEDED,
  FAILED: WebhookEventType.RUN_FAILED,
  CANCELLED: WebhookEventType.RUN_CANCELLED,
};

/** `run.succeeded`, `run.failed` or `run.cancelled` for a run that has just ended; none for one still going. */
export function runEnded(run: RunEntity): WebhookEvent[] {
  const type = RUN_ENDINGS[run.status];
  if (!type) return [];
  const finishedAt = run.finishedAt ?? run.updatedAt;
  return [
    {
      accountId: run.accountId,
      type,
      occurredAt: finishedAt,
      data: {
        runId: run.id,
        sessionId: run.sessionId,
        kind: run.kind,
        status: run.status,
        attempt: run.attempt,
        error: run.error,
        triggerEventId: run.triggerEventId,
        childSessionId: run.childSessionId,
        createdAt: run.createdAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
      },
    },
  ];
}
