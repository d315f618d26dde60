import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One addressable part of a resource version.' })
export class ResourceBlock {
  @Field(() => ID, { description: 'Unique within its version; a continuation can cite the block by it.' })
  id: string;

  @Field({ description: 'The block text, exactly as stored.' })
  text: string;
}

@ObjectType({ description: 'One immutable version of a resource: what a manifest pins when it cites the resource.' })
export class ResourceVersion {
  @Field({ description: 'The resource this version belongs to.' })
  url: string;

  @Field({ description: '"1", "2", ... in the order the versions were stored, without gaps.' })
  version: string;

  @Field({ description: 'Content id: sha256 (hex) of the canonical JSON of the blocks as [{id, text}], in order.' })
  cid: string;

  @Field(() => [ResourceBlock], { description: 'The blocks, in order.' })
  blocks: ResourceBlock[];

  @Field({ description: 'When this version was stored.' })
  createdAt: Date;
}

@ObjectType({ description: "A url in the caller's account and its immutable versions." })
export class Resource {
  @Field({ description: 'What names the resource; unique per account.' })
  url: string;
}

@ObjectType({ description: 'Content stored under a path, addressed by its content id.' })
export class MemoryEntry {
  @Field({ description: 'Where the content is stored.' })
  path: string;

  @Field({ description: 'Content id: sha256 (hex) of the content in UTF-8. The same content at the same path has the same cid.' })
  cid: string;

  @Field({ description: 'The content, exactly as written.' })
  content: string;

  @Field({ description: 'When this content was first written at this path.' })
  createdAt: Date;
}
