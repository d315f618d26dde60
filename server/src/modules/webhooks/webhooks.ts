import { ErrorDetail } from '../../shared/errors';

/** What an endpoint subscribes to; each is POSTed under its wire name. */
export const WebhookEventType = {
  SESSION_CONTINUED: 'SESSION_CONTINUED',
  MESSAGE_POSTED: 'MESSAGE_POSTED',
  RUN_SUCCEEDED: 'RUN_SUCCEEDED',
  RUN_FAILED: 'RUN_FAILED',
  RUN_CANCELLED: 'RUN_CANCELLED',
  PROPOSAL_CREATED: 'PROPOSAL_CREATED',
  PROPOSAL_DECIDED: 'PROPOSAL_DECIDED',
  SESSION_ERASED: 'SESSION_ERASED',
} as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];

/** The `type` of each event's JSON body. */
export const WIRE_TYPES: Record<WebhookEventType, string> = {
  SESSION_CONTINUED: 'session.continued',
  MESSAGE_POSTED: 'message.posted',
  RUN_SUCCEEDED: 'run.succeeded',
  RUN_FAILED: 'run.failed',
  RUN_CANCELLED: 'run.cancelled',
  PROPOSAL_CREATED: 'proposal.created',
  PROPOSAL_DECIDED: 'proposal.decided',
  SESSION_ERASED: 'session.erased',
};

export const WebhookDeliveryStatus = { PENDING: 'PENDING', DELIVERED: 'DELIVERED', FAILED: 'FAILED' } as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];

/**
 * A change to announce, written to the outbox in the transaction that makes it. `data` carries
 * ids and what a receiver needs to order events (seq, times), never content: a receiver reads
 * that through the API, where an erasure has removed it.
 */
export interface WebhookEvent {
  accountId: string;
  type: WebhookEventType;
  occurredAt: Date;
  data: Record<string, unknown>;
}

/** The JSON body POSTed for an event: `{ type, timestamp, data }`, kept as text so every attempt sends the same bytes. */
export function webhookBody(event: WebhookEvent): string {
  return JSON.stringify({ type: WIRE_TYPES[event.type], timestamp: event.occurredAt.toISOString(), data: event.data });
}

/** How deliveries are made and retried; configuration sets them. */
export interface WebhookSettings {
  /** Waits before each retry, in milliseconds: its length is the number of retries, after which a delivery is FAILED. */
  retryScheduleMs: number[];
  /** How long one attempt may take, connection and answer included. */
  timeoutMs: number;
  /** An endpoint failing this long without a success is disabled. */
  disableAfterMs: number;
  /** Loopback, private, link-local and metadata addresses allowed (development, tests). */
  allowPrivateNetworks: boolean;
  /** Plain `http` URLs allowed. */
  allowHttp: boolean;
  /** Attempts this process makes at once; 0 for a process that delivers none. */
  concurrency: number;
  /** How often this process looks for due deliveries when nothing woke it. */
  pollMs: number;
  /**
   * Deliveries that ended (DELIVERED, or FAILED with every retry spent) are deleted this many days
   * after they ended: a DELIVERED one from `delivered_at`; a FAILED one from `created_at`, the only
   * time its row keeps, so it goes up to one retry schedule (about a day by default) sooner.
   */
  deliveryRetentionDays: number;
}

/** About a day of retries: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (the Standard Webhooks reference schedule). */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  retryScheduleMs: DEFAULT_RETRY_SCHEDULE_MS,
  timeoutMs: 10_000,
  disableAfterMs: 5 * 86_400_000,
  allowPrivateNetworks: false,
  allowHttp: false,
  concurrency: 8,
  pollMs: 1_000,
  deliveryRetentionDays: 30,
};

/** Deliveries that ended before this time are pruned. */
export function pruneEndedBefore(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/** Share of a wait drawn at random either side, so that retries of many deliveries spread out. */
const JITTER = 0.2;

/** The wait before retry number `retry` (1 for the first), with jitter; null when the schedule is spent. */
export function retryDelayMs(schedule: number[], retry: number, random: () => number = Math.random): number | null {
  const base = schedule[retry - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

export const ENDPOINT_URL_MAX_CHARS = 2_000;
export const ENDPOINT_DESCRIPTION_MAX_CHARS = 500;
export const ENDPOINTS_PER_ACCOUNT_MAX = 20;
export const DELIVERIES_PAGE_MAX = 100;

export interface EndpointRequest {
  url: string;
  events: WebhookEventType[];
  description?: string | null;
}

/** Problems with an endpoint's URL, events and description that need no network to find. */
export function validateEndpoint(request: EndpointRequest, allowHttp: boolean): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const url = URL.canParse(request.url) ? new URL(request.url) : null;
  if (!url || request.url.length > ENDPOINT_URL_MAX_CHARS) {
    details.push({ path: ['input', 'url'], message: `url must be an absolute URL of at most ${ENDPOINT_URL_MAX_CHARS} characters.` });
  } else if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    details.push({ path: ['input', 'url'], message: allowHttp ? 'url must be http or https.' : 'url must be https.' });
  } else if (url.username || url.password) {
    details.push({ path: ['input', 'url'], message: 'url must not carry credentials: the signature authenticates the sender.' });
  }
  if (request.events.length === 0) details.push({ path: ['input', 'events'], message: 'Name at least one event type.' });
  if ((request.description?.length ?? 0) > ENDPOINT_DESCRIPTION_MAX_CHARS) {
    details.push({ path: ['input', 'description'], message: `description must be at most ${ENDPOINT_DESCRIPTION_MAX_CHARS} characters.` });
  }
  return details;
}

/** Reads WEBHOOK_RETRY_SCHEDULE_MS: comma-separated waits in milliseconds; null when malformed. */
export function parseRetrySchedule(raw: string): number[] | null {
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => part === '')) return null;
  const waits = parts.map(Number);
  return waits.length > 0 && waits.length <= 50 && waits.every((wait) => Number.isInteger(wait) && wait >= 0 && wait <= 604_800_000) ? waits : null;
}
