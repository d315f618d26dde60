import { Field, ID, ObjectType } from 'type-graphql';
import { RunKind, RunStatus } from '../../domain/runs';

@ObjectType({ description: 'One unit of agent work: a turn answering a user message, or delegated work.' })
export class Run {
  @Field(() => ID)
  id: string;

  @Field(() => RunKind)
  kind: RunKind;

  @Field(() => RunStatus)
  status: RunStatus;

  @Field(() => String, { nullable: true, description: 'The tool call that started a delegated run.' })
  toolCallId: string | null;

  @Field(() => String, { nullable: true, description: 'Why a FAILED run failed, in words a person can act on.' })
  error: string | null;

  @Field()
  createdAt: Date;

  @Field()
  updatedAt: Date;
}
