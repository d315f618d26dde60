import path from 'node:path';
import { ContinuationPolicy, DEFAULT_CONTINUATION_POLICY } from './services/continuations.service';

/** Everything the server reads from its environment; the README's configuration table lists the same. */
export interface AppConfig {
  host: string;
  port: number;
  /** A `postgres://` URL; absent: the embedded database in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  bootstrapApiKey?: string;
  /** Error details and stack traces in responses; never outside development. */
  development: boolean;
  /** The built web client to serve at `/`, when that folder exists. */
  clientDist: string;
  poolSize: number;
  continuationPolicy: ContinuationPolicy;
}

/** Raised for a setting that cannot be used; the message names the variable. */
export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}").`);
  }
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 4000, 0, 65535),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    bootstrapApiKey: env.BOOTSTRAP_API_KEY || undefined,
    development: env.NODE_ENV === 'development',
    clientDist: path.resolve(env.CLIENT_DIST || path.join(__dirname, '..', '..', 'client', 'dist')),
    poolSize: integer(env, 'DB_POOL_SIZE', 10, 2, 200),
    continuationPolicy: {
      streakLimit: integer(env, 'CONTINUATION_STREAK_LIMIT', DEFAULT_CONTINUATION_POLICY.streakLimit, 1, 1_000_000),
      perAccountPerMinute: integer(
        env,
        'CONTINUATION_RATE_PER_MINUTE',
        DEFAULT_CONTINUATION_POLICY.perAccountPerMinute,
        1,
        1_000_000,
      ),
      defaultTokenBudget: integer(env, 'DEFAULT_TOKEN_BUDGET', DEFAULT_CONTINUATION_POLICY.defaultTokenBudget, 64, 1_000_000),
    },
  };
}
