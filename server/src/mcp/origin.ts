import type { CorsOrigins } from '../platform/http/cors';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether the server listens on a loopback address only, where no other machine can reach it. */
function isLoopback(listenHost: string): boolean {
  return LOOPBACK_NAMES.has(listenHost.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(listenHost);
}

/** The host (name and port) a Host header or an origin names, normalised as URLs write it; null when it names none. */
function hostOf(url: string): { host: string; hostname: string } | null {
  if (!URL.canParse(url)) return null;
  const { host, hostname, protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:' ? { host, hostname } : null;
}

/**
 * Whether a request to /mcp with this `Origin` may proceed: the Streamable HTTP transport's
 * protection against DNS rebinding. A request without Origin does not come from a web page. A
 * page's origin must be listed in CORS_ORIGINS (any, for `*`) or be the server's own: the one
 * the Host header names, and for a server listening on loopback only a loopback name, since a
 * page whose name was rebound to 127.0.0.1 sends that name in Host and Origin alike.
 */
export function mcpOriginAllowed(corsOrigins: CorsOrigins, listenHost: string, origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (corsOrigins === '*' || corsOrigins.includes(origin)) return true;
  const page = hostOf(origin);
  const server = host ? hostOf(`http://${host}`) : null;
  if (!page || !server || page.host !== server.host) return false;
  return !isLoopback(listenHost) || LOOPBACK_NAMES.has(server.hostname);
}
