import './graphql/conversation.enums';
import { EventResolver } from './graphql/event.resolver';
import { OperationErrorResolver } from './graphql/operation-error.resolver';
import { RunResolver } from './graphql/run.resolver';
import { SessionResolver } from './graphql/session.resolver';

/** Sessions, their immutable transcripts and the runs that answer them. */
export const conversationResolvers = [SessionResolver, EventResolver, RunResolver, OperationErrorResolver] as const;
