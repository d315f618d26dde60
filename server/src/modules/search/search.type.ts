import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { EventEntity } from '../conversation/event.entity';
import { PageInfo } from '../../shared/graphql/page-info.type';
import { Event } from '../conversation/graphql/event.type';

@ObjectType({ description: 'An event matching a search.' })
export class EventSearchHit {
  @Field(() => Event, { description: 'The matching event.' })
  event: EventEntity;

  @Field(() => Float, { description: "Relevance under the server's ranking; higher is better; comparable only within one result." })
  score: number;

  @Field({
    description:
      "A short excerpt of the event's text around the match, matched terms wrapped in <mark></mark>. The rest is HTML-escaped, so the snippet is safe to show as HTML.",
  })
  snippet: string;
}

@ObjectType({ description: 'A search hit of a page, with its cursor.' })
export class EventSearchHitEdge {
  @Field({ description: 'Opaque cursor; pass it as `after` to read the hits that follow.' })
  cursor: string;

  @Field(() => EventSearchHit, { description: 'The hit.' })
  node: EventSearchHit;
}

@ObjectType({ description: 'A page of search hits, best first.' })
export class EventSearchConnection {
  @Field(() => [EventSearchHitEdge], { description: 'The hits of this page, best first, each with its cursor.' })
  edges: EventSearchHitEdge[];

  @Field(() => PageInfo, { description: 'Where this page sits among the hits.' })
  pageInfo: PageInfo;

  @Field(() => Int, {
    description:
      'Events matching the search in its scope (any of its words), across all pages: an exact count, whose cost grows with the matches, made only when this field is selected. A page alone costs what its best hits cost.',
  })
  totalCount: number | Promise<number>;
}
