import { registerEnumType } from 'type-graphql';
import { RunKind, RunStatus } from '../runs';
import { ContinuationApproval, SessionKind, SessionStatus } from '../sessions';
import { EventKind } from '../transcript';

registerEnumType(SessionKind, {
  name: 'SessionKind',
  description: 'How a session came to be.',
  valuesConfig: {
    ROOT: { description: 'A new session with no conversational lineage.' },
    CHILD: { description: 'Delegated work expected to report back to its parent.' },
    CONTINUATION: { description: 'Successor of exactly one predecessor (foreground replacement).' },
    FORK: { description: 'An alternative path from an earlier point of another session.' },
  },
});

registerEnumType(SessionStatus, {
  name: 'SessionStatus',
  description: 'Where a session stands in its line.',
  valuesConfig: {
    ACTIVE: { description: 'The foreground conversation of its line.' },
    CONTINUED: { description: 'Has at least one successor; complete and read-only.' },
    ARCHIVED: { description: 'Kept for reference; takes no new messages.' },
  },
});

registerEnumType(EventKind, {
  name: 'EventKind',
  description: 'What kind of entry an event is.',
  valuesConfig: {
    USER_MESSAGE: { description: 'A message written by the user.' },
    ASSISTANT_MESSAGE: { description: 'A message written by the agent.' },
    TOOL_CALL: { description: 'A tool call made by the agent; `toolCallId` pairs it with its result.' },
    TOOL_RESULT: { description: 'The result of the tool call with the same `toolCallId`.' },
    SYSTEM: { description: 'A note written by the runtime.' },
    CONTINUATION: { description: 'Transition card in a predecessor, or the banner event opening a successor.' },
  },
});

registerEnumType(RunStatus, {
  name: 'RunStatus',
  description: 'Where a run stands.',
  valuesConfig: {
    QUEUED: { description: 'Waiting for a worker.' },
    RUNNING: { description: 'A worker is on it.' },
    SUCCEEDED: { description: 'Finished; what it produced is recorded in the transcript.' },
    FAILED: { description: 'Settled with an error (see Run.error); retryRun queues it again.' },
    CANCELLED: { description: 'Stopped before it settled on its own; it does not run again.' },
  },
});

registerEnumType(RunKind, {
  name: 'RunKind',
  description: 'What a run does.',
  valuesConfig: {
    TURN: { description: 'Answers a user message in its session.' },
    DELEGATED: { description: 'Work done in a child session that reports back to its parent.' },
  },
});

registerEnumType(ContinuationApproval, {
  name: 'ContinuationApproval',
  description: "Whether an agent's continue_session takes effect at once or waits for a person.",
  valuesConfig: {
    AUTOMATIC: { description: "The agent's continue_session creates the successor at once (visible and reversible)." },
    ASK: { description: 'It becomes a proposal that a person approves (possibly edited) or rejects.' },
  },
});
