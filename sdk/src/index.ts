export { createClient, type Client, type ClientOptions } from './client.js';
export type { SubscriptionSink, Transport } from './transport.js';
export { TransportError, type GraphQLErrorShape } from './errors.js';
export type { FollowHandlers } from './follow.js';
export * from './operations.js';
export type * from './types.js';
