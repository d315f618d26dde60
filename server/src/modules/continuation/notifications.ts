import type { ConversationNotifier } from '../conversation/notifications';
import type { ContinuationEdgeEntity } from './continuation-edge.entity';
import type { ContinuationProposalEntity } from './continuation-proposal.entity';

/** Where continuations, and the conversation changes they make, are announced after commit. */
export interface ContinuationNotifier extends ConversationNotifier {
  sessionContinued(edge: ContinuationEdgeEntity): void;
  /** Continuation proposals made, decided, superseded or expired. */
  proposalsChanged(proposals: ContinuationProposalEntity[]): void;
}
