import { Field, ID, Int, ObjectType } from 'type-graphql';
import { RunKind, RunStatus } from '../runs';
import { Node } from '../../../shared/graphql/node.type';

@ObjectType({
  description: 'One unit of agent work: a turn answering a user message, or delegated work.',
  implements: Node,
  simpleResolvers: true,
})
export class Run {
  @Field(() => ID, { description: 'Globally unique (a UUID); Query.node finds the run by it. A run transferred to a successor keeps it.' })
  id: string;

  @Field(() => RunKind, { description: 'TURN or DELEGATED.' })
  kind: RunKind;

  @Field(() => RunStatus, { description: 'Where the run stands: QUEUED, RUNNING, then SUCCEEDED, FAILED or CANCELLED.' })
  status: RunStatus;

  @Field(() => String, { nullable: true, description: 'The tool call that started a delegated run.' })
  toolCallId: string | null;

  @Field(() => String, { nullable: true, description: 'Why a FAILED run failed, in words a person can act on.' })
  error: string | null;

  @Field(() => Int, { description: 'How many times a worker has started the run (a retry or a takeover after a lost worker adds one).' })
  attempt: number;

  @Field(() => Date, { nullable: true, description: 'When a worker first started the run.' })
  startedAt: Date | null;

  @Field(() => Date, { nullable: true, description: 'When the run last settled.' })
  finishedAt: Date | null;

  @Field({ description: 'When the run was queued.' })
  createdAt: Date;

  @Field({ description: 'When the run last changed.' })
  updatedAt: Date;
}

@ObjectType({ description: "A piece of a run's answer as the model produces it. The ASSISTANT_MESSAGE event stays the record.", simpleResolvers: true })
export class RunOutputChunk {
  @Field(() => ID, { description: 'The run whose answer this is a piece of.' })
  runId: string;

  @Field(() => Int, {
    description:
      "Offset of text in the run's answer, in UTF-16 code units (as JavaScript counts): a client that read Run.output first drops what it already has.",
  })
  offset: number;

  @Field({ description: 'The text produced from offset on: joined in offset order, the pieces are the answer.' })
  text: string;
}
