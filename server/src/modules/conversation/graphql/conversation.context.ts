import DataLoader from 'dataloader';
import type { TopicPubSub } from '../../../platform/pubsub/topic-pub-sub';
import { notFoundFailure } from '../../../shared/errors';
import { failureError } from '../../../shared/graphql/errors';
import type { RecallRecorder } from '../../../shared/recall';
import type { LoaderFactories } from '../../../shared/graphql/lazy-loaders';
import { attachmentLoaders, AttachmentLoaders, AttachmentServices, AttachmentsContext } from '../../attachments/attachments.context';
import type { ContextUsage } from '../context-usage';
import type { ConversationTopics } from '../conversation.topics';
import type { EventEntity } from '../event.entity';
import type { RunEntity } from '../run.entity';
import type { RunService, SessionRunsKey } from '../runs.service';
import type { SessionEntity } from '../session.entity';
import type { SessionService } from '../sessions.service';
import type { TranscriptService } from '../transcript.service';

export interface ConversationServices extends AttachmentServices {
  sessions: SessionService;
  transcript: TranscriptService;
  runs: RunService;
  recalls: RecallRecorder;
}

export interface ConversationLoaders extends AttachmentLoaders {
  sessionById: DataLoader<string, SessionEntity | null>;
  eventById: DataLoader<string, EventEntity | null>;
  runById: DataLoader<string, RunEntity | null>;
  childrenByParentId: DataLoader<string, SessionEntity[]>;
  runsOfSession: DataLoader<SessionRunsKey, RunEntity[], string>;
  contextUsageBySessionId: DataLoader<string, ContextUsage | null>;
}

export interface ConversationContext extends AttachmentsContext {
  services: ConversationServices;
  loaders: ConversationLoaders;
  pubSub: TopicPubSub<ConversationTopics>;
}

/** Per-operation loaders: batching and caching live only as long as one operation (or one subscription event). */
export const conversationLoaders: LoaderFactories<ConversationLoaders, ConversationServices> = {
  ...attachmentLoaders,
  sessionById: ({ accountId }, services) => new DataLoader((ids) => services.sessions.sessionsByIds(accountId, ids)),
  eventById: ({ accountId }, services) => new DataLoader((ids) => services.transcript.eventsByIds(accountId, ids)),
  runById: ({ accountId }, services) => new DataLoader((ids) => services.runs.runsByIds(accountId, ids)),
  childrenByParentId: ({ accountId }, services) => new DataLoader((ids) => services.sessions.childrenOf(accountId, ids)),
  runsOfSession: ({ accountId }, services) =>
    new DataLoader((keys) => services.runs.runsOfSessions(accountId, keys), { cacheKeyFn: ({ sessionId, status, last }) => `${sessionId} ${status} ${last}` }),
  contextUsageBySessionId: ({ accountId }, services) => new DataLoader((ids) => services.runs.contextUsage(accountId, ids)),
};

/** The viewer's session a subscription names; NOT_FOUND, before anything is subscribed, when there is none. */
export async function subscribedSession(ctx: ConversationContext, sessionId: string): Promise<SessionEntity> {
  const session = await ctx.services.sessions.findSession(ctx.viewer, sessionId);
  if (!session) throw failureError(notFoundFailure('session', ['sessionId']));
  return session;
}
