import { registerEnumType } from 'type-graphql';
import { Actor, ContinuationReason, PlanTransfer, SourceKind } from '../continuations';
import { ProposalStatus } from '../proposals';
import { ContextSectionKind, ManifestItemOrigin, ManifestItemStatus } from '../projection/model';

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

registerEnumType(ManifestItemOrigin, {
  name: 'ManifestItemOrigin',
  description: 'Who selected a manifest item.',
  valuesConfig: {
    CITED: { description: "Named in the continuation's sources (or its pinned resources)." },
    RUNTIME: { description: 'Added by the runtime: the initiating message, the recent exchange.' },
    RECOMMENDED: { description: "Chosen by assisted selection for the handoff's purpose and current request." },
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
