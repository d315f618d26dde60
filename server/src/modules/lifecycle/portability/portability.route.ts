import { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import express, { Request, Response } from 'express';
import type { Viewer } from '../../../shared/viewer';
import { ApiKeyScope, LIMITED_KEY_MESSAGE, scopeRefusal } from '../../../shared/access';
import { logger } from '../../../platform/observability/logger';
import { requestLog } from '../../../platform/http/request-log';
import { BundleScope } from './bundle';
import type { ExportService } from './export.service';
import type { ImportOutcome, ImportService } from './import.service';

export interface PortabilityRouteServices {
  /** The caller an `Authorization` header value names; null when none. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  exports: ExportService;
  imports: ImportService;
  /** The most bytes a body sent to `POST /imports` may have. */
  importMaxBytes: number;
  /** Whether a session-limited key reaches the session (always, for a key of the whole account). */
  reaches(viewer: Viewer, sessionId: string): Promise<boolean>;
  /** Records that an account wrote, so that its next reads see the import (read-your-writes with a replica). */
  wrote(accountId: string): Promise<void>;
}

function sendError(res: ServerResponse, status: number, message: string, code: string, extensions: Record<string, unknown> = {}): void {
  const body = JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The caller, when its key holds `scope`; else null, the refusal sent (401 without a key, 403 without the scope). */
async function viewerOf(req: IncomingMessage, res: ServerResponse, authenticate: PortabilityRouteServices['authenticate'], scope: ApiKeyScope): Promise<Viewer | null> {
  const viewer = await authenticate(req.headers.authorization);
  if (!viewer) {
    res.setHeader('www-authenticate', 'Bearer');
    sendError(res, 401, 'Missing or unknown API key: send "Authorization: Bearer <api key>".', 'UNAUTHENTICATED');
    return null;
  }
  const refusal = scopeRefusal(viewer.scopes, scope);
  if (refusal) {
    sendError(res, 403, refusal.message, refusal.code, { scope: refusal.scope });
    return null;
  }
  return viewer;
}

/** The body whole, or null (the answer sent) when it is over `maxBytes`. */
async function readBody(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<Buffer | null> {
  const tooLarge = () => {
    req.resume();
    sendError(res, 413, `An import has at most ${maxBytes} bytes.`, 'INVALID_INPUT');
    return null;
  };
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return tooLarge();
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of req) {
    size += (piece as Buffer).length;
    if (size > maxBytes) return tooLarge();
    pieces.push(piece as Buffer);
  }
  return Buffer.concat(pieces, size);
}

function mediaType(req: IncomingMessage): string {
  return (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/**
 * `GET /exports/<session id>?scope=lineage|session` streams the bundle of a session or its lineage
 * (lineage when absent); `POST /imports` takes a bundle (`application/zip`) or a conversation in the
 * OpenAI chat format (`application/json`, optionally `?title=`) and answers 201 with the new
 * sessions, or 400 saying why nothing was written. Both with the Bearer key.
 */
export function portabilityRouter({ authenticate, reaches, exports, imports, importMaxBytes, wrote }: PortabilityRouteServices): express.Router {
  const router = express.Router();

  router.get('/exports/:sessionId', async (req: Request<{ sessionId: string }>, res: Response) => {
    const viewer = await viewerOf(req, res, authenticate, ApiKeyScope.READ);
    if (!viewer) return;
    if (!(await reaches(viewer, req.params.sessionId))) return sendError(res, 404, 'No such session.', 'NOT_FOUND');
    const scope = String(req.query.scope ?? 'lineage').toUpperCase();
    if (scope !== BundleScope.LINEAGE && scope !== BundleScope.SESSION) return sendError(res, 400, 'scope is lineage or session.', 'INVALID_INPUT');
    const outcome = await exports.exportBundle(viewer, req.params.sessionId, scope);
    if (!outcome.ok) return sendError(res, 404, outcome.error.message, outcome.error.code);
    res.writeHead(200, {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${outcome.value.fileName}"`,
      'cache-control': 'no-store',
    });
    await pipeline(outcome.value.stream, res).catch((error: unknown) => {
      // The status is sent: a failure can only cut the bundle short, which its checksums show.
      if (!res.destroyed) requestLog(req, logger).error({ err: error }, 'Unexpected error streaming an export');
      res.destroy();
    });
  });

  router.post('/imports', async (req: Request, res: Response) => {
    const viewer = await viewerOf(req, res, authenticate, ApiKeyScope.WRITE);
    if (!viewer) return void req.resume();
    if (viewer.reach) {
      req.resume();
      return sendError(res, 403, LIMITED_KEY_MESSAGE, 'FORBIDDEN');
    }
    const type = mediaType(req);
    if (type !== 'application/zip' && type !== 'application/json') {
      req.resume();
      return sendError(res, 415, 'Send a bundle as application/zip, or a transcript (a JSON array of { role, content } messages) as application/json.', 'INVALID_INPUT');
    }
    const body = await readBody(req, res, importMaxBytes);
    if (!body) return;
    const title = typeof req.query.title === 'string' ? req.query.title : null;
    const outcome: ImportOutcome = type === 'application/zip' ? await imports.importBundle(viewer, body) : await imports.importTranscript(viewer, body, title);
    if (!outcome.ok) {
      const { message, code, details, refusal } = outcome.error;
      return sendError(res, 400, message, code, { details, ...(refusal ? { refusal } : {}) });
    }
    await wrote(viewer.accountId);
    res.status(201).json(outcome.value);
  });

  return router;
}
