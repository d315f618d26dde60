import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { SourceKind } from '../continuations';
import type { Recommendation } from '../assisted/recommendations.service';

@ObjectType({
  description: 'A source that assisted selection recommends carrying for a purpose. Its fields are those of a ContinuationSourceInput of the same kind.',
})
export class SourceRecommendation {
  @Field(() => SourceKind, { description: 'SESSION_EVENT for a single event, SESSION_EVENTS for a range, RESOURCE for a block of a resource version, MEMORY for a memory entry.' })
  kind: SourceKind;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS and SESSION_EVENT: the session holding the events.' })
  sessionId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the first event of the range.' })
  fromEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENTS: the last event of the range, inclusive.' })
  toEventId: string | null;

  @Field(() => ID, { nullable: true, description: 'SESSION_EVENT: the event.' })
  eventId: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the resource.' })
  url: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the exact version, its latest when recommended.' })
  version: string | null;

  @Field(() => String, { nullable: true, description: 'RESOURCE: the block that matched.' })
  blockId: string | null;

  @Field(() => String, { nullable: true, description: 'MEMORY: the path of the entry.' })
  path: string | null;

  @Field(() => String, { nullable: true, description: 'MEMORY: the content id of the entry the path names now.' })
  cid: string | null;

  @Field(() => Float, { description: 'Relevance for the purpose under the ranking the API documentation describes (docs/api.md); higher is better.' })
  score: number;

  @Field({ description: 'Why, for a person: the matched terms, earlier recalls of the same source.' })
  reason: string;

  @Field(() => Int, { description: 'Tokens of the whole source.' })
  tokenCount: number;

  static of(recommendation: Recommendation): SourceRecommendation {
    const none = { sessionId: null, fromEventId: null, toEventId: null, eventId: null, url: null, version: null, blockId: null, path: null, cid: null };
    const { score, reason } = recommendation;
    if (recommendation.type === 'CONTENT') {
      const { item } = recommendation.source;
      return Object.assign(new SourceRecommendation(), none, {
        kind: item.kind,
        url: item.url,
        version: item.version,
        blockId: item.blockId,
        path: item.path,
        cid: item.kind === SourceKind.MEMORY ? item.cid : null,
        score,
        reason,
        tokenCount: item.tokenCount,
      });
    }
    const single = recommendation.first.id === recommendation.last.id;
    return Object.assign(new SourceRecommendation(), none, {
      kind: single ? SourceKind.SESSION_EVENT : SourceKind.SESSION_EVENTS,
      sessionId: recommendation.first.sessionId,
      fromEventId: single ? null : recommendation.first.id,
      toEventId: single ? null : recommendation.last.id,
      eventId: single ? recommendation.first.id : null,
      score,
      reason,
      tokenCount: recommendation.tokenCount,
    });
  }
}
