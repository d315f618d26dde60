import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ALL_SCOPES, ApiKeyScope, grants } from '../../shared/access';
import { ErrorCode, fail, Outcome, succeed } from '../../shared/errors';
import { isId } from '../../shared/ids';
import type { Viewer } from '../../shared/viewer';
import type { TopicPubSub } from '../../platform/pubsub/topic-pub-sub';
import { logger } from '../../platform/observability/logger';
import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { AccountTopics, KEY_REVOCATION_CHANNEL } from './accounts.topics';
import { generateApiKey, hashApiKey, NewKeyRequest, newKeyProblems, storedScopes, visiblePrefix } from './api-keys';

/** A known key as this process holds it between requests. */
interface KnownKey {
  viewer: Viewer;
  expiresAt: Date | null;
  /** When it was read from the database: entries are read again after a while, however revocations travel. */
  readAt: number;
  /** When this process last wrote its `last_used_at`. */
  usedWrittenAt: number;
}

const KNOWN_KEYS_MAX = 10_000;
/** Revocations arrive through the pub/sub at once; this bounds how long a lost one could go unnoticed. */
const KNOWN_KEY_TTL_MS = 60_000;
/** `last_used_at` is a hint: written at most once a minute per key and process. */
const LAST_USED_INTERVAL_MS = 60_000;

/** The origins of the sessions a key is limited to (a port: sessions belong to a module above this one). */
export type SessionOrigins = (manager: EntityManager, accountId: string, sessionIds: readonly string[]) => Promise<string[]>;

/** The first key of an account: every scope, no expiry. */
export function insertFirstKey(manager: EntityManager, accountId: string, apiKey: string, name: string) {
  return manager.insert(ApiKeyEntity, { accountId, keyHash: hashApiKey(apiKey), name, prefix: visiblePrefix(apiKey), scopes: [...ALL_SCOPES] });
}

/** The account's keys: authentication, creation, listing and revocation that reaches every process at once. */
export class ApiKeyService {
  private readonly known = new Map<string, KnownKey>();
  private readonly revokedListeners = new Set<(keyId: string) => void>();
  private watching: AsyncIterableIterator<{ keyId: string }> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly pubSub: TopicPubSub<AccountTopics>,
    private readonly sessionOrigins: SessionOrigins,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The viewer a key belongs to, or null for a missing, unknown, revoked or expired key. */
  async authenticate(apiKey: string | null): Promise<Viewer | null> {
    if (!apiKey) return null;
    const hash = hashApiKey(apiKey);
    const now = this.clock().getTime();
    let entry = this.known.get(hash);
    if (!entry || now - entry.readAt > KNOWN_KEY_TTL_MS) {
      entry = (await this.readKey(hash, now)) ?? undefined;
      if (!entry) return null;
    }
    if (entry.expiresAt && entry.expiresAt.getTime() <= now) return null;
    if (now - entry.usedWrittenAt >= LAST_USED_INTERVAL_MS) this.recordUse(entry, now);
    return entry.viewer;
  }

  /** Calls `listener` with each key revoked, in any process, from now on. */
  onRevoked(listener: (keyId: string) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  /** Starts listening for revocations published by any process. */
  watchRevocations(): void {
    const revocations = this.pubSub.subscribe('API_KEY_REVOKED', KEY_REVOCATION_CHANNEL);
    this.watching = revocations;
    void (async () => {
      for await (const { keyId } of revocations) this.forget(keyId);
    })().catch((error: unknown) => logger.error({ err: error }, 'Watching key revocations failed'));
  }

  async stopWatchingRevocations(): Promise<void> {
    await this.watching?.return?.();
  }

  /**
   * A new key of the viewer's account; its secret is returned once and stored only as a hash.
   * INVALID_INPUT for a bad name, scopes, sessions or expiry; FORBIDDEN for scopes or a reach
   * beyond the viewer's own; NOT_FOUND for a session the viewer cannot reach.
   */
  async createKey(viewer: Viewer, request: NewKeyRequest): Promise<Outcome<{ key: ApiKeyEntity; secret: string }>> {
    const problems = newKeyProblems(request, this.clock());
    if (problems.length > 0) return fail(ErrorCode.INVALID_INPUT, problems[0].message, problems);
    const beyond = request.scopes.find((scope) => !grants(viewer.scopes, scope));
    if (beyond) return fail(ErrorCode.FORBIDDEN, `A key cannot grant the ${beyond} scope its maker lacks.`, [{ path: ['input', 'scopes'], message: `The key in use lacks ${beyond}.` }]);
    const sessionIds = request.sessionIds ? [...new Set(request.sessionIds)] : null;
    if (viewer.reach && !sessionIds) {
      return fail(ErrorCode.FORBIDDEN, 'A session-limited key can only make keys limited to its sessions.', [{ path: ['input', 'sessionIds'], message: 'Name sessions this key reaches.' }]);
    }
    if (sessionIds && !(await this.reachesAll(viewer, sessionIds))) {
      return fail(ErrorCode.NOT_FOUND, 'No such session.', [{ path: ['input', 'sessionIds'], message: 'No such session.' }]);
    }
    const secret = generateApiKey();
    const key = this.dataSource.manager.create(ApiKeyEntity, {
      accountId: viewer.accountId,
      keyHash: hashApiKey(secret),
      name: request.name.trim(),
      prefix: visiblePrefix(secret),
      scopes: storedScopes(request.scopes),
      sessionIds,
      expiresAt: request.expiresAt ?? null,
      lastUsedAt: null,
      revokedAt: null,
    });
    await this.dataSource.manager.save(key);
    return succeed({ key, secret });
  }

  /** The account's keys, newest first, revoked ones included. */
  listKeys(viewer: Viewer): Promise<ApiKeyEntity[]> {
    return this.dataSource.manager.find(ApiKeyEntity, { where: { accountId: viewer.accountId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** Revokes a key of the viewer's account at once, in every process; null when the account has no such key. */
  async revokeKey(viewer: Viewer, keyId: string): Promise<ApiKeyEntity | null> {
    if (!isId(keyId)) return null;
    const key = await this.dataSource.manager.findOneBy(ApiKeyEntity, { id: keyId, accountId: viewer.accountId });
    if (!key) return null;
    if (!key.revokedAt) {
      await this.dataSource.manager.update(ApiKeyEntity, { id: keyId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
      key.revokedAt = (await this.dataSource.manager.findOneByOrFail(ApiKeyEntity, { id: keyId })).revokedAt;
    }
    this.forget(keyId);
    this.pubSub.publish('API_KEY_REVOKED', KEY_REVOCATION_CHANNEL, { keyId });
    return key;
  }

  /** Whether every session exists in the viewer's account and lies within the viewer's own reach. */
  private async reachesAll(viewer: Viewer, sessionIds: string[]): Promise<boolean> {
    const rows = (await this.dataSource.query(`SELECT count(*)::int AS found FROM sessions WHERE account_id = $1 AND id = ANY($2::uuid[])`, [viewer.accountId, sessionIds])) as [{ found: number }];
    if (rows[0].found !== sessionIds.length) return false;
    if (!viewer.reach) return true;
    const origins = await this.sessionOrigins(this.dataSource.manager, viewer.accountId, sessionIds);
    return origins.every((origin) => viewer.reach!.originIds.includes(origin));
  }

  private forget(keyId: string): void {
    for (const [hash, entry] of this.known) if (entry.viewer.keyId === keyId) this.known.delete(hash);
    for (const listener of this.revokedListeners) listener(keyId);
  }

  private async readKey(hash: string, now: number): Promise<KnownKey | null> {
    const key = await this.dataSource.manager.findOneBy(ApiKeyEntity, { keyHash: hash });
    if (!key || key.revokedAt) {
      this.known.delete(hash);
      return null;
    }
    const account = await this.dataSource.manager.findOneByOrFail(AccountEntity, { id: key.accountId });
    const reach = key.sessionIds
      ? { sessionIds: key.sessionIds, originIds: await this.sessionOrigins(this.dataSource.manager, key.accountId, key.sessionIds) }
      : null;
    const viewer: Viewer = { accountId: account.id, name: account.name, isAdmin: account.isAdmin, keyId: key.id, keyExpiresAt: key.expiresAt, scopes: key.scopes as ApiKeyScope[], reach };
    const entry: KnownKey = { viewer, expiresAt: key.expiresAt, readAt: now, usedWrittenAt: key.lastUsedAt?.getTime() ?? 0 };
    if (this.known.size >= KNOWN_KEYS_MAX) this.known.delete(this.known.keys().next().value as string);
    this.known.set(hash, entry);
    return entry;
  }

  private recordUse(entry: KnownKey, now: number): void {
    entry.usedWrittenAt = now;
    this.dataSource
      .query(`UPDATE api_keys SET last_used_at = $2 WHERE id = $1`, [entry.viewer.keyId, new Date(now)])
      .catch((error: unknown) => logger.warn({ err: error }, "Recording a key's last use failed"));
  }
}
