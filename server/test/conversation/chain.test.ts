import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

const MANIFEST = `query ($id: ID!) { projectionManifest(id: $id) { id predecessorId
  items { kind sessionId fromEventId toEventId eventId status handoffManifestId } } }`;

describe('no summaries of summaries', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer({ continuationPolicy: { streakLimit: 100, perAccountPerMinute: 1000, defaultTokenBudget: 8000 } });
    client = await server.newAccount('chainer');
  });
  afterAll(() => server.close());

  it('leads from the 5th manifest back through every handoff to the exact events of the origin', async () => {
    const origin = await createSession(client, 'origin');
    const originFirst = await postMessage(client, origin, 'The original request, with its exact words');
    let head = origin;
    let headFirst = originFirst;
    const manifests: string[] = [];
    for (let step = 1; step <= 5; step += 1) {
      const last = await postMessage(client, head, `message ${step} in ${head}`);
      const result = await continueSession(
        client,
        continuation(head, {
          title: `step ${step}`,
          sources: [{ kind: 'SESSION_EVENTS', relevance: 'everything so far here', sessionId: head, fromEventId: headFirst, toEventId: last }],
        }),
      );
      const { session } = await client.data<any>(
        'query ($id: ID!) { session(id: $id) { continuedFrom { manifest { id } } events(first: 1) { edges { node { id } } } } }',
        { id: result.successor!.id },
      );
      manifests.push(session.continuedFrom.manifest.id);
      await settleRuns(server, result.successor!.id);
      head = result.successor!.id;
      headFirst = session.events.edges[0].node.id;
    }

    // Walk back: each manifest cites its predecessor from its banner, which names the manifest before.
    let manifestId: string | null = manifests[4];
    const walked: string[] = [];
    let reachedOrigin = false;
    while (manifestId) {
      type Item = { sessionId: string; fromEventId: string; toEventId: string; handoffManifestId: string | null };
      const { projectionManifest: manifest }: { projectionManifest: { id: string; predecessorId: string; items: Item[] } } =
        await client.data(MANIFEST, { id: manifestId });
      walked.push(manifest.id);
      const cited: Item = manifest.items[manifest.items.length - 1];
      expect(cited.sessionId).toBe(manifest.predecessorId);
      if (manifest.predecessorId === origin) {
        expect(cited).toMatchObject({ fromEventId: originFirst, handoffManifestId: null });
        const { eventRange } = await client.data<any>(
          'query ($s: ID!, $a: ID!, $b: ID!) { eventRange(sessionId: $s, fromEventId: $a, toEventId: $b) { text } }',
          { s: origin, a: cited.fromEventId, b: cited.toEventId },
        );
        expect(eventRange[0].text).toBe('The original request, with its exact words');
        reachedOrigin = true;
      }
      manifestId = cited.handoffManifestId;
    }
    expect(walked).toEqual([...manifests].reverse());
    expect(reachedOrigin).toBe(true);
  });
});
