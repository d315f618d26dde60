import type { Logger } from 'pino';
import type { Viewer } from '../viewer';

/** What every operation's context holds; each module's context adds its services and loaders. */
export interface RequestContext {
  viewer: Viewer;
  /** The HTTP request's id, which its log lines and an internal error's `extensions` carry. */
  requestId?: string;
  /** The request's logger. */
  log?: Logger;
  /** A subscription's context lives for many events: each event starts with empty caches, so nothing read is stale. */
  refreshLoaders(): void;
}
