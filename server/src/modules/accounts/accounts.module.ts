import { AccountResolver } from './account.resolver';

/** Accounts and their API keys. */
export const accountsResolvers = [AccountResolver] as const;
