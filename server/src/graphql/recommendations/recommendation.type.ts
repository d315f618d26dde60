import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SourceKind } from '../../domain/continuations';
import type { RankedRange } from '../../domain/recommendations';

@ObjectType({
  description: 'A source that assisted selection recommends carrying for a purpose. Its fields are those of a ContinuationSourceInput of the same kind.',
})
export class SourceRecommendation {
  @Field(() => SourceKind)
  kind: SourceKind;

  @Field(() => ID, { nullable: true })
  sessionId: string | null;

  @Field(() => ID, { nullable: true })
  fromEventId: string | null;

  @Field(() => ID, { nullable: true })
  toEventId: string | null;

  @Field(() => ID, { nullable: true })
  eventId: string | null;

  @Field(() => String, { nullable: true })
  url: string | null;

  @Field(() => String, { nullable: true })
  version: string | null;

  @Field(() => String, { nullable: true })
  blockId: string | null;

  @Field(() => String, { nullable: true })
  path: string | null;

  @Field(() => String, { nullable: true })
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
