import { ErrorDetail } from '../../../shared/errors';

/** A century: longer is no policy. */
export const RETENTION_DAYS_MAX = 36_500;

export interface RetentionSettings {
  /** How often each process looks for lineages past their account's retention. */
  sweepMs: number;
  /** Lineages one sweep erases at most (each in its own transaction); a full batch sweeps again at once. */
  batchSize: number;
}

export const DEFAULT_RETENTION_SETTINGS: RetentionSettings = { sweepMs: 60_000, batchSize: 20 };

/** Problems with a retention period: null keeps everything, else whole days from 1 to a century. */
export function validateRetentionDays(days: number | null): ErrorDetail[] {
  if (days === null) return [];
  if (!Number.isInteger(days) || days < 1 || days > RETENTION_DAYS_MAX) {
    return [{ path: ['retentionDays'], message: `retentionDays is a whole number of days from 1 to ${RETENTION_DAYS_MAX}, or null to keep everything.` }];
  }
  return [];
}

/** The reason a retention erasure's receipt gives. */
export function retentionReason(days: number): string {
  return `Retention policy: no new event in the lineage for ${days} ${days === 1 ? 'day' : 'days'}.`;
}

export const RETENTION_REQUESTER = 'retention policy';
