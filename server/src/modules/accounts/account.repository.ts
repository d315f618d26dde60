import type { EntityManager } from 'typeorm';
import { ALL_SCOPES } from '../../shared/access';
import type { Viewer } from '../../shared/viewer';
import { preparedQuery } from '../../platform/db/prepared';

/** The account as the caller the runtime acts for: its own work, with no admin rights. */
export async function runtimeViewer(manager: EntityManager, accountId: string): Promise<Viewer> {
  const [account] = await preparedQuery<{ name: string }[]>(manager, 'SELECT name FROM accounts WHERE id = $1', [accountId]);
  return { accountId, name: account?.name ?? '', isAdmin: false, keyId: null, keyExpiresAt: null, scopes: ALL_SCOPES, reach: null };
}
