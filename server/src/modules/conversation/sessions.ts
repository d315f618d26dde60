import { ErrorCode, ErrorDetail, OperationFailure } from '../../shared/errors';

export const SessionKind = {
  ROOT: 'ROOT',
  CHILD: 'CHILD',
  CONTINUATION: 'CONTINUATION',
  FORK: 'FORK',
} as const;
export type SessionKind = (typeof SessionKind)[keyof typeof SessionKind];

export const SessionStatus = {
  ACTIVE: 'ACTIVE',
  CONTINUED: 'CONTINUED',
  ARCHIVED: 'ARCHIVED',
} as const;
export type SessionStatus = (typeof SessionStatus)[keyof typeof SessionStatus];

/** Whether an agent's continue_session takes effect at once or waits for a person. */
export const ContinuationApproval = { AUTOMATIC: 'AUTOMATIC', ASK: 'ASK' } as const;
export type ContinuationApproval = (typeof ContinuationApproval)[keyof typeof ContinuationApproval];

export const TITLE_MAX_CHARS = 200;
export const DESCRIPTION_MAX_CHARS = 2_000;

/** Problems with a session's title and description, addressed under `pathPrefix`. */
export function validateSessionText(
  input: { title: string; description?: string | null },
  pathPrefix: string[],
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.title.trim().length === 0) {
    details.push({ path: [...pathPrefix, 'title'], message: 'Title must not be empty.' });
  } else if (input.title.length > TITLE_MAX_CHARS) {
    details.push({ path: [...pathPrefix, 'title'], message: `Title must be at most ${TITLE_MAX_CHARS} characters.` });
  }
  if (input.description != null && input.description.length > DESCRIPTION_MAX_CHARS) {
    details.push({
      path: [...pathPrefix, 'description'],
      message: `Description must be at most ${DESCRIPTION_MAX_CHARS} characters.`,
    });
  }
  return details;
}

/** The refusal of a write to an erased session: its content is gone for good, and it takes nothing new. */
export function erasedSessionFailure(path: string[]): OperationFailure {
  return {
    code: ErrorCode.INVALID_INPUT,
    message: 'This session was erased: it takes no more writes. Start a new conversation.',
    details: [{ path, message: 'The session is erased.' }],
  };
}
