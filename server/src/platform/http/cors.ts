import { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';

/** Browser origins allowed to call the API: a list, or any (`*`). */
export type CorsOrigins = string[] | '*';

/** Request headers a browser client of the API sends. */
const ALLOWED_HEADERS = ['authorization', 'content-type', 'content-encoding', 'accept', 'apollo-require-preflight', 'x-apollo-operation-name'];

/**
 * CORS for every HTTP endpoint: the listed origins (or any, for `*`) may call the API from a
 * browser, preflights included; credentials are never allowed, since the API key travels in the
 * Authorization header, not in cookies. With no origins listed only the server's own origin may.
 */
export function corsHandler(
  origins: CorsOrigins,
): (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void {
  return cors({
    origin: origins,
    methods: ['GET', 'POST', 'OPTIONS'],
    allowedHeaders: ALLOWED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
}

/**
 * Whether a WebSocket upgrade may proceed: no Origin header is a client outside a browser; a
 * browser's Origin must be listed, or be the server's own.
 */
export function webSocketOriginAllowed(origins: CorsOrigins, origin: string | undefined, host: string | undefined): boolean {
  if (!origin) return true;
  if (origins === '*' || origins.includes(origin)) return true;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
