import type { EntityManager } from 'typeorm';
import { CountingEventTarget } from '../platform/pubsub/counting-event-target';
import { createTopicPubSub, TopicPubSub } from '../platform/pubsub/topic-pub-sub';
import { crossProcessCodec, PayloadCodec } from '../platform/pubsub/payload-codec';
import { conversationPublisher, conversationTopicCodecs, ConversationTopics } from '../modules/conversation/conversation.topics';
import { continuationPublisher, continuationTopicCodecs, ContinuationTopics } from '../modules/continuation/continuation.topics';
import { accountTopicCodecs, AccountTopics } from '../modules/accounts/accounts.topics';
import type { ContinuationNotifier } from '../modules/continuation/notifications';

/** Every module's topics. */
export type Topics = ConversationTopics & ContinuationTopics & AccountTopics;

export type AppPubSub = TopicPubSub<Topics>;

/** The pub/sub of one server; pass an event target that crosses processes to share it between them. */
export function createAppPubSub(eventTarget: EventTarget = new CountingEventTarget()): AppPubSub {
  return createTopicPubSub<Topics>(eventTarget);
}

/** The services' notifier, publishing to every module's topics. */
export function pubSubNotifier(pubSub: AppPubSub): ContinuationNotifier {
  return { ...conversationPublisher(pubSub), ...continuationPublisher(pubSub) };
}

/** How every topic crosses processes. */
export function appPayloadCodec(manager: EntityManager): PayloadCodec {
  return crossProcessCodec({ ...conversationTopicCodecs(manager), ...continuationTopicCodecs(manager), ...accountTopicCodecs(manager) });
}
