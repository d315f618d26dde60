import type { RequestContext } from '../../shared/graphql/request-context';
import type { AccountService } from './accounts.service';
import type { ApiKeyService } from './api-keys.service';

export interface AccountsContext extends RequestContext {
  services: { accounts: AccountService; apiKeys: ApiKeyService };
}
