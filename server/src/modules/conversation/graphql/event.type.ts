import { Field, ID, Int, ObjectType } from 'type-graphql';
import { EventKind } from '../transcript';
import { PageInfo } from '../../../shared/graphql/page-info.type';
import { JSONScalar } from '../../../shared/graphql/scalars';
import { Node } from '../../../shared/graphql/node.type';

@ObjectType({
  description: 'One entry of a transcript. Events are append-only: never updated, never deleted; an erasure removes only their content.',
  implements: Node,
  simpleResolvers: true,
})
export class Event {
  @Field(() => ID, { description: 'Globally unique (a UUID); Query.node finds the event by it.' })
  id: string;

  @Field(() => Int, { description: "1-based position in its session's transcript, gap-free." })
  seq: number;

  @Field(() => EventKind, { description: 'What kind of entry this is.' })
  kind: EventKind;

  @Field(() => String, { nullable: true, description: 'The text of a message or note; null when the event carries only `data`.' })
  text: string | null;

  @Field(() => JSONScalar, { nullable: true, description: 'Structured payload (tool name and arguments, tool result, card data).' })
  data: unknown;

  @Field(() => String, { nullable: true, description: 'Pairs a TOOL_CALL with its TOOL_RESULT.' })
  toolCallId: string | null;

  @Field(() => Int, { description: 'Tokens of the text and payload under o200k_base, computed once at write time.' })
  tokenCount: number;

  @Field({
    description:
      "Content hash: sha256 hex of the canonical event content and the previous event's hash (see the README for the encoding).",
  })
  hash: string;

  @Field({ description: 'When the event was appended.' })
  createdAt: Date;

  @Field(() => Date, {
    nullable: true,
    description:
      "When the event's content was erased (eraseSession, redactEvent, retention): text, data and attachments are gone; id, seq, kind and hash remain.",
  })
  erasedAt: Date | null;
}

@ObjectType({ description: 'An event of a transcript page, with its cursor.' })
export class EventEdge {
  @Field({ description: 'Opaque cursor; pass it as `after` or `before`.' })
  cursor: string;

  @Field(() => Event, { description: 'The event.' })
  node: Event;
}

@ObjectType({ description: "A page of a session's transcript." })
export class EventConnection {
  @Field(() => [EventEdge], { description: 'The events of this page, in seq order, each with its cursor.' })
  edges: EventEdge[];

  @Field(() => PageInfo, { description: 'Where this page sits within the requested bounds.' })
  pageInfo: PageInfo;

  @Field(() => Int, { description: 'Events within fromSeq/toSeq, before cursors and page size apply.' })
  totalCount: number;
}
