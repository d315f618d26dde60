import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SessionKind, SessionStatus } from '../../domain/sessions';
import { PageInfo } from '../common/page-info.type';
import { Node } from '../nodes/node.type';

@ObjectType({ description: 'A conversation: an immutable transcript plus its place in a lineage.', implements: Node, simpleResolvers: true })
export class Session {
  @Field(() => ID)
  id: string;

  @Field(() => SessionKind)
  kind: SessionKind;

  @Field(() => SessionStatus)
  status: SessionStatus;

  @Field()
  title: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field()
  createdAt: Date;

  @Field(() => Int, { description: 'Number of events in the transcript (a running total, not a scan).' })
  eventCount: number;

  @Field(() => Int, { description: "Sum of the events' token counts under the server's tokenizer (o200k_base)." })
  tokenCount: number;
}

@ObjectType()
export class SessionEdge {
  @Field({ description: 'Opaque cursor; pass it as `after` to read the sessions that follow.' })
  cursor: string;

  @Field(() => Session)
  node: Session;
}

@ObjectType()
export class SessionConnection {
  @Field(() => [SessionEdge])
  edges: SessionEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  @Field(() => Int, { description: 'Sessions matching the filters, across all pages.' })
  totalCount: number;
}

@ObjectType({ description: "How much of the model's context window the session's next turn fills (evaluated between turns)." })
export class ContextUsage {
  @Field(() => Int, { description: "Tokens of the session's model context: a successor's projection plus its own events, otherwise its transcript." })
  tokens: number;

  @Field(() => Int, { description: "The model's context window, in the same tokens." })
  windowTokens: number;

  @Field(() => Float, { description: 'Share of the window from which a continuation is advised.' })
  threshold: number;

  @Field(() => Float, { description: 'tokens / windowTokens.' })
  share: number;
}
