import { registerEnumType } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../modules/continuation/continuations';
import { ErrorCode } from '../shared/errors';
import { PlanStepStatus } from '../modules/plans/plans';
import { ContinuationApproval, ProposalStatus } from '../modules/continuation/approval/proposals';
import { ContextSectionKind, ManifestItemOrigin, ManifestItemStatus } from '../modules/continuation/projection/projection';
import { RunKind, RunStatus } from '../modules/conversation/runs';
import { SearchScope } from '../modules/search/search';
import { SessionKind, SessionStatus } from '../modules/conversation/sessions';
import { EventKind } from '../modules/conversation/transcript';

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

registerEnumType(ErrorCode, {
  name: 'ErrorCode',
  description: 'Why an operation failed; nothing was written.',
  valuesConfig: {
    INVALID_INPUT: { description: 'The input is malformed or out of its documented limits; `details` says where.' },
    NOT_FOUND: { description: 'No such object in the caller\'s account.' },
    FORBIDDEN: { description: 'The caller may not do this.' },
    SESSION_CONTINUED: {
      description: 'Writing to a predecessor: open the current continuation or branch explicitly.',
    },
    TURN_IN_PROGRESS: { description: 'A run is active or a tool call is unresolved: continue at a turn boundary.' },
    PENDING_RUNS_NOT_TRANSFERRED: { description: 'Delegated runs are pending: transfer them explicitly or settle them.' },
    SOURCE_NOT_FOUND: { description: 'A cited source does not exist.' },
    SOURCE_NOT_ACCESSIBLE: { description: 'A cited source exists but the caller may not read it.' },
    IDEMPOTENCY_KEY_REUSED: { description: 'The same idempotency key was used for a different request.' },
    CYCLE: { description: 'The continuation would make the lineage a cycle.' },
    RATE_LIMITED: { description: 'Too many continuations; wait or send a new user message first.' },
  },
});

registerEnumType(ContinuationReason, {
  name: 'ContinuationReason',
  description: 'Why a session was continued.',
  valuesConfig: {
    TOPIC_CHANGE: { description: 'The user changed to a substantially different subject.' },
    PHASE_CHANGE: { description: 'One phase of the work ended and another began.' },
    CONTEXT_PRESSURE: { description: 'The transcript approached the model\'s context budget.' },
    USER_REQUEST: { description: 'The user asked for a fresh session.' },
    OTHER: { description: 'Another reason, explained in the handoff.' },
  },
});

registerEnumType(Actor, {
  name: 'Actor',
  description: 'Who made a transition.',
  valuesConfig: {
    AGENT: { description: 'The agent, through the continue_session tool or the API.' },
    USER: { description: 'A person, e.g. by branching from a continued session.' },
    SYSTEM: { description: 'The runtime itself.' },
  },
});

registerEnumType(SourceKind, {
  name: 'SourceKind',
  description: 'What a cited source or a manifest item names.',
  valuesConfig: {
    SESSION_EVENTS: { description: 'An inclusive range of events of one session.' },
    SESSION_EVENT: { description: 'One event.' },
    RESOURCE: { description: 'A resource version, or one block of it.' },
    MEMORY: { description: 'A memory entry by path and content id.' },
    ATTACHMENT: { description: "An attachment by content id: carried as a reference (name, media type, size), never as its bytes; a text attachment's content as an excerpt when it fits." },
  },
});

registerEnumType(ManifestItemStatus, {
  name: 'ManifestItemStatus',
  description: "What became of a manifest item in the successor's initial context.",
  valuesConfig: {
    INCLUDED: { description: "Loaded into the successor's initial context." },
    OMITTED: { description: 'Linked but cold: did not fit the budget; reachable through recall.' },
    UNAVAILABLE: { description: 'Revoked or no longer accessible: shown as a broken breadcrumb, never substituted.' },
  },
});

registerEnumType(ContextSectionKind, {
  name: 'ContextSectionKind',
  description: 'Sections of a projected context, in the order the compiler fills them.',
  valuesConfig: {
    SYSTEM: { description: 'How to read a projection: the handoff is orientation, exact sources win, omitted ones are recalled.' },
    IDENTITY: { description: "The account, its grants and the agent's tools." },
    STATE: { description: 'The structured state carried: plan, pending runs, pinned tools and resources.' },
    LINEAGE: { description: 'The runtime-generated lineage block: where this session sits among its predecessors.' },
    INITIATING_MESSAGE: { description: 'The user message that caused the continuation, exactly.' },
    HANDOFF: { description: 'The agent-written handoff.' },
    PINNED_SOURCE: { description: 'Content of the pinned resources.' },
    RECENT_EXCHANGE: { description: "The predecessor's last events before the initiating message (up to 8)." },
    EXCERPT: { description: 'Exact events and content of cited and recommended sources, as far as the budget allows.' },
    OMITTED_HANDLES: { description: 'How to recall each source left out for the budget (or one line for all of them).' },
  },
});

registerEnumType(PlanTransfer, {
  name: 'PlanTransfer',
  description: "What a continuation does with the predecessor's plan.",
  valuesConfig: {
    CARRY: { description: 'The successor gets the plan with the same step ids and statuses.' },
    CLOSE: { description: "The predecessor's plan is closed; the successor starts without one." },
    OMIT: { description: 'The plan stays with the predecessor.' },
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

registerEnumType(PlanStepStatus, {
  name: 'PlanStepStatus',
  description: 'How far a plan step has come.',
  valuesConfig: {
    PENDING: { description: 'Not started.' },
    IN_PROGRESS: { description: 'Being worked on.' },
    DONE: { description: 'Finished.' },
    CANCELLED: { description: 'Dropped without being finished.' },
  },
});

registerEnumType(SearchScope, {
  name: 'SearchScope',
  description: 'Where a search looks.',
  valuesConfig: {
    SESSION: { description: 'The given session only.' },
    LINEAGE: { description: "The given session's whole lineage tree: its origin and every continuation, branches included." },
    ACCOUNT: { description: "Every session of the caller's account." },
  },
});

registerEnumType(ManifestItemOrigin, {
  name: 'ManifestItemOrigin',
  description: 'Who selected a manifest item.',
  valuesConfig: {
    CITED: { description: "Named in the continuation's sources (or its pinned resources)." },
    RUNTIME: { description: 'Added by the runtime: the initiating message, the recent exchange.' },
    RECOMMENDED: { description: "Chosen by assisted selection for the handoff's purpose and current request." },
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

registerEnumType(ProposalStatus, {
  name: 'ProposalStatus',
  description: 'Where a continuation proposal stands.',
  valuesConfig: {
    PENDING: { description: 'Waiting for a person, until expiresAt.' },
    APPROVED: { description: 'A person approved it: it became the continuation its edge names.' },
    REJECTED: { description: 'A person rejected it; the agent answered in place.' },
    EXPIRED: { description: 'Nobody decided before expiresAt, or a newer proposal of the session replaced it.' },
  },
});
