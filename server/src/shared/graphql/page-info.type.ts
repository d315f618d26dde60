import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Where a page sits in its list.' })
export class PageInfo {
  @Field({ description: 'More items follow this page (within the requested bounds).' })
  hasNextPage: boolean;

  @Field({ description: 'Items precede this page (within the requested bounds).' })
  hasPreviousPage: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first item of the page.' })
  startCursor: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last item of the page.' })
  endCursor: string | null;
}
