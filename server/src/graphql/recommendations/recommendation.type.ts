import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SourceKind } from '../../domain/continuations';
import type { RankedRange } from '../../domain/recommendations';

@ObjectType({
  description: 'A source that assisted selection recommends carrying for a purpose. Its fields are those of a ContinuationSourceInput of the same kind.',
})
export class SourceRecommendation {
  @Field(() => SourceKind, { description: 'SESSION_EVENT for a single event, SESSION_EVENTS for a range.' })
  kind: SourceKind;

  @Field(() => ID, { nullable: true, description: 'The session holding the events.' })
  sessionId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the first event of the range.' })
  fromEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the last event of the range, inclusive.' })
  toEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENT: the event.' })
  eventId: string | null;

  @Field(() => String, { nullable: true, description: 'Null: assisted selection recommends events only.' })
  url: string | null;

  @Field(() => String, { nullable: true, description: 'Null: assisted selection recommends events only.' })
  version: string | null;

  @Field(() => String, { nullable: true, description: 'Null: assisted selection recommends events only.' })
  blockId: string | null;

  @Field(() => String, { nullable: true, description: 'Null: assisted selection recommends events only.' })
  path: string | null;

  @Field(() => String, { nullable: true, description: 'Null: assisted selection recommends events only.' })
  cid: string | null;

  @Field(() => Float, { description: 'Relevance for the purpose under the ranking the README describes; higher is better.' })
  score: number;

  @Field({ description: 'Why, for a person: the matched terms, earlier recalls of the same source.' })
  reason: string;

  @Field(() => Int, { description: 'Tokens of the whole source.' })
  tokenCount: number;

  static of(range: RankedRange): SourceRecommendation {
    const single = range.first.id === range.last.id;
    return Object.assign(new SourceRecommendation(), {
      kind: single ? SourceKind.SESSION_EVENT : SourceKind.SESSION_EVENTS,
      sessionId: range.first.sessionId,
      fromEventId: single ? null : range.first.id,
      toEventId: single ? null : range.last.id,
      eventId: single ? range.first.id : null,
      url: null,
      version: null,
      blockId: null,
      path: null,
      cid: null,
      score: range.score,
      reason: range.reason,
      tokenCount: range.tokenCount,
    });
  }
}
