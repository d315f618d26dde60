import type { RequestContext } from '../../shared/graphql/request-context';
import type { ErasureService } from './erasure/erasure.service';
import type { RetentionService } from './retention/retention.service';

export interface LifecycleServices {
  erasures: ErasureService;
  retention: RetentionService;
}

export interface LifecycleContext extends RequestContext {
  services: LifecycleServices;
}
