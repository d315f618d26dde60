import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SessionKind, SessionStatus, ContinuationApproval } from '../sessions';
import { PageInfo } from '../../../shared/graphql/page-info.type';
import { Node } from '../../../shared/graphql/node.type';

@ObjectType({ description: 'A conversation: an immutable transcript plus its place in a lineage.', implements: Node, simpleResolvers: true })
export class Session {
  @Field(() => ID, { description: 'Globally unique (a UUID); Query.node finds the session by it.' })
  id: string;

  @Field(() => SessionKind, { description: 'How the session came to be: ROOT, CHILD, CONTINUATION or FORK.' })
  kind: SessionKind;

  @Field(() => SessionStatus, { description: 'ACTIVE while it is the foreground of its line, CONTINUED once it has a successor, or ARCHIVED.' })
  status: SessionStatus;

  @Field({ description: 'Shown in lists and on transition cards; 1 to 200 characters.' })
  title: string;

  @Field(() => String, { nullable: true, description: 'What the session is about, as its creator put it; at most 2,000 characters.' })
  description: string | null;

  @Field({ description: 'When the session was created.' })
  createdAt: Date;

  @Field(() => Date, {
    nullable: true,
    description: 'When the content of the session was erased (its title, its events, its plan); it then takes no more messages. Null for a session in use.',
  })
  erasedAt: Date | null;

  @Field(() => Int, { description: 'Number of events in the transcript (a running total, not a scan).' })
  eventCount: number;

  @Field(() => Int, { description: "Sum of the events' token counts under the server's tokenizer (o200k_base)." })
  tokenCount: number;

  @Field(() => ContinuationApproval, {
    description:
      "Whether an agent's continue_session takes effect at once (AUTOMATIC) or waits for a person (ASK). Set at creation or with setContinuationApproval; a successor inherits its predecessor's.",
  })
  continuationApproval: ContinuationApproval;
}

@ObjectType({ description: 'A session of a page, with its cursor.' })
export class SessionEdge {
  @Field({ description: 'Opaque cursor; pass it as `after` to read the sessions that follow.' })
  cursor: string;

  @Field(() => Session, { description: 'The session.' })
  node: Session;
}

@ObjectType({ description: "A page of the viewer's sessions." })
export class SessionConnection {
  @Field(() => [SessionEdge], { description: 'The sessions of this page, newest first, each with its cursor.' })
  edges: SessionEdge[];

  @Field(() => PageInfo, { description: 'Where this page sits in the list.' })
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
