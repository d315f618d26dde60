import DataLoader from 'dataloader';
import type { RequestContext } from '../../shared/graphql/request-context';
import type { Viewer } from '../../shared/viewer';
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

export function attachmentLoaders({ accountId }: Viewer, services: AttachmentServices): AttachmentLoaders {
  return { attachmentByCid: new DataLoader((cids) => services.attachments.attachmentsByCids(accountId, cids)) };
}
