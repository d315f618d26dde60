import { DEFAULT_AGENT_CONFIG } from '../../src/config';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { createSession, postMessage } from '../helpers/continuations';
import { eventsOf, sessionOf, settledRuns } from '../helpers/runs';
import { startTestServer, TestServer } from '../helpers/test-server';

describe('the built-in agent searching the history', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer({ agent: { ...DEFAULT_AGENT_CONFIG, provider: 'builtin', pollMs: 50 } });
    client = await server.newAccount('searching agent');
  });
  afterAll(() => server?.close());

  it('answers /search in a successor with the earlier event and its exact address, not with the request itself', async () => {
    const origin = await createSession(client, 'Security');
    const fact = await postMessage(client, origin, 'The signing keys are rotated every ninety days.');
    await settledRuns(client, origin);
    await postMessage(client, origin, '/continue Audit');
    await settledRuns(client, origin);
    const successor = (await sessionOf(client, origin)).continuations[0].successor.id;
    await settledRuns(client, successor);

    await postMessage(client, successor, '/search how often are signing keys rotated');
    await settledRuns(client, successor);
    const events = await eventsOf(client, successor);
    const answer = events[events.length - 1];
    expect(answer.kind).toBe('ASSISTANT_MESSAGE');
    expect(answer.text).toContain(`session ${origin}, event ${fact} (seq 1): The signing keys are rotated every ninety days`);
    expect(answer.text).not.toContain('/search');
    expect(events.map((event) => event.kind)).toContain('TOOL_CALL');
  });

  it('continues with assisted selection: the successor starts with the earlier material that matches the request', async () => {
    const origin = await createSession(client, 'Exports');
    const fact = 'The nightly export job writes to the eu-west bucket.';
    await postMessage(client, origin, fact);
    await settledRuns(client, origin);
    await postMessage(client, origin, '/continue Planning');
    await settledRuns(client, origin);
    const planning = (await sessionOf(client, origin)).continuations[0].successor.id;
    await settledRuns(client, planning);
    for (let index = 0; index < 4; index++) {
      await postMessage(client, planning, `Unrelated planning chatter number ${index} about lunch.`);
      await settledRuns(client, planning);
    }
    // The fact is two sessions back: only assisted selection brings it into the new context.
    await postMessage(client, planning, '/continue Move the nightly export bucket');
    await settledRuns(client, planning);
    const successor = (await sessionOf(client, planning)).continuations[0].successor.id;
    const { session } = await client.data<{
      session: { continuedFrom: { manifest: { items: { origin: string; status: string; score: number | null }[]; context: { sections: { kind: string; text: string }[] } } } };
    }>('query ($id: ID!) { session(id: $id) { continuedFrom { manifest { items { origin status score } context { sections { kind text } } } } } }', {
      id: successor,
    });
    const { manifest } = session.continuedFrom;
    expect(manifest.items.some((item) => item.origin === 'RECOMMENDED' && item.status === 'INCLUDED' && item.score! > 0)).toBe(true);
    const excerpts = manifest.context.sections.filter((section) => section.kind === 'EXCERPT').map((section) => section.text).join('\n');
    expect(excerpts).toContain(fact);
  });
});
