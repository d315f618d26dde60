import { useEffect, useState } from 'react';

export type ServerHealth = 'checking' | 'ok' | 'unreachable';

const CHECK_INTERVAL_MS = 30_000;

/** Polls the server's unauthenticated `GET /healthz`, which answers `{"status":"ok"}`. */
export function useServerHealth(): ServerHealth {
  const [health, setHealth] = useState<ServerHealth>('checking');

  useEffect(() => {
    const abort = new AbortController();
    async function check() {
      try {
        const response = await fetch('/healthz', { cache: 'no-store', signal: abort.signal });
        const body: unknown = response.ok ? await response.json() : null;
        const ok = typeof body === 'object' && body !== null && (body as { status?: unknown }).status === 'ok';
        setHealth(ok ? 'ok' : 'unreachable');
      } catch {
        if (!abort.signal.aborted) setHealth('unreachable');
      }
    }
    void check();
    const timer = window.setInterval(() => void check(), CHECK_INTERVAL_MS);
    return () => {
      abort.abort();
      window.clearInterval(timer);
    };
  }, []);

  return health;
}
