import type { Transport } from './transport.js';
import type { TransportError } from './errors.js';
import { RUN_OUTPUT } from './operations.js';
import type { RunOutputSubscription } from './generated/operations.js';

type RunOutputChunk = RunOutputSubscription['runOutput'];

/**
 * A run's answer as text chunks, through the `runOutput` subscription.
 *
 * Every subscription starts with what the run has produced so far (its `Run.output`) and then
 * follows it; after a dropped socket graphql-ws subscribes again and the server starts over from
 * that stored output. Each chunk carries its offset in the answer, so what was yielded already is
 * cut off: joined, the chunks are the answer, nothing missed or repeated.
 */
export async function* streamRun(client: Transport, runId: string): AsyncGenerator<string, void, undefined> {
  const arrived: RunOutputChunk[] = [];
  // Set from the subscription's callbacks, which the type checker cannot follow.
  let ended = null as { error?: TransportError } | null;
  let wake: () => void = () => {};
  const unsubscribe = client.subscribe(
    RUN_OUTPUT,
    { runId },
    {
      next: ({ runOutput }) => {
        arrived.push(runOutput);
        wake();
      },
      error: (error) => {
        ended = { error };
        wake();
      },
      complete: () => {
        ended ??= {};
        wake();
      },
    },
  );
  let yielded = 0;
  try {
    for (;;) {
      const chunk = arrived.shift();
      if (chunk) {
        // A chunk starts at or before what was yielded: the server never skips ahead within a subscription.
        const fresh = chunk.text.slice(yielded - chunk.offset);
        if (chunk.offset <= yielded && fresh) {
          yielded += fresh.length;
          yield fresh;
        }
        continue;
      }
      if (ended) {
        if (ended.error) throw ended.error;
        return;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    unsubscribe();
  }
}
