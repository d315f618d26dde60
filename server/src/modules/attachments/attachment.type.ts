import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A file stored once per account by content: cid is the sha256 (hex) of its bytes.' })
export class Attachment {
  @Field({ description: 'Content id: sha256 (hex, lower case) of the bytes. The same bytes uploaded again have the same cid.' })
  cid: string;

  @Field({ description: 'The file name given with the first upload of these bytes (1 to 255 characters).' })
  name: string;

  @Field({ description: 'The media type sent as Content-Type with the first upload, lower case, e.g. "image/png".' })
  mediaType: string;

  @Field(() => Int, { description: 'Size of the bytes.' })
  byteSize: number;

  @Field({ description: 'When the account first stored these bytes.' })
  createdAt: Date;
}
