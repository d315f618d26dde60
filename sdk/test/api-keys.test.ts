import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { createClient, type Client, TransportError } from '../src/index.js';
import { startServer, type RunningServer } from './server.js';

let server: RunningServer;
let backend: Client;

before(async () => {
  server = await startServer();
  backend = createClient({ url: server.url, apiKey: server.apiKey, webSocketImpl: WebSocket });
});

after(async () => {
  await backend.dispose();
  await server.close();
});

describe('key management', () => {
  it("mints a per-user key for one conversation that reaches it and nothing else, then revokes it", async () => {
    const theirs = await backend.createSession({ title: 'Support chat of user 42' });
    const someoneElses = await backend.createSession({ title: 'Support chat of user 7' });
    const minted = await backend.createApiKey({ name: 'user 42', scopes: ['WRITE'], sessionIds: [theirs.id], expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    assert.equal(minted.__typename, 'CreateApiKeySuccess', JSON.stringify(minted));
    if (minted.__typename !== 'CreateApiKeySuccess') return;
    assert.deepEqual(minted.apiKey.sessionIds, [theirs.id]);

    const user = createClient({ url: server.url, apiKey: minted.secret });
    const posted = await user.postMessage({ sessionId: theirs.id, text: 'Hello' });
    assert.equal(posted.__typename, 'PostMessageSuccess');
    const elsewhere = await user.postMessage({ sessionId: someoneElses.id, text: 'Hello' });
    assert.equal(elsewhere.__typename === 'OperationError' && elsewhere.code, 'NOT_FOUND');
    await assert.rejects(user.createSession({ title: 'mine' }), (error: unknown) => error instanceof TransportError && error.errors?.[0]?.extensions?.code === 'FORBIDDEN');

    assert.ok((await backend.listApiKeys()).some((key) => key.id === minted.apiKey.id && key.revokedAt === null));
    const revoked = await backend.revokeApiKey(minted.apiKey.id);
    assert.ok(revoked?.revokedAt);
    await assert.rejects(user.listSessions(), (error: unknown) => error instanceof TransportError && error.status === 401);
  });
});
