import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { attachmentPath } from './attachments';
import type { AttachmentEntity } from './attachment.entity';
import type { AttachmentsContext } from './attachments.context';
import { Attachment } from './attachment.type';

@Resolver(() => Attachment)
export class AttachmentResolver {
  @Query(() => Attachment, {
    nullable: true,
    description: "One of the caller's attachments; null for a cid the account does not hold (whether or not another account does).",
  })
  attachment(
    @Arg('cid', { description: 'The content id: sha256 hex of the bytes, as POST /attachments answered.' }) cid: string,
    @Ctx() ctx: AttachmentsContext,
  ): Promise<AttachmentEntity | null> {
    return ctx.services.attachments.find(ctx.viewer, cid);
  }

  @FieldResolver(() => String, {
    description: 'Where its bytes are served, relative to the server: GET with the same Bearer key (see the API README).',
  })
  url(@Root() attachment: AttachmentEntity): string {
    return attachmentPath(attachment.cid);
  }
}
