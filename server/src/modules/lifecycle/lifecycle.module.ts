import { ErasureResolver } from './graphql/erasure.resolver';
import { AccountRetentionResolver } from './graphql/retention.resolver';

/** The data's life cycle: erasure, retention, export and import. */
export const lifecycleResolvers = [ErasureResolver, AccountRetentionResolver] as const;
