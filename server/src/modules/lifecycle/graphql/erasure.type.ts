import { Field, ID, InputType, Int, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import '../../continuation/graphql/continuation.enums';
import { Actor } from '../../continuation/continuations';
import { OperationError } from '../../../shared/graphql/operation-error.type';
import { ErasureScope } from '../erasure/erasure';

registerEnumType(ErasureScope, {
  name: 'ErasureScope',
  description: 'What an erasure covered.',
  valuesConfig: {
    SESSION: { description: 'One session, with the child sessions it delegated work to.' },
    LINEAGE: { description: 'Every session of the lineage (its continuations and branches), with their child sessions.' },
    EVENT: { description: 'One event (redactEvent), with its replayed copies. Not accepted by eraseSession.' },
  },
});

@InputType({ description: 'Which session to erase, how far, and why.' })
export class EraseSessionInput {
  @Field(() => ID, { description: "The session (NOT_FOUND for another account's)." })
  sessionId: string;

  @Field(() => ErasureScope, { description: 'SESSION for this session alone, LINEAGE for its whole lineage.' })
  scope: ErasureScope;

  @Field({ description: 'Why, as the receipt keeps it: 1 to 1,000 characters.' })
  reason: string;
}

@ObjectType({ description: 'What an erasure removed. The structure (ids, seq, edges, hashes, times) stays, so lineages and hash chains remain verifiable.' })
export class ErasureReceipt {
  @Field(() => ID, { description: "The receipt's id." })
  id: string;

  @Field(() => ErasureScope, { description: 'A session, a lineage, or one event.' })
  scope: ErasureScope;

  @Field(() => [ID], { description: 'The sessions whose content was erased (for an event: the sessions of the event and of its replayed copies).' })
  sessionIds: string[];

  @Field(() => Int, { description: 'Events whose content was erased by this erasure.' })
  eventCount: number;

  @Field(() => Int, { description: 'Attachments whose bytes were removed, no remaining message linking them.' })
  attachmentCount: number;

  @Field({ description: 'Why, as the person (or the retention policy) gave it.' })
  reason: string;

  @Field(() => Actor, { description: 'USER for a request through the API, SYSTEM for the retention policy.' })
  actor: Actor;

  @Field({ description: 'Who asked: the account for a person, "retention policy" for the sweep.' })
  requestedBy: string;

  @Field(() => ID, { nullable: true, description: 'For a redaction: the event named.' })
  eventId: string | null;

  @Field({ description: 'When the erasure committed.' })
  erasedAt: Date;
}

export const EraseSessionResult = createUnionType({
  name: 'EraseSessionResult',
  description: 'The receipt of the erasure, or the expected failure that erased nothing.',
  types: () => [ErasureReceipt, OperationError] as const,
});

export const RedactEventResult = createUnionType({
  name: 'RedactEventResult',
  description: 'The receipt of the redaction, or the expected failure that erased nothing.',
  types: () => [ErasureReceipt, OperationError] as const,
});
