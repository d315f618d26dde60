import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { EventEntity } from '../../db/entities/event.entity';
import { PageInfo } from '../common/page-info.type';
import { Event } from '../transcript/event.type';

@ObjectType({ description: 'An event matching a search.' })
export class EventSearchHit {
  @Field(() => Event)
  event: EventEntity;

  @Field(() => Float, { description: "Relevance under the server's ranking; higher is better; comparable only within one result." })
  score: number;

  @Field({
    description:
      "A short excerpt of the event's text around the match, matched terms wrapped in <mark></mark>. The rest is HTML-escaped, so the snippet is safe to show as HTML.",
  })
  snippet: string;
}

@ObjectType()
export class EventSearchHitEdge {
  @Field()
  cursor: string;

  @Field(() => EventSearchHit)
  node: EventSearchHit;
}

@ObjectType()
export class EventSearchConnection {
  @Field(() => [EventSearchHitEdge])
  edges: EventSearchHitEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  @Field(() => Int, { description: 'Events matching the search in its scope, across all pages.' })
  totalCount: number;
}
