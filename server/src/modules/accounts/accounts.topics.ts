import type { EntityManager } from 'typeorm';
import { MoreThanOrEqual } from 'typeorm';
import type { TopicCodec } from '../../platform/pubsub/payload-codec';
import { isId } from '../../shared/ids';
import { ApiKeyEntity } from './api-key.entity';

/** Every process listens on the one channel: a key revoked anywhere is refused everywhere. */
export const KEY_REVOCATION_CHANNEL = 'all';

export type AccountTopics = {
  API_KEY_REVOKED: [channel: typeof KEY_REVOCATION_CHANNEL, revocation: { keyId: string }];
};

/** A revocation crosses processes as its key's id; after a reconnect, the keys revoked meanwhile are read back. */
export function accountTopicCodecs(manager: EntityManager): Record<keyof AccountTopics, TopicCodec> {
  return {
    API_KEY_REVOKED: {
      wellShaped: (record) => typeof record.keyId === 'string' && isId(record.keyId),
      async missedSince(_channel, since) {
        const revoked = await manager.find(ApiKeyEntity, { where: { revokedAt: MoreThanOrEqual(since) }, select: { id: true } });
        return revoked.map((key) => ({ keyId: key.id }));
      },
      identity: (detail) => (detail as { keyId: string }).keyId,
    },
  };
}
