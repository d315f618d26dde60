/**
 * An account's continuations counted in fixed one-minute windows: the current window and the one
 * before it. Reading and updating one row costs the same however busy the account is, where
 * counting its recent edges cost one heap visit per edge (up to the limit) on every continuation.
 */
export interface RateWindow {
  windowStart: Date;
  currentCount: number;
  previousCount: number;
}

export const RATE_WINDOW_MS = 60_000;

/** The start of the one-minute window `at` falls in. */
export function rateWindowStart(at: Date): Date {
  return new Date(at.getTime() - (at.getTime() % RATE_WINDOW_MS));
}

/**
 * The account's continuations in the minute before `now`, estimated from its two windows: all of
 * the current window, and of the previous one the share still within the last minute, rounded up
 * so that a burst just before a window ends still counts in full at its start.
 */
export function continuationsInLastMinute(window: RateWindow | null, now: Date): number {
  if (!window) return 0;
  const start = rateWindowStart(now).getTime();
  const stored = window.windowStart.getTime();
  // A window ahead of this clock (written by a process whose clock is a little ahead) is the current one.
  if (stored >= start) return window.currentCount + Math.ceil(window.previousCount * shareStillWithin(now.getTime() - stored));
  if (stored === start - RATE_WINDOW_MS) return Math.ceil(window.currentCount * shareStillWithin(now.getTime() - start));
  return 0;
}

/** How much of the window before one that began `elapsed` ms ago is still within the last minute. */
function shareStillWithin(elapsed: number): number {
  return 1 - Math.min(Math.max(elapsed / RATE_WINDOW_MS, 0), 1);
}
