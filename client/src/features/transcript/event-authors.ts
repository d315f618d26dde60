import type { EventKind } from '../../gql/graphql';

/** Who wrote an event of each kind, as the transcript and search hits name them. */
export const AUTHOR_BY_KIND: Record<EventKind, string> = {
  USER_MESSAGE: 'You',
  ASSISTANT_MESSAGE: 'Assistant',
  TOOL_CALL: 'Tool call',
  TOOL_RESULT: 'Tool result',
  SYSTEM: 'System',
  CONTINUATION: 'Continuation',
};
