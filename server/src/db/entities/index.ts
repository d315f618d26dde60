import { AccountEntity } from './account.entity';
import { ApiKeyEntity } from './api-key.entity';
import { EventEntity } from './event.entity';
import { SessionEntity } from './session.entity';

export { AccountEntity, ApiKeyEntity, EventEntity, SessionEntity };
export const entities = [AccountEntity, ApiKeyEntity, SessionEntity, EventEntity];
