import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { ContinuationEdgeEntity } from './continuation-edge.entity';
import { EventEntity } from './event.entity';
import { PlanRevisionEntity } from './plan-revision.entity';
import { ProjectionManifestEntity } from './projection-manifest.entity';
import { RunEntity } from './run.entity';
import { SessionEntity } from './session.entity';

export {
  AccountEntity,
  ApiKeyEntity,
  ContinuationEdgeEntity,
  EventEntity,
  PlanRevisionEntity,
  ProjectionManifestEntity,
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
  RunEntity,
  PlanRevisionEntity,
];
