import type { EventEntity } from './event.entity';
import type { RunEntity } from './run.entity';

/**
 * Where the conversation's services announce committed changes. Called only after the
 * transaction commits; the composition implements it with the pub/sub.
 */
export interface ConversationNotifier {
  eventsAppended(events: EventEntity[]): void;
  /** Runs created, claimed, settled, retried or moved to another session. */
  runsChanged(runs: RunEntity[]): void;
  /** A batch of a running run's answer, stored in its output already. */
  runOutputAppended(chunk: RunOutputChunk): void;
}

/** A piece of a run's answer at its offset (UTF-16 code units) in the answer. */
export interface RunOutputChunk {
  runId: string;
  offset: number;
  text: string;
}
