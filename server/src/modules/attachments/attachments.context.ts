import DataLoader from 'dataloader';
import type { RequestContext } from '../../shared/graphql/request-context';
import type { LoaderFactories } from '../../shared/graphql/lazy-loaders';
import type { AttachmentEntity } from './attachment.entity';
import type { AttachmentService } from './attachments.service';

export interface AttachmentServices {
  attachments: AttachmentService;
}

export interface AttachmentLoaders {
  attachmentByCid: DataLoader<string, AttachmentEntity | null>;
}

export interface AttachmentsContext extends RequestContext {
  services: AttachmentServices;
  loaders: AttachmentLoaders;
}

export const attachmentLoaders: LoaderFactories<AttachmentLoaders, AttachmentServices> = {
  attachmentByCid: ({ accountId }, services) => new DataLoader((cids) => services.attachments.attachmentsByCids(accountId, cids)),
};
