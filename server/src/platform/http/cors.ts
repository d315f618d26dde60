import { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import type { Logger } from 'pino';

/** Browser origins allowed to call the API: a list, or any (`*`). */
export type CorsOrigins = string[] | '*';

/** Request headers a browser client of the API sends. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'content-encoding', 'accept', 'apollo-require-preflight', 'x-apollo-operation-name'];

/** At most this many refused origins are remembered (and logged): a flood of made-up origins cannot grow the log or the memory. */
const REFUSALS_REMEMBERED = 1_000;

/**
 * Logs each origin refused by CORS or the WebSocket origin check once, at `warn`, naming the
 * setting that would allow it: the browser only shows its page "Failed to fetch" or a close 1006.
 */
export function corsRefusalLog(logger: Logger): (origin: string, transport: 'HTTP' | 'WebSocket') => void {
  const logged = new Set<string>();
  return (origin, transport) => {
    if (logged.has(origin) || logged.size >= REFUSALS_REMEMBERED) return;
    logged.add(origin);
    logger.warn(
      { origin, transport },
      `Refused a browser request from ${origin}: the origin is not listed in CORS_ORIGINS. Add it there to let a web page at that origin call the API (logged once per origin).`,
    );
  };
}

/** Whether an Origin is the server's own: the one the Host header names. */
function isOwnOrigin(origin: string, host: string | undefined): boolean {
  return URL.canParse(origin) && new URL(origin).host === host;
}

type CorsMiddleware = ReturnType<typeof cors>;

/**
 * The headers `handler` writes on a request that is no preflight and names no origin: the same for
 * every such request, so they are read once, from the middleware itself. Clients outside browsers
 * send no Origin and make most requests; they get these headers without the middleware's options,
 * closures and header lists being made again for each.
 */
function headersWithoutOrigin(handler: CorsMiddleware): [string, string][] {
  // By lower-cased name, each with the name as written.
  const headers = new Map<string, [string, string]>();
  const response = {
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), [name, String(value)]),
  };
  handler({ method: 'POST', headers: {} } as never, response as never, () => undefined);
  return [...headers.values()];
}

/**
 * CORS for every HTTP endpoint: the listed origins (or any, for `*`) may call the API from a
 * browser, preflights included; credentials are never allowed, since the API key travels in the
 * Authorization header, not in cookies. With no origins listed only the server's own origin may.
 * Another origin is refused (no CORS headers) and reported to `refused`.
 */
export function corsHandler(
  origins: CorsOrigins,
  refused: (origin: string) => void = () => undefined,
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  const options = { origin: origins, methods: ['GET', 'POST', 'OPTIONS'], allowedHeaders: ALLOWED_HEADERS, credentials: false, maxAge: 600 };
  const handler = cors(options);
  const withoutOrigin = headersWithoutOrigin(handler);
  return (req, res, next) => {
    const { origin, host } = req.headers;
    if (origin === undefined && req.method !== 'OPTIONS' && !res.hasHeader('vary')) {
      for (const [name, value] of withoutOrigin) res.setHeader(name, value);
      return next();
    }
    if (origin && origins !== '*' && !origins.includes(origin) && !isOwnOrigin(origin, host)) refused(origin);
    handler(req, res, next);
  };
}

/**
 * Whether a WebSocket upgrade may proceed: no Origin header is a client outside a browser; a
 * browser's Origin must be listed, or be the server's own.
 */
export function webSocketOriginAllowed(origins: CorsOrigins, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true;
  if (origins === '*' || origins.includes(origin)) return true;
  return isOwnOrigin(origin, host);
}
