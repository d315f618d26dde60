import type { RunEntity } from '../run.entity';
import type { RunOutputChunk } from '../notifications';
import { PublishedRunOutput, outputEnded } from '../conversation.topics';

/**
 * A run's answer for one subscriber, from its start: what is stored first, then each published
 * batch past what was delivered (a batch partly delivered is cut, one delivered whole dropped, one
 * just in step passed on as the same object to every subscriber), until the run ends. A batch that arrives past a gap (a publish lost between processes) and the
 * end of the run are both met by reading the stored output again, so nothing is missed or repeated.
 *
 * `published` must be subscribed before `stored` was read, so that nothing falls between them.
 */
export async function* runOutputChunks(
  stored: RunEntity,
  published: AsyncIterator<PublishedRunOutput>,
  reread: () => Promise<RunEntity | null>,
): AsyncGenerator<RunOutputChunk> {
  let delivered = 0;
  function* upTo(output: string | null): Generator<RunOutputChunk> {
    if (output && output.length > delivered) {
      yield { runId: stored.id, offset: delivered, text: output.slice(delivered) };
      delivered = output.length;
    }
  }
  yield* upTo(stored.output);
  if (outputEnded(stored)) return;
  for (;;) {
    const next = await published.next();
    if (next.done) return;
    const message = next.value;
    // Every subscriber in step ends here at once, without reading the run again.
    if ('ended' in message && message.length === delivered) return;
    if ('ended' in message || message.offset > delivered) {
      const now = await reread();
      yield* upTo(now?.output ?? null);
      if (!now || outputEnded(now)) return;
    } else if (message.offset === delivered && message.text.length > 0) {
      // The batch as published: every subscriber in step gets this one object, and shares its result.
      delivered += message.text.length;
      yield message;
    } else if (message.offset + message.text.length > delivered) {
      yield { runId: stored.id, offset: delivered, text: message.text.slice(delivered - message.offset) };
      delivered = message.offset + message.text.length;
    }
  }
}
