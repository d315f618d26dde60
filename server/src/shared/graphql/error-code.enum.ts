import { registerEnumType } from 'type-graphql';
import { ErrorCode } from '../errors';

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
