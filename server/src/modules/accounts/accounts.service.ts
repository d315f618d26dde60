import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { generateApiKey, hashApiKey } from './api-keys';
import { ErrorCode, Outcome, fail, succeed } from '../../shared/errors';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { isUniqueViolation } from '../../platform/db/errors';
import { Viewer } from '../../shared/viewer';

export const ACCOUNT_NAME_MAX_CHARS = 100;
const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';

export interface BootstrapKey {
  apiKey: string;
  /** Where a generated key was stored; null when it came from BOOTSTRAP_API_KEY. */
  storedIn: string | null;
}

/** Known keys kept in memory: keys and accounts never change once written, so entries never go stale. */
const VIEWER_CACHE_SIZE = 1_000;

export class AccountService {
  private readonly viewers = new Map<string, Viewer>();

  constructor(private readonly dataSource: DataSource) {}

  /** The viewer an API key belongs to, or null for a missing or unknown key. */
  async authenticate(apiKey: string | null): Promise<Viewer | null> {
    if (!apiKey) return null;
    const hash = hashApiKey(apiKey);
    const known = this.viewers.get(hash);
    if (known) return known;
    const row = await this.dataSource
      .createQueryBuilder(AccountEntity, 'account')
      .innerJoin(ApiKeyEntity, 'key', 'key.accountId = account.id')
      .where('key.keyHash = :hash', { hash })
      .getOne();
    if (!row) return null;
    const viewer = { accountId: row.id, name: row.name, isAdmin: row.isAdmin };
    if (this.viewers.size >= VIEWER_CACHE_SIZE) this.viewers.delete(this.viewers.keys().next().value as string);
    this.viewers.set(hash, viewer);
    return viewer;
  }

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
      await manager.insert(ApiKeyEntity, { accountId: created.id, keyHash: hashApiKey(apiKey) });
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
        await manager.insert(ApiKeyEntity, { accountId: admin.id, keyHash });
      });
    } catch (error) {
      // Another server process starting at the same moment registered the same key first.
      if (!isUniqueViolation(error)) throw error;
    }
    return { apiKey, storedIn };
  }
}
