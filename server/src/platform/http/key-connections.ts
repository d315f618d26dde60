import type { Viewer } from '../../shared/viewer';

/** Timers past this many milliseconds overflow Node's 32-bit timers; such a key is checked on its next request instead. */
const LONGEST_TIMER_MS = 2_147_483_647;

/**
 * The open connections (WebSockets, event streams) of each key, ended when their key is revoked
 * (in any process, as `watch` reports) or expires: their subscriptions end with them.
 */
export function connectionsByKey(watch: ((listener: (keyId: string) => void) => () => void) | undefined) {
  const open = new Map<string, Set<(reason: string) => void>>();
  const endAll = (keyId: string, reason: string) => {
    for (const end of open.get(keyId) ?? []) end(reason);
    open.delete(keyId);
  };
  const stop = watch?.((keyId) => endAll(keyId, 'API key revoked')) ?? (() => undefined);
  return {
    /** Tracks a connection of the viewer's key: `end` closes it, `onClosed` registers what runs once it closed. */
    add(viewer: Viewer, end: (reason: string) => void, onClosed: (closed: () => void) => void) {
      const { keyId, keyExpiresAt } = viewer;
      if (!keyId) return;
      const ends = open.get(keyId) ?? new Set<(reason: string) => void>();
      open.set(keyId, ends.add(end));
      const untilExpiry = keyExpiresAt ? keyExpiresAt.getTime() - Date.now() : null;
      const expiry = untilExpiry !== null && untilExpiry < LONGEST_TIMER_MS ? setTimeout(() => end('API key expired'), Math.max(0, untilExpiry)) : null;
      onClosed(() => {
        if (expiry) clearTimeout(expiry);
        ends.delete(end);
        if (ends.size === 0 && open.get(keyId) === ends) open.delete(keyId);
      });
    },
    stop,
  };
}
