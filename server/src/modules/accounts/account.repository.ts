import type { EntityManager } from 'typeorm';
import { ALL_SCOPES } from '../../shared/access';
import type { Viewer } from '../../shared/viewer';
import { AccountEntity } from './account.entity';

/** The account as the caller the runtime acts for: its own work, with no admin rights. */
export async function runtimeViewer(manager: EntityManager, accountId: string): Promise<Viewer> {
  const account = await manager.findOne(AccountEntity, { where: { id: accountId }, select: { id: true, name: true } });
  return { accountId, name: account?.name ?? '', isAdmin: false, keyId: null, keyExpiresAt: null, scopes: ALL_SCOPES, reach: null };
}
