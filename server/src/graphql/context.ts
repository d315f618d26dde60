import DataLoader from 'dataloader';
import type { EventEntity } from '../db/entities/event.entity';
import type { SessionEntity } from '../db/entities/session.entity';
import type { AccountService } from '../services/accounts.service';
import type { SessionService } from '../services/sessions.service';
import type { TranscriptService } from '../services/transcript.service';
import type { Viewer } from '../services/viewer';
import type { AppPubSub } from './pubsub';

export interface Services {
  accounts: AccountService;
  sessions: SessionService;
  transcript: TranscriptService;
}

/** Per-request loaders: batching and caching live only as long as one operation. */
export interface Loaders {
  sessionById: DataLoader<string, SessionEntity | null>;
  eventById: DataLoader<string, EventEntity | null>;
}

export interface Context {
  viewer: Viewer;
  services: Services;
  loaders: Loaders;
  pubSub: AppPubSub;
}

export function createContext(viewer: Viewer, services: Services, pubSub: AppPubSub): Context {
  return {
    viewer,
    services,
    pubSub,
    loaders: {
      sessionById: new DataLoader((ids) => services.sessions.sessionsByIds(viewer.accountId, ids)),
      eventById: new DataLoader((ids) => services.transcript.eventsByIds(viewer.accountId, ids)),
    },
  };
}
