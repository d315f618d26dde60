import { Field, ObjectType, createUnionType } from 'type-graphql';
import type { EventEntity } from '../event.entity';
import type { RunEntity } from '../run.entity';
import type { SessionEntity } from '../session.entity';
import { OperationError } from '../../../shared/graphql/operation-error.type';
import { Run } from './run.type';
import { Session } from './session.type';
import { Event } from './event.type';

@ObjectType({ description: 'The message was stored (or replayed for its clientMessageId).' })
export class PostMessageSuccess {
  @Field(() => Event, { description: 'The stored user message (the first one, for a replayed clientMessageId).' })
  event: EventEntity;

  @Field(() => Session, {
    description: 'The session that received the message: a new continuation branch when branch was true.',
  })
  session: SessionEntity;

  @Field(() => Run, {
    nullable: true,
    description: "The run started for the message: with branch, the new continuation's initial run.",
  })
  run: RunEntity | null;

  static of(event: EventEntity, session: SessionEntity, run: RunEntity | null): PostMessageSuccess {
    return Object.assign(new PostMessageSuccess(), { event, session, run });
  }
}

export const PostMessageResult = createUnionType({
  name: 'PostMessageResult',
  description: 'What postMessage did: the stored message, or the expected failure that wrote nothing.',
  types: () => [PostMessageSuccess, OperationError] as const,
});
