import type { EntityManager } from 'typeorm';
import { ALL_SCOPES } from '../../shared/access';
import type { Viewer } from '../../shared/viewer';
import { Read, runRead } from '../../platform/db/read-batch';

/** The account as the caller the runtime acts for: its own work, with no admin rights. */
export function runtimeViewer(manager: EntityManager, accountId: string): Promise<Viewer> {
  return runRead(manager, runtimeViewerRead(accountId));
}

/** {@link runtimeViewer} as a read, to run with others. */
export function runtimeViewerRead(accountId: string): Read<Viewer> {
  return {
    text: 'SELECT name FROM accounts WHERE id = $1',
    values: [accountId],
    result: ([account]) => ({ accountId, name: (account?.name as string | undefined) ?? '', isAdmin: false, keyId: null, keyExpiresAt: null, scopes: ALL_SCOPES, reach: null }),
  };
}
