export { createClient, type Client, type ClientOptions, type SubscriptionSink } from './client.js';
export { TransportError, type GraphQLErrorShape } from './errors.js';
export type { FollowHandlers } from './follow.js';
export * from './operations.js';
export type * from './types.js';
