import type { RequestContext } from '../../shared/graphql/request-context';
import type { ErasureService } from './erasure/erasure.service';
import type { RetentionService } from './retention/retention.service';
import type { ExportService } from './portability/export.service';
import type { ImportService } from './portability/import.service';

export interface LifecycleServices {
  erasures: ErasureService;
  retention: RetentionService;
  exports: ExportService;
  imports: ImportService;
}

export interface LifecycleContext extends RequestContext {
  services: LifecycleServices;
}
