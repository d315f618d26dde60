import { useCallback, useRef, useState } from 'react';
import { randomUUID } from './random-uuid';

/**
 * Sends a request under one idempotency key until the server settles it: a retry after a lost
 * answer (the send threw) reuses the key, so the server replays instead of writing twice. Once
 * the server answered, success or refusal, the next request is a new one; so is any edit
 * (`forget`). A second submit while one is on its way is ignored (resolves to null).
 */
export function useIdempotentSubmit() {
  const key = useRef<string | null>(null);
  const inFlight = useRef(false);
  const [submitting, setSubmitting] = useState(false);

  const forget = useCallback(() => {
    key.current = null;
  }, []);

  const submit = useCallback(async <T>(send: (idempotencyKey: string) => Promise<T>): Promise<T | null> => {
    if (inFlight.current) return null;
    inFlight.current = true;
    key.current ??= randomUUID();
    setSubmitting(true);
    try {
      const result = await send(key.current);
      key.current = null;
      return result;
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  }, []);

  return { submit, submitting, forget };
}
