import type { RequestContext } from '../../shared/graphql/request-context';
import type { AccountService } from './accounts.service';

export interface AccountsContext extends RequestContext {
  services: { accounts: AccountService };
}
