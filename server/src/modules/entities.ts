import { AccountEntity } from './accounts/account.entity';
import { ApiKeyEntity } from './accounts/api-key.entity';
import { AttachmentEntity } from './attachments/attachment.entity';
import { ContinuationEdgeEntity } from './continuation/continuation-edge.entity';
import { ContinuationProposalEntity } from './continuation/continuation-proposal.entity';
import { ContinuationRateWindowEntity } from './continuation/continuation-rate-window.entity';
import { EventEntity } from './conversation/event.entity';
import { MemoryEntryEntity } from './resources/memory-entry.entity';
import { MemoryPathEntity } from './resources/memory-path.entity';
import { PlanRevisionEntity } from './plans/plan-revision.entity';
import { ProjectionManifestEntity } from './continuation/projection-manifest.entity';
import { ResourceEntity } from './resources/resource.entity';
import { ResourceVersionEntity } from './resources/resource-version.entity';
import { RunEntity } from './conversation/run.entity';
import { SessionEntity } from './conversation/session.entity';
import { ErasureReceiptEntity } from './lifecycle/erasure/erasure-receipt.entity';
import { RetentionPolicyEntity } from './lifecycle/retention/retention-policy.entity';
import { ImportRecordEntity } from './lifecycle/portability/import-record.entity';
import { WebhookDeliveryEntity } from './webhooks/webhook-delivery.entity';
import { WebhookEndpointEntity } from './webhooks/webhook-endpoint.entity';

/** Every module's entities, for the database to map. */
export const entities = [
  AccountEntity,
  ApiKeyEntity,
  SessionEntity,
  EventEntity,
  ContinuationEdgeEntity,
  ProjectionManifestEntity,
  ContinuationProposalEntity,
  ContinuationRateWindowEntity,
  RunEntity,
  PlanRevisionEntity,
  ResourceEntity,
  ResourceVersionEntity,
  MemoryEntryEntity,
  MemoryPathEntity,
  AttachmentEntity,
  ErasureReceiptEntity,
  RetentionPolicyEntity,
  ImportRecordEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
];
