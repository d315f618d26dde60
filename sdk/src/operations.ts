export type { TypedDocument } from './typed-document.js';
export { CONTINUATION_EDGE, CONTINUE_SESSION, CREATE_SESSION, LINEAGE, POST_MESSAGE, RUN_OUTPUT, SEARCH_EVENTS, SESSION_EVENTS, SESSIONS } from './generated/operations.js';
