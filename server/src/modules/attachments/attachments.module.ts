import { AttachmentResolver } from './attachment.resolver';

/** Files attached to messages, stored once per account by content id. */
export const attachmentsResolvers = [AttachmentResolver] as const;
