import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { AttachmentEntity } from './attachment.entity';
import { ContinuationEdgeEntity } from './continuation-edge.entity';
import { ContinuationProposalEntity } from './continuation-proposal.entity';
import { EventEntity } from './event.entity';
import { MemoryEntryEntity } from './memory-entry.entity';
import { MemoryPathEntity } from './memory-path.entity';
import { PlanRevisionEntity } from './plan-revision.entity';
import { ProjectionManifestEntity } from './projection-manifest.entity';
import { ResourceEntity } from './resource.entity';
import { ResourceVersionEntity } from './resource-version.entity';
import { RunEntity } from './run.entity';
import { SessionEntity } from './session.entity';

export {
  AccountEntity,
  ApiKeyEntity,
  AttachmentEntity,
  ContinuationEdgeEntity,
  ContinuationProposalEntity,
  EventEntity,
  MemoryEntryEntity,
  MemoryPathEntity,
  PlanRevisionEntity,
  ProjectionManifestEntity,
  ResourceEntity,
  ResourceVersionEntity,
  RunEntity,
  SessionEntity,
};
export const entities = [
  AccountEntity,
  ApiKeyEntity,
  SessionEntity,
  EventEntity,
  ContinuationEdgeEntity,
  ProjectionManifestEntity,
  ContinuationProposalEntity,
  RunEntity,
  PlanRevisionEntity,
  ResourceEntity,
  ResourceVersionEntity,
  MemoryEntryEntity,
  MemoryPathEntity,
  AttachmentEntity,
];
