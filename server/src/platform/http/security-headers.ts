import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Written here rather than with helmet: the API serves third-party origins (CORS_ORIGINS), which
 * several of helmet's defaults (Cross-Origin-Resource-Policy, -Embedder-Policy) would refuse, and
 * what is left is three headers.
 */

/** On every response: no content sniffing into a runnable type, no key-bearing URL leaked as a referrer. */
export function applyBaseSecurityHeaders(res: ServerResponse): void {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
}

/**
 * The web client's policy: its own scripts only (no inline script, no eval), no framing, and
 * connections to this API and its WebSocket. Styles may be inline (the editor of GraphiQL writes
 * them; styles run no code); images may be data: and blob: URLs (the icon, attachment thumbnails).
 */
export function clientContentSecurityPolicy(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  const sockets = /^[\w.-]+(:\d+)?$|^\[[\da-f:]+\](:\d+)?$/i.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    `connect-src 'self'${sockets}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
