import { Field, ID, InputType } from 'type-graphql';

@InputType({ description: 'One block of a resource version.' })
export class ResourceBlockInput {
  @Field(() => ID, { description: '1 to 200 characters, unique within the version.' })
  id: string;

  @Field({ description: 'At most 100,000 characters.' })
  text: string;
}

@InputType({ description: 'A new version of a resource.' })
export class PutResourceInput {
  @Field({ description: 'Names the resource: 1 to 2,000 characters. The first put creates it.' })
  url: string;

  @Field(() => [ResourceBlockInput], { description: '1 to 1,000 blocks, in order.' })
  blocks: ResourceBlockInput[];
}

@InputType({ description: 'Content to store under a memory path.' })
export class WriteMemoryInput {
  @Field({ description: '1 to 1,000 characters.' })
  path: string;

  @Field({ description: '1 to 100,000 characters.' })
  content: string;
}
