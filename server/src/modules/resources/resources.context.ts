import type { RequestContext } from '../../shared/graphql/request-context';
import type { RecallRecorder } from '../../shared/recall';
import type { ResourceService } from './resources.service';

export interface ResourcesContext extends RequestContext {
  services: { resources: ResourceService; recalls: RecallRecorder };
}
