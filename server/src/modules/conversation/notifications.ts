import { ContinuationEdgeEntity } from '../continuation/continuation-edge.entity';
import { ContinuationProposalEntity } from '../continuation/approval/continuation-proposal.entity';
import { EventEntity } from './event.entity';
import { RunEntity } from './run.entity';

/**
 * Where services announce committed changes. Called only after the transaction commits;
 * the GraphQL layer implements it with its pub/sub.
 */
export interface ChangeNotifier {
  eventsAppended(events: EventEntity[]): void;
  sessionContinued(edge: ContinuationEdgeEntity): void;
  /** Runs created, claimed, settled, retried or moved to another session. */
  runsChanged(runs: RunEntity[]): void;
  /** A batch of a running run's answer, stored in its output already. */
  runOutputAppended(chunk: RunOutputChunk): void;
  /** Continuation proposals made, decided, superseded or expired. */
  proposalsChanged(proposals: ContinuationProposalEntity[]): void;
}

/** A piece of a run's answer at its offset (UTF-16 code units) in the answer. */
export interface RunOutputChunk {
  runId: string;
  offset: number;
  text: string;
}
