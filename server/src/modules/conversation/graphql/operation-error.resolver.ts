import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SessionEntity } from '../session.entity';
import type { ConversationContext } from './conversation.context';
import { Session } from './session.type';
import { OperationError } from '../../../shared/graphql/operation-error.type';

@Resolver(() => OperationError)
export class OperationErrorResolver {
  @FieldResolver(() => Session, { nullable: true, description: 'With SESSION_CONTINUED: where the conversation went.' })
  currentContinuation(@Root() error: OperationError, @Ctx() ctx: ConversationContext): Promise<SessionEntity | null> | null {
    return error.currentContinuationId ? ctx.loaders.sessionById.load(error.currentContinuationId) : null;
  }
}
