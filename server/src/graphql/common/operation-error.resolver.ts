import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { SessionEntity } from '../../db/entities/session.entity';
import type { Context } from '../context';
import { Session } from '../sessions/session.type';
import { OperationError } from './operation-error.type';

@Resolver(() => OperationError)
export class OperationErrorResolver {
  @FieldResolver(() => Session, { nullable: true, description: 'With SESSION_CONTINUED: where the conversation went.' })
  currentContinuation(@Root() error: OperationError, @Ctx() ctx: Context): Promise<SessionEntity | null> | null {
    return error.currentContinuationId ? ctx.loaders.sessionById.load(error.currentContinuationId) : null;
  }
}
