import { Foundation1796018400000 } from './1796018400000-Foundation';
import { Continuations1796022000000 } from './1796022000000-Continuations';
import { ResourcesAndMemory1796025600000 } from './1796025600000-ResourcesAndMemory';
import { Plans1796029200000 } from './1796029200000-Plans';
import { ManifestRecalls1796032800000 } from './1796032800000-ManifestRecalls';
import { AgentRuntime1796036400000 } from './1796036400000-AgentRuntime';
import { ManifestsBySuccessor1796040000000 } from './1796040000000-ManifestsBySuccessor';
import { EventSearch1796043600000 } from './1796043600000-EventSearch';
import { ManifestsByOrigin1796047200000 } from './1796047200000-ManifestsByOrigin';
import { RunOutput1796050800000 } from './1796050800000-RunOutput';
import { Attachments1796054400000 } from './1796054400000-Attachments';
import { ContentSearch1796065200000 } from './1796065200000-ContentSearch';
import { ContinuationProposals1796068800000 } from './1796068800000-ContinuationProposals';
import { SearchIndexesWithoutPendingList1796072400000 } from './1796072400000-SearchIndexesWithoutPendingList';
import { SearchTermStatistics1796076000000 } from './1796076000000-SearchTermStatistics';
import { DataLifecycle1796181596470 } from './1796181596470-DataLifecycle';
import { ApiKeyScopes1796185200000 } from './1796185200000-ApiKeyScopes';
import { Webhooks1796188800000 } from './1796188800000-Webhooks';
import { WebhookDeliveryPruning1796192400000 } from './1796192400000-WebhookDeliveryPruning';
import { ContinuationRateWindows1796196000000 } from './1796196000000-ContinuationRateWindows';
import { EdgesWithoutAccountTimeIndex1796199600000 } from './1796199600000-EdgesWithoutAccountTimeIndex';

/** Every migration, oldest first; the same list runs on PostgreSQL and on the embedded database. */
export const migrations = [
  Foundation1796018400000,
  Continuations1796022000000,
  ResourcesAndMemory1796025600000,
  Plans1796029200000,
  ManifestRecalls1796032800000,
  AgentRuntime1796036400000,
  ManifestsBySuccessor1796040000000,
  EventSearch1796043600000,
  ManifestsByOrigin1796047200000,
  RunOutput1796050800000,
  Attachments1796054400000,
  ContentSearch1796065200000,
  ContinuationProposals1796068800000,
  SearchIndexesWithoutPendingList1796072400000,
  SearchTermStatistics1796076000000,
  DataLifecycle1796181596470,
  ApiKeyScopes1796185200000,
  Webhooks1796188800000,
  WebhookDeliveryPruning1796192400000,
  ContinuationRateWindows1796196000000,
  EdgesWithoutAccountTimeIndex1796199600000,
];
