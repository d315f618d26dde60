import pino, { DestinationStream, Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggingOptions {
  level: LogLevel;
  /** Human-readable lines (pino-pretty, a development dependency) instead of JSON. */
  pretty: boolean;
  /** Where JSON lines go; standard output by default. */
  destination?: DestinationStream;
}

/**
 * Never written, whatever the level: API keys (the Authorization header, keys in payloads),
 * what people and agents wrote (message text, handoffs, operation variables) and the values a
 * failed SQL statement was sent with, which hold the same.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'apiKey',
  '*.apiKey',
  'text',
  '*.text',
  'handoff',
  '*.handoff',
  'variables',
  '*.variables',
  'err.parameters',
  'err.driverError.parameters',
];

function prettyAvailable(): boolean {
  try {
    require.resolve('pino-pretty');
    return true;
  } catch {
    return false;
  }
}

/** A JSON logger with the redactions above; pretty only when asked and pino-pretty is installed. */
export function createLogger(options: LoggingOptions): Logger {
  const base = { level: options.level, redact: { paths: REDACTED_PATHS, censor: '[Redacted]' } };
  if (options.pretty && !options.destination && prettyAvailable()) {
    return pino({ ...base, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l' } } });
  }
  return options.destination ? pino(base, options.destination) : pino(base);
}

/** The process's logger: JSON at `info` until the server starts with its configuration. */
export let logger: Logger = createLogger({ level: 'info', pretty: false });

/** Makes `logger` the given one, for every module that logs. */
export function useLogger(next: Logger): void {
  logger = next;
}
