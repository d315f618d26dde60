import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RunEntity } from '../../db/entities/run.entity';
import type { SessionEntity } from '../../db/entities/session.entity';
import type { Context } from '../context';
import { Session } from '../sessions/session.type';
import { Run } from './run.type';

@Resolver(() => Run)
export class RunResolver {
  @FieldResolver(() => Session, { description: 'The session the run reports to.' })
  session(@Root() run: RunEntity, @Ctx() ctx: Context): Promise<SessionEntity> {
    return ctx.loaders.sessionById.load(run.sessionId).then((session) => session!);
  }

  @FieldResolver(() => Session, { nullable: true, description: 'For a delegated run, the child session doing the work.' })
  childSession(@Root() run: RunEntity, @Ctx() ctx: Context): Promise<SessionEntity | null> | null {
    return run.childSessionId ? ctx.loaders.sessionById.load(run.childSessionId) : null;
  }
}
