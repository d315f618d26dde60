import { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { ApolloServer, BaseContext, HeaderMap } from '@apollo/server';
import { logger } from '../observability/logger';
import { requestIdOf, requestLog } from './request-log';

/** The request body limit, after decompression; a larger body is refused with 413. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** A request refused before GraphQL sees it, answered in GraphQL's error shape. */
class RequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendError(res: ServerResponse, status: number, message: string, code: string, requestId?: string): void {
  const body = JSON.stringify({ errors: [{ message, extensions: requestId ? { code, requestId } : { code } }] });
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function decoded(req: IncomingMessage): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  switch (encoding) {
    case 'identity':
      return req;
    case 'gzip':
      return req.pipe(createGunzip());
    case 'deflate':
      return req.pipe(createInflate());
    case 'br':
      return req.pipe(createBrotliDecompress());
    default:
      throw new RequestRefused(415, `The content encoding "${encoding}" is not supported.`);
  }
}

/** The media type and charset of a Content-Type header, lower-cased. */
function contentType(header: string | undefined): { type: string; charset: string | null } {
  if (!header) return { type: '', charset: null };
  const [type, ...parameters] = header.split(';');
  const charset = parameters.map((part) => part.trim().toLowerCase()).find((part) => part.startsWith('charset='));
  return { type: type.trim().toLowerCase(), charset: charset ? charset.slice('charset='.length).replace(/"/g, '') : null };
}

/**
 * The body as text. A body over the limit is refused as soon as it is known to be; the rest of it
 * is read and dropped, so that the connection stays usable for the 413 answer.
 */
function readText(req: IncomingMessage): Promise<string> {
  if (Number(req.headers['content-length']) > BODY_LIMIT_BYTES) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const source = decoded(req);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      source.removeListener('data', collect);
      if (source !== req) req.unpipe();
      req.resume();
      reject(error);
    };
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) fail(tooLarge());
      else chunks.push(chunk);
    };
    source.on('data', collect);
    source.on('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size).toString('utf8'));
    });
    source.on('error', (error) => fail(source === req ? error : new RequestRefused(400, 'The request body could not be decompressed.')));
    if (source !== req) req.on('error', fail);
  });
}

const tooLarge = () => new RequestRefused(413, 'The request body is larger than 1 MB.');

/** The JSON body of a request that declares one: an object or an array, as GraphQL over HTTP sends. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const { type, charset } = contentType(req.headers['content-type']);
  if (type !== 'application/json') return undefined;
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new RequestRefused(415, `The charset "${charset}" is not supported; send UTF-8.`);
  }
  const text = await readText(req);
  const start = text.trimStart()[0];
  if (start !== '{' && start !== '[') throw new RequestRefused(400, 'The request body is not valid JSON.');
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestRefused(400, 'The request body is not valid JSON.');
  }
}

/** Serves a request without Apollo Server when it can (see `directExecution`); false when it did not. */
export type DirectHandler<TContext> = (req: IncomingMessage, res: ServerResponse, body: unknown, context: () => Promise<TContext>) => Promise<boolean>;

/**
 * GraphQL over HTTP on Node's own request and response: the body is read and parsed here, served
 * by `direct` when it can, else handed to Apollo Server, without a web framework in the way of the
 * busiest path. The context is made once, whichever serves the request.
 */
export function graphqlOverHttp<TContext extends BaseContext>(
  apollo: ApolloServer<TContext>,
  context: (req: IncomingMessage) => Promise<TContext>,
  direct: DirectHandler<TContext>,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    try {
      const body = await jsonBody(req);
      let made: Promise<TContext> | undefined;
      const contextOnce = () => (made ??= context(req));
      if (await direct(req, res, body, contextOnce)) return;
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const query = req.url!.indexOf('?');
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method!.toUpperCase(), headers, search: query < 0 ? '' : req.url!.slice(query), body },
        context: contextOnce,
      });
      for (const [name, value] of response.headers) res.setHeader(name, value);
      res.statusCode = response.status ?? 200;
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
        return;
      }
      for await (const chunk of response.body.asyncIterator) res.write(chunk);
      res.end();
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
      } else if (error instanceof RequestRefused) {
        sendError(res, error.status, error.message, 'BAD_REQUEST');
      } else {
        requestLog(req, logger).error({ err: error }, 'Unexpected error serving GraphQL over HTTP');
        sendError(res, 500, 'Internal server error', 'INTERNAL_SERVER_ERROR', requestIdOf(req));
      }
    }
  };
}
