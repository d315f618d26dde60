import { AccountResolver } from './account.resolver';
import { ApiKeyResolver } from './api-key.resolver';

/** Accounts and their API keys. */
export const accountsResolvers = [AccountResolver, ApiKeyResolver] as const;
