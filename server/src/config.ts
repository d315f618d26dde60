import path from 'node:path';
import type { CorsOrigins } from './platform/http/cors';
import { ContinuationApproval } from './modules/conversation/sessions';
import type { DestinationStream } from 'pino';
import { DEFAULT_RECONNECT_OPTIONS } from './platform/pubsub/postgres-event-target';
import { ContinuationPolicy, DEFAULT_CONTINUATION_POLICY } from './modules/continuation/continuations.service';
import { ApprovalSettings, DEFAULT_APPROVAL_SETTINGS } from './modules/continuation/proposals.service';
import { LOG_LEVELS, LogLevel } from './platform/observability/logger';
import { DEFAULT_ATTACHMENT_MAX_BYTES } from './modules/attachments/attachments';
import type { S3StorageOptions } from './modules/attachments/storage/s3-storage';
import { DATABASE_POOL_MODES, DatabasePoolMode } from './platform/db/pool-mode';
import { DEFAULT_RETENTION_SETTINGS, RetentionSettings } from './modules/lifecycle/retention/retention';
import { DEFAULT_IMPORT_MAX_BYTES } from './modules/lifecycle/portability/bundle';
import { DEFAULT_RATE_LIMITS, RateLimitSettings } from './platform/http/rate-limits';
import { DEFAULT_WEBHOOK_SETTINGS, WebhookSettings, parseRetrySchedule } from './modules/webhooks/webhooks';

/** Everything the server reads from its environment; the README's configuration table lists the same. */
export interface AppConfig {
  host: string;
  port: number;
  /** A `postgres://` URL; absent: the embedded database in `dataDir`. */
  databaseUrl?: string;
  /**
   * How the connections of `databaseUrl` reach PostgreSQL: `session` (directly, or a pooler that
   * keeps a client on one server connection), `transaction` (a pooler such as PgBouncer in
   * `pool_mode = transaction`); absent: found out at start.
   */
  databasePoolMode?: DatabasePoolMode;
  /** A direct `postgres://` URL for LISTEN/NOTIFY when `databaseUrl` goes through a transaction pooler. */
  databaseListenUrl?: string;
  /** A streaming replica that serves history reads (search, lineage, transcript pages); needs `redisUrl`. */
  databaseReplicaUrl?: string;
  dataDir: string;
  /** The embedded database's buffer pool (PostgreSQL's `shared_buffers`) in megabytes; PostgreSQL's default (128) when absent. */
  embeddedBufferMb?: number;
  bootstrapApiKey?: string;
  /** Error details and stack traces in responses; never outside development. */
  development: boolean;
  /** The built web client to serve at `/`, when that folder exists. */
  clientDist: string;
  poolSize: number;
  /** The first wait before the pub/sub connection to PostgreSQL is opened again once it dropped; it doubles up to 30 s. */
  pubSubReconnectMs?: number;
  /** A `redis://` URL: publishes cross processes through Redis instead of PostgreSQL's LISTEN/NOTIFY. */
  redisUrl?: string;
  /** Browser origins allowed to call the API from other pages, or any (`*`); absent or empty: the server's own origin only. */
  corsOrigins?: CorsOrigins;
  continuationPolicy: ContinuationPolicy;
  /** Whether new sessions ask a person before the agent continues, and how long a proposal waits; the defaults when absent. */
  approval?: ApprovalSettings;
  agent: AgentConfig;
  /** The least severe level written; `info` when absent. */
  logLevel?: LogLevel;
  /** Where log lines go; standard output when absent. */
  logDestination?: DestinationStream;
  /** When set, `/metrics` answers only requests bearing it (`Authorization: Bearer <token>`). */
  metricsToken?: string;
  /** The most bytes one attachment may have; 25 MiB when absent. */
  attachmentMaxBytes?: number;
  /** An S3-compatible bucket for attachment bytes; absent: the database keeps them. */
  s3?: S3StorageOptions;
  /** How often and how much the retention sweep erases; the defaults when absent. */
  retention?: RetentionSettings;
  /** The most bytes a bundle or transcript sent to `POST /imports` may have; 256 MiB when absent. */
  importMaxBytes?: number;
  /** Failed sign-ins per client address and requests per key; the defaults when absent. */
  rateLimits?: RateLimitSettings;
  /** How many proxies in front of the server append to X-Forwarded-For (TRUST_PROXY); 0 or absent: none is trusted. */
  trustedProxies?: number;
  /** How webhooks are delivered and retried, and where they may go; the defaults when absent. */
  webhooks?: WebhookSettings;
  /** The time erasure and retention go by; the system clock when absent (tests move it). */
  clock?: () => Date;
}


/** CORS_ORIGINS: comma-separated origins such as `https://app.example.com`, or `*` alone. */
function corsOrigins(raw: string | undefined): CorsOrigins {
  const entries = (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.includes('*')) {
    if (entries.length > 1) throw new ConfigError('CORS_ORIGINS is either * alone or a list of origins.');
    return '*';
  }
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || url.origin === 'null' || url.pathname !== '/' || url.search || url.hash) {
      throw new ConfigError(`CORS_ORIGINS must list origins such as https://app.example.com (got "${entry}").`);
    }
    return url.origin;
  });
}

function logLevel(raw: string | undefined): LogLevel {
  if (raw === undefined || raw === '') return 'info';
  const level = LOG_LEVELS.find((candidate) => candidate === raw.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${raw}").`);
  return level;
}

/** S3_BUCKET selects S3 storage; the other S3_ variables say where and as whom. */
function s3Options(env: NodeJS.ProcessEnv): S3StorageOptions | undefined {
  if (!env.S3_BUCKET) {
    if (env.S3_ENDPOINT) throw new ConfigError('S3_ENDPOINT is set without S3_BUCKET: name the bucket attachments go to.');
    return undefined;
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) throw new ConfigError('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither.');
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  if (pathStyle && pathStyle !== 'true' && pathStyle !== 'false') throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false (got "${pathStyle}").`);
  return {
    endpoint: env.S3_ENDPOINT || undefined,
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    // Self-hosted servers (an endpoint given) mostly want path-style addressing; AWS itself virtual-hosted.
    forcePathStyle: pathStyle ? pathStyle === 'true' : Boolean(env.S3_ENDPOINT),
    keyPrefix: env.S3_KEY_PREFIX || undefined,
  };
}

/** Which model answers, and how this process runs the agent's work. */
export interface AgentConfig {
  /** `builtin`: the deterministic reference agent; `openai`: an OpenAI-compatible server; `none`: no agent (messages start no runs). */
  provider: 'builtin' | 'openai' | 'none';
  openai: { baseURL?: string; apiKey: string; model: string; timeoutMs: number };
  /** The model's context window, in tokens of the server's tokenizer. */
  windowTokens: number;
  /** Share of the window from which a continuation is advised (CONTEXT_PRESSURE). */
  continuationThreshold: number;
  /** Room kept for the model's answer in every request; null sizes it for the window (`defaultOutputTokens`). */
  maxOutputTokens: number | null;
  /** Model calls per turn before the run fails for not answering. */
  maxSteps: number;
  /** Runs this process executes at once; 0 for a process that serves the API only. */
  concurrency: number;
  leaseMs: number;
  pollMs: number;
}

export const DEFAULT_AGENT_CONFIG: AgentConfig = {
  provider: 'builtin',
  openai: { apiKey: '', model: 'gpt-4o-mini', timeoutMs: 120_000 },
  windowTokens: 32_768,
  continuationThreshold: 0.8,
  maxOutputTokens: null,
  maxSteps: 8,
  concurrency: 2,
  leaseMs: 30_000,
  pollMs: 1_000,
};

function share(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) throw new ConfigError(`${name} must be a number above 0 and at most 1 (got "${raw}").`);
  return value;
}

function agentConfig(env: NodeJS.ProcessEnv): AgentConfig {
  const provider = env.MODEL_PROVIDER || DEFAULT_AGENT_CONFIG.provider;
  if (provider !== 'builtin' && provider !== 'openai' && provider !== 'none') {
    throw new ConfigError(`MODEL_PROVIDER must be builtin, openai or none (got "${provider}").`);
  }
  if (provider === 'openai' && !env.MODEL) throw new ConfigError('MODEL must name the model when MODEL_PROVIDER is openai.');
  const defaults = DEFAULT_AGENT_CONFIG;
  return {
    provider,
    openai: {
      baseURL: env.OPENAI_BASE_URL || undefined,
      // Local servers (vLLM, Ollama, llama.cpp) accept any key; the client library insists on one.
      apiKey: env.OPENAI_API_KEY || 'unused',
      model: env.MODEL || defaults.openai.model,
      timeoutMs: integer(env, 'MODEL_TIMEOUT_MS', defaults.openai.timeoutMs, 1_000, 3_600_000),
    },
    windowTokens: integer(env, 'MODEL_CONTEXT_WINDOW', defaults.windowTokens, 256, 10_000_000),
    continuationThreshold: share(env, 'CONTINUATION_THRESHOLD', defaults.continuationThreshold),
    maxOutputTokens: env.MODEL_MAX_OUTPUT_TOKENS ? integer(env, 'MODEL_MAX_OUTPUT_TOKENS', 0, 16, 1_000_000) : null,
    maxSteps: integer(env, 'AGENT_MAX_STEPS', defaults.maxSteps, 1, 100),
    concurrency: integer(env, 'AGENT_CONCURRENCY', defaults.concurrency, 0, 100),
    leaseMs: integer(env, 'RUN_LEASE_MS', defaults.leaseMs, 100, 3_600_000),
    pollMs: integer(env, 'RUN_POLL_MS', defaults.pollMs, 10, 60_000),
  };
}

function approvalSettings(env: NodeJS.ProcessEnv): ApprovalSettings {
  const raw = env.CONTINUATION_APPROVAL;
  const approval = raw ? Object.values(ContinuationApproval).find((mode) => mode === raw.toUpperCase()) : DEFAULT_APPROVAL_SETTINGS.defaultApproval;
  if (!approval) throw new ConfigError(`CONTINUATION_APPROVAL must be AUTOMATIC or ASK (got "${raw}").`);
  return {
    defaultApproval: approval,
    proposalTtlMs: integer(env, 'CONTINUATION_PROPOSAL_TTL_MS', DEFAULT_APPROVAL_SETTINGS.proposalTtlMs, 100, 2_592_000_000),
  };
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

/** RATE_LIMIT_*: 0 turns a limit off. */
function rateLimits(env: NodeJS.ProcessEnv): RateLimitSettings {
  const defaults = DEFAULT_RATE_LIMITS;
  return {
    signInFailures: integer(env, 'RATE_LIMIT_SIGNIN_FAILURES', defaults.signInFailures, 0, 1_000_000),
    signInWindowSeconds: integer(env, 'RATE_LIMIT_SIGNIN_WINDOW_SECONDS', defaults.signInWindowSeconds, 1, 86_400),
    keyRequests: integer(env, 'RATE_LIMIT_KEY_REQUESTS', defaults.keyRequests, 0, 100_000_000),
    keyWindowSeconds: integer(env, 'RATE_LIMIT_KEY_WINDOW_SECONDS', defaults.keyWindowSeconds, 1, 86_400),
  };
}

/** TRUST_PROXY: `true` for one proxy in front, a number for that many, `false` or unset for none. */
function trustedProxies(raw: string | undefined): number {
  if (raw === undefined || raw === '' || raw === 'false') return 0;
  if (raw === 'true') return 1;
  const hops = Number(raw);
  if (!Number.isInteger(hops) || hops < 0 || hops > 10) throw new ConfigError(`TRUST_PROXY is true, false or a number of proxies from 0 to 10 (got "${raw}").`);
  return hops;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (raw !== 'true' && raw !== 'false') throw new ConfigError(`${name} must be true or false (got "${raw}").`);
  return raw === 'true';
}

/** The WEBHOOK_ settings. */
function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const defaults = DEFAULT_WEBHOOK_SETTINGS;
  const rawSchedule = env.WEBHOOK_RETRY_SCHEDULE_MS;
  const retryScheduleMs = rawSchedule ? parseRetrySchedule(rawSchedule) : defaults.retryScheduleMs;
  if (!retryScheduleMs) throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_MS must list waits in milliseconds, e.g. 5000,300000,1800000 (got "${rawSchedule}").`);
  return {
    retryScheduleMs,
    timeoutMs: integer(env, 'WEBHOOK_TIMEOUT_MS', defaults.timeoutMs, 100, 300_000),
    disableAfterMs: integer(env, 'WEBHOOK_DISABLE_AFTER_MS', defaults.disableAfterMs, 0, 31_536_000_000),
    allowPrivateNetworks: flag(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    allowHttp: flag(env, 'WEBHOOK_ALLOW_HTTP'),
    concurrency: integer(env, 'WEBHOOK_CONCURRENCY', defaults.concurrency, 0, 1_000),
    pollMs: integer(env, 'WEBHOOK_POLL_MS', defaults.pollMs, 10, 60_000),
    deliveryRetentionDays: integer(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', defaults.deliveryRetentionDays, 1, 3_650),
  };
}

/** DATABASE_POOL_MODE, DATABASE_LISTEN_URL and DATABASE_REPLICA_URL, checked against each other. */
function scaleOut(env: NodeJS.ProcessEnv): Pick<AppConfig, 'databasePoolMode' | 'databaseListenUrl' | 'databaseReplicaUrl'> {
  const rawMode = env.DATABASE_POOL_MODE;
  const databasePoolMode = rawMode ? DATABASE_POOL_MODES.find((mode) => mode === rawMode.toLowerCase()) : undefined;
  if (rawMode && !databasePoolMode) throw new ConfigError(`DATABASE_POOL_MODE must be session or transaction (got "${rawMode}").`);
  const databaseListenUrl = env.DATABASE_LISTEN_URL || undefined;
  const databaseReplicaUrl = env.DATABASE_REPLICA_URL || undefined;
  if (!env.DATABASE_URL) {
    const set = [['DATABASE_POOL_MODE', rawMode], ['DATABASE_LISTEN_URL', databaseListenUrl], ['DATABASE_REPLICA_URL', databaseReplicaUrl]].find(([, value]) => value);
    if (set) throw new ConfigError(`${set[0]} is set without DATABASE_URL: it concerns PostgreSQL, not the embedded database.`);
  }
  if (databasePoolMode === 'transaction') requireCrossProcessDelivery(env.REDIS_URL, databaseListenUrl);
  if (databaseReplicaUrl && !env.REDIS_URL) {
    throw new ConfigError(
      'DATABASE_REPLICA_URL needs REDIS_URL: the server processes share there where each account last wrote, so that a client reads its own writes back on whichever process it reaches.',
    );
  }
  return { databasePoolMode, databaseListenUrl, databaseReplicaUrl };
}

/**
 * Through a transaction pooler, LISTEN would listen on a server connection that the pooler hands to
 * others: subscriptions then need Redis, or a direct connection to listen on.
 * @throws ConfigError when neither is given.
 */
export function requireCrossProcessDelivery(redisUrl: string | undefined, databaseListenUrl: string | undefined): void {
  if (redisUrl || databaseListenUrl) return;
  throw new ConfigError(
    'DATABASE_URL goes through a transaction pooler (DATABASE_POOL_MODE=transaction, or found so at start), where LISTEN cannot work: ' +
      'set REDIS_URL for cross-process delivery, or DATABASE_LISTEN_URL to a direct connection to PostgreSQL.',
  );
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 4000, 0, 65535),
    databaseUrl: env.DATABASE_URL || undefined,
    ...scaleOut(env),
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    embeddedBufferMb: integer(env, 'EMBEDDED_BUFFER_MB', 128, 1, 1024),
    bootstrapApiKey: env.BOOTSTRAP_API_KEY || undefined,
    development: env.NODE_ENV === 'development',
    clientDist: path.resolve(env.CLIENT_DIST || path.join(__dirname, '..', '..', 'client', 'dist')),
    poolSize: integer(env, 'DB_POOL_SIZE', 10, 2, 200),
    pubSubReconnectMs: integer(env, 'PUBSUB_RECONNECT_MS', DEFAULT_RECONNECT_OPTIONS.initialDelayMs, 10, 60_000),
    redisUrl: env.REDIS_URL || undefined,
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
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
    approval: approvalSettings(env),
    agent: agentConfig(env),
    logLevel: logLevel(env.LOG_LEVEL),
    metricsToken: env.METRICS_TOKEN || undefined,
    attachmentMaxBytes: integer(env, 'ATTACHMENT_MAX_BYTES', DEFAULT_ATTACHMENT_MAX_BYTES, 1, 2_147_483_647),
    s3: s3Options(env),
    retention: {
      sweepMs: integer(env, 'RETENTION_SWEEP_MS', DEFAULT_RETENTION_SETTINGS.sweepMs, 1_000, 86_400_000),
      batchSize: integer(env, 'RETENTION_BATCH', DEFAULT_RETENTION_SETTINGS.batchSize, 1, 1_000),
    },
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', DEFAULT_IMPORT_MAX_BYTES, 1, 2_147_483_647),
    rateLimits: rateLimits(env),
    trustedProxies: trustedProxies(env.TRUST_PROXY),
    webhooks: webhookSettings(env),
  };
}
