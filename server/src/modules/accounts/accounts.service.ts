import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { generateApiKey, hashApiKey } from './api-keys';
import { insertFirstKey } from './api-keys.service';
import { ErrorCode, Outcome, fail, succeed } from '../../shared/errors';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { isUniqueViolation } from '../../platform/db/errors';
import type { Viewer } from '../../shared/viewer';

export const ACCOUNT_NAME_MAX_CHARS = 100;
const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';

export interface BootstrapKey {
  apiKey: string;
  /** Where a generated key was stored; null when it came from BOOTSTRAP_API_KEY. */
  storedIn: string | null;
}

export class AccountService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates an account and its first API key, returned once and stored only as a hash.
   * Fails with FORBIDDEN for a viewer who is not an admin, INVALID_INPUT for a bad name.
   */
  async createAccount(viewer: Viewer, name: string): Promise<Outcome<{ account: AccountEntity; apiKey: string }>> {
    if (!viewer.isAdmin) return fail(ErrorCode.FORBIDDEN, 'Only an admin key may create accounts.');
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > ACCOUNT_NAME_MAX_CHARS) {
      return fail(ErrorCode.INVALID_INPUT, `Account name must be 1 to ${ACCOUNT_NAME_MAX_CHARS} characters.`, [
        { path: ['name'], message: `Account name must be 1 to ${ACCOUNT_NAME_MAX_CHARS} characters.` },
      ]);
    }
    const apiKey = generateApiKey();
    const account = await this.dataSource.transaction(async (manager) => {
      const created = await manager.save(manager.create(AccountEntity, { name: trimmed, isAdmin: false }));
      await insertFirstKey(manager, created.id, apiKey, 'First key');
      return created;
    });
    return succeed({ account, apiKey });
  }

  /**
   * Makes sure an admin account holds the bootstrap key: `configuredKey` when given, else the key
   * stored in `dataDir` by an earlier start, else a new one that is stored there.
   */
  async ensureBootstrapKey(configuredKey: string | undefined, dataDir: string): Promise<BootstrapKey> {
    const keyFile = path.join(dataDir, BOOTSTRAP_KEY_FILE);
    let apiKey = configuredKey;
    let storedIn: string | null = null;
    if (!apiKey) {
      apiKey = (await readFile(keyFile, 'utf8').catch(() => '')).trim() || generateApiKey();
      await mkdir(dataDir, { recursive: true });
      await writeFile(keyFile, `${apiKey}\n`, { mode: 0o600 });
      storedIn = keyFile;
    }
    const keyHash = hashApiKey(apiKey);
    try {
      await this.dataSource.transaction(async (manager) => {
        if (await manager.existsBy(ApiKeyEntity, { keyHash })) return;
        const admin = await manager.save(manager.create(AccountEntity, { name: 'admin', isAdmin: true }));
        await insertFirstKey(manager, admin.id, apiKey, 'Bootstrap key');
      });
    } catch (error) {
      // Another server process starting at the same moment registered the same key first.
      if (!isUniqueViolation(error)) throw error;
    }
    return { apiKey, storedIn };
  }
}
