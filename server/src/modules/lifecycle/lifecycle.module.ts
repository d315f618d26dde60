import { ErasureResolver } from './graphql/erasure.resolver';
import { AccountRetentionResolver } from './graphql/retention.resolver';
import { EventErasureResolver } from './graphql/event-erasure.resolver';

/** The data's life cycle: erasure, retention, export and import. */
export const lifecycleResolvers = [ErasureResolver, AccountRetentionResolver, EventErasureResolver] as const;
