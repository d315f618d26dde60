import { createHash } from 'node:crypto';
import type { Violation } from '../../src/modules/integrity/invariants';
import { verifyDatabase } from '../../src/modules/integrity/integrity.service';
import { GraphQLTestClient } from './graphql-client';
import type { TestServer } from './test-server';

export interface UploadedAttachment {
  cid: string;
  name: string;
  mediaType: string;
  byteSize: number;
  url: string;
}

export interface UploadAnswer {
  status: number;
  body: UploadedAttachment & { errors?: { message: string; extensions: { code: string } }[] };
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** POST /attachments as a client would send a file: its bytes as the body, its type as Content-Type. */
export async function upload(
  client: GraphQLTestClient,
  name: string | null,
  contentType: string | null,
  body: Uint8Array | ReadableStream<Uint8Array>,
): Promise<UploadAnswer> {
  const response = await fetch(`${client.baseUrl}/attachments${name === null ? '' : `?name=${encodeURIComponent(name)}`}`, {
    method: 'POST',
    headers: { ...(contentType === null ? {} : { 'content-type': contentType }), ...(client.apiKey ? { authorization: `Bearer ${client.apiKey}` } : {}) },
    body,
    // A stream goes out in chunks, without a declared length.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as UploadAnswer['body'] };
}

/** An upload that must succeed. */
export async function uploaded(client: GraphQLTestClient, name: string, contentType: string, body: Uint8Array): Promise<UploadedAttachment> {
  const answer = await upload(client, name, contentType, body);
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`Upload failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** GET /attachments/<cid>: the status, media type and bytes. */
export async function download(client: GraphQLTestClient, cid: string): Promise<{ status: number; mediaType: string | null; bytes: Buffer }> {
  const response = await fetch(`${client.baseUrl}/attachments/${cid}`, {
    headers: client.apiKey ? { authorization: `Bearer ${client.apiKey}` } : {},
  });
  return { status: response.status, mediaType: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** Bytes no other test uploads. */
export function randomFile(size: number, seed: string): Buffer {
  const bytes = Buffer.alloc(size);
  let block = createHash('sha256').update(seed).digest();
  for (let offset = 0; offset < size; offset += block.length) {
    block.copy(bytes, offset);
    block = createHash('sha256').update(block).digest();
  }
  return bytes;
}

/** A small valid PNG (1x1, red). */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * What the verifier finds wrong about these sessions (their events, edges and runs). On
 * PostgreSQL the run's test files share one database, and some write broken rows on purpose.
 */
export async function violationsOf(server: TestServer, sessionIds: string[]): Promise<Violation[]> {
  const runner = server.app.database.dataSource.createQueryRunner();
  await runner.connect();
  const violations: Violation[] = [];
  try {
    await verifyDatabase((text, parameters) => runner.query(text, parameters), {
      onViolation: (violation) => {
        if (Object.values(violation.ids).some((id) => sessionIds.includes(id))) violations.push(violation);
      },
    });
  } finally {
    await runner.release();
  }
  return violations;
}
