import type { IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { logger } from '../observability/logger';

export interface RateLimitSettings {
  /** Failed sign-ins (a missing, unknown, revoked or expired key) allowed per client address and window; 0 turns the limit off. */
  signInFailures: number;
  signInWindowSeconds: number;
  /** Requests (HTTP requests, WebSocket subscriptions) allowed per key and window; 0 turns the limit off. */
  keyRequests: number;
  keyWindowSeconds: number;
}

/** Far above what a person or an ordinary integration sends; a script trying keys meets them at once. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = { signInFailures: 20, signInWindowSeconds: 60, keyRequests: 6_000, keyWindowSeconds: 60 };

/** How many proxies in front of the server append to X-Forwarded-For; 0 trusts none (the socket's address counts). */
export type TrustedProxies = number;

/** A refusal: how long until the caller may try again. */
export interface Throttled {
  retryAfterSeconds: number;
}

/**
 * The client address a request comes from: the socket's, or with `trustedProxies` the address the
 * nearest trusted proxy saw (X-Forwarded-For is written left to right, each proxy appending).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: TrustedProxies): string {
  const socketAddress = req.socket.remoteAddress ?? 'unknown';
  if (trustedProxies <= 0) return socketAddress;
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((part) => part.trim()).filter(Boolean);
  return hops[hops.length - trustedProxies] ?? hops[0] ?? socketAddress;
}

function throttledBy(refusal: unknown): Throttled {
  if (refusal instanceof RateLimiterRes) return { retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)) };
  throw refusal;
}

/**
 * Failed sign-ins per client address and requests per key, counted in this process's memory, or
 * in Redis when given (then shared by every process). A limiter that cannot reach Redis lets the
 * request through, logged: throttling must not take the API down with it.
 */
export class RateLimits {
  private readonly signIns: RateLimiterAbstract | null;
  private readonly keys: RateLimiterAbstract | null;

  private constructor(
    settings: RateLimitSettings,
    private readonly redis: Redis | null,
  ) {
    const limiter = (keyPrefix: string, points: number, duration: number) => {
      if (points <= 0) return null;
      return redis
        ? new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration, blockDuration: duration, useRedisPackage: false })
        : new RateLimiterMemory({ keyPrefix, points, duration, blockDuration: duration });
    };
    this.signIns = limiter('sc:signin', settings.signInFailures, settings.signInWindowSeconds);
    this.keys = limiter('sc:key', settings.keyRequests, settings.keyWindowSeconds);
  }

  static create(settings: RateLimitSettings, redisUrl?: string): RateLimits {
    const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false }) : null;
    redis?.on('error', (error) => logger.warn({ err: error }, 'The rate limits lost Redis'));
    return new RateLimits(settings, redis);
  }

  /** Whether the address is refused for its failed sign-ins, before its key is even looked at. */
  async signInBlocked(address: string): Promise<Throttled | null> {
    if (!this.signIns) return null;
    const state = await this.guard(() => this.signIns!.get(address));
    if (!state || state.consumedPoints <= this.signIns.points) return null;
    return { retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
  }

  /** Counts a failed sign-in of the address; a refusal once it went over the limit. */
  async signInFailed(address: string): Promise<Throttled | null> {
    return this.signIns ? this.consume(this.signIns, address) : null;
  }

  /** Counts a request of the key; a refusal once it went over the limit. */
  async keyRequest(keyId: string): Promise<Throttled | null> {
    return this.keys ? this.consume(this.keys, keyId) : null;
  }

  async close(): Promise<void> {
    this.redis?.disconnect();
  }

  private async consume(limiter: RateLimiterAbstract, key: string): Promise<Throttled | null> {
    try {
      await limiter.consume(key);
      return null;
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return throttledBy(refusal);
      logger.warn({ err: refusal }, 'A rate limit could not be counted; the request goes through');
      return null;
    }
  }

  private async guard<T>(read: () => Promise<T>): Promise<T | null> {
    try {
      return await read();
    } catch (error) {
      logger.warn({ err: error }, 'A rate limit could not be read; the request goes through');
      return null;
    }
  }
}

/** The limits as the transports apply them to a request: by its client address, then by its key. */
export class RequestThrottle {
  constructor(
    private readonly limits: RateLimits,
    private readonly trustedProxies: TrustedProxies,
  ) {}

  /** A refusal when the request's address is over its failed sign-ins. */
  beforeSignIn(req: IncomingMessage): Promise<Throttled | null> {
    return this.limits.signInBlocked(clientAddress(req, this.trustedProxies));
  }

  /** Counts a key the request presented that did not sign in. */
  signInFailed(req: IncomingMessage): Promise<Throttled | null> {
    return this.limits.signInFailed(clientAddress(req, this.trustedProxies));
  }

  /** Counts a request of a signed-in key (none counted for a caller with no key of its own). */
  request(keyId: string | null): Promise<Throttled | null> {
    return keyId ? this.limits.keyRequest(keyId) : Promise.resolve(null);
  }
}

/** The close code of a WebSocket over its limits, as HTTP's 429. */
export const THROTTLED_CLOSE_CODE = 4429;

export function throttledMessage({ retryAfterSeconds }: Throttled): string {
  return `Too many requests: try again in ${retryAfterSeconds} s.`;
}
