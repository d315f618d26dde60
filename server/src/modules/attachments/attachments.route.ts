import { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import express, { Request, Response } from 'express';
import { attachmentPath } from './attachments';
import type { AttachmentEntity } from './attachment.entity';
import type { AttachmentService, UploadResult } from './attachments.service';
import type { Viewer } from '../../shared/viewer';
import { ApiKeyScope, scopeRefusal } from '../../shared/access';
import { logger } from '../../platform/observability/logger';
import { requestLog } from '../../platform/http/request-log';

export interface AttachmentRouteServices {
  /** The caller an `Authorization` header value names; null when none. */
  authenticate(authorization: unknown): Promise<Viewer | null>;
  attachments: AttachmentService;
}

function sendError(res: ServerResponse, status: number, message: string, code: string, details: unknown[] = []): void {
  const body = JSON.stringify({ errors: [{ message, extensions: { code, details } }] });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** Raster images, which run nothing, are the only attachments a browser may show in place. */
function showsInPlace(mediaType: string): boolean {
  return /^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(mediaType.split(';', 1)[0].trim().toLowerCase());
}

/** The JSON the upload answers with: the contract's Attachment fields but its time. */
export function attachmentJson(attachment: AttachmentEntity) {
  const { cid, name, mediaType, byteSize } = attachment;
  return { cid, name, mediaType, byteSize, url: attachmentPath(cid) };
}

const STATUS_OF: Record<UploadResult['status'], number> = { CREATED: 201, EXISTING: 200, INVALID: 400, UNSUPPORTED_TYPE: 415, TOO_LARGE: 413 };

/** The caller, when its key holds `scope`; else null, the refusal sent (401 without a key, 403 without the scope). */
async function viewerOf(req: IncomingMessage, res: ServerResponse, authenticate: AttachmentRouteServices['authenticate'], scope: ApiKeyScope): Promise<Viewer | null> {
  const viewer = await authenticate(req.headers.authorization);
  if (!viewer) {
    res.setHeader('www-authenticate', 'Bearer');
    sendError(res, 401, 'Missing or unknown API key: send "Authorization: Bearer <api key>".', 'UNAUTHENTICATED');
    return null;
  }
  const refusal = scopeRefusal(viewer.scopes, scope);
  if (refusal) {
    sendError(res, 403, refusal.message, refusal.code, [{ path: [], message: `Needs the ${refusal.scope} scope.` }]);
    return null;
  }
  return viewer;
}

/**
 * `POST /attachments?name=<file name>` streams the raw body into storage (201, or 200 when the
 * account holds those bytes already) and `GET /attachments/<cid>` serves them with their media
 * type; both with the Bearer key. Another account's cid is 404, as one that exists nowhere.
 */
export function attachmentsRouter({ authenticate, attachments }: AttachmentRouteServices): express.Router {
  const router = express.Router();

  router.post('/attachments', async (req: Request, res: Response) => {
    const viewer = await viewerOf(req, res, authenticate, ApiKeyScope.WRITE);
    if (!viewer) return void req.resume();
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      req.resume();
      return sendError(res, 415, 'Send the file as it is, without a Content-Encoding: its cid is the hash of exactly those bytes.', 'INVALID_INPUT');
    }
    const declared = req.headers['content-length'];
    let result: UploadResult;
    try {
      result = await attachments.upload(viewer, {
        name: typeof req.query.name === 'string' ? req.query.name : undefined,
        contentType: req.headers['content-type'],
        contentLength: declared === undefined ? undefined : Number(declared),
        // Not destroyed when storage stops reading early: the rest is drained below, and the socket answers.
        body: req.iterator({ destroyOnReturn: false }),
      });
    } catch (error) {
      // A client that went away mid-upload is no fault of the server's; storage removed what it had kept.
      if (req.readableAborted) return;
      throw error;
    } finally {
      // Whatever was not read, after a refusal or a failure, is read and dropped, so that the connection stays usable for the answer.
      req.resume();
    }
    const status = STATUS_OF[result.status];
    if ('failure' in result) return sendError(res, status, result.failure.message, result.failure.code, result.failure.details);
    res.status(status).json(attachmentJson(result.attachment));
  });

  router.get('/attachments/:cid', async (req: Request<{ cid: string }>, res: Response) => {
    const viewer = await viewerOf(req, res, authenticate, ApiKeyScope.READ);
    if (!viewer) return;
    const attachment = await attachments.find(viewer, req.params.cid);
    if (!attachment) return sendError(res, 404, 'No such attachment.', 'NOT_FOUND');
    if (req.headers['if-none-match'] === `"${attachment.cid}"`) return void res.status(304).setHeader('etag', `"${attachment.cid}"`).end();
    const bytes = await attachments.open(attachment);
    res.writeHead(200, {
      'content-type': attachment.mediaType,
      'content-length': attachment.byteSize,
      // The name as a download would save it. Only raster images show in place: anything else
      // (HTML, SVG, PDF) is a download, and the sandbox keeps it from ever running as this origin's page.
      'content-disposition': `${showsInPlace(attachment.mediaType) ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(attachment.name)}`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      // The cid is the hash of the bytes: they never change, but an erasure can remove them, so a
      // cached copy is checked again each time (answered 304 while the attachment exists).
      etag: `"${attachment.cid}"`,
      'cache-control': 'private, no-cache',
    });
    await pipeline(bytes, res).catch((error: unknown) => {
      // The status is sent: a failure can only cut the response short, which the client sees.
      if (!res.destroyed) requestLog(req, logger).error({ err: error }, 'Unexpected error streaming an attachment');
      res.destroy();
    });
  });

  return router;
}
