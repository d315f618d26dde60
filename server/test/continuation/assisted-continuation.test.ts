import { runtimeViewer } from '../../src/modules/accounts/account.repository';
import type { AttachmentService } from '../../src/modules/attachments/attachments.service';
import { Actor, ContinueSessionRequest } from '../../src/modules/continuation/continuations';
import { ContinuationService } from '../../src/modules/continuation/continuations.service';
import type { ContinuationNotifier } from '../../src/modules/continuation/notifications';
import { recommendationPurpose } from '../../src/modules/continuation/steps/compile';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { CONTINUE, continuation, createSession, postMessage, settleRuns } from '../helpers/continuations';
import { TestServer, startTestServer } from '../helpers/test-server';

const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
  __typename
  ... on ProjectionPreview { tokenCost items { kind status origin score relevance sessionId fromEventId toEventId eventId } context { sections { kind text } } }
} }`;

const MANIFEST = `query ($id: ID!) { session(id: $id) { continuedFrom { manifest {
  tokenCost tokenBudget items { kind status origin score relevance sessionId fromEventId toEventId eventId } context { sections { kind text } }
} } } }`;

interface Item {
  kind: string;
  status: string;
  origin: string;
  score: number | null;
  relevance: string;
  sessionId: string;
  fromEventId: string | null;
  toEventId: string | null;
  eventId: string | null;
}

interface Compiled {
  tokenCost: number;
  items: Item[];
  context: { sections: { kind: string; text: string }[] };
}

const FACT = 'The nightly export job writes to the eu-west bucket.';

/** Ids of the events the context shows, each time it shows one. */
function shownEventIds(compiled: Compiled): string[] {
  return compiled.context.sections.flatMap((section) => [...section.text.matchAll(/\[event ([0-9a-f-]{36}) seq/g)].map((match) => match[1]));
}

describe('continueSession with assisted selection', () => {
  let server: TestServer;
  let client: GraphQLTestClient;
  let origin: string;
  let middle: string;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('assisted');
    origin = await createSession(client, 'Data platform');
    await postMessage(client, origin, 'Morning, let us sort out the data platform.');
    await postMessage(client, origin, FACT);
    for (let index = 0; index < 12; index++) await postMessage(client, origin, `Chatter about lunch and the weekly sync, part ${index}.`);
    const first = await client.data<{ continueSession: { successor: { id: string } } }>(CONTINUE, { input: continuation(origin, { title: 'Planning' }) });
    middle = first.continueSession.successor.id;
    await settleRuns(server, middle);
    for (let index = 0; index < 6; index++) await postMessage(client, middle, `Planning notes, item ${index}.`);
    await postMessage(client, middle, 'Where does the nightly export land? Check before the migration.');
  });

  afterAll(() => server?.close());

  const assisted = (overrides: Record<string, unknown> = {}) =>
    continuation(middle, {
      title: 'Migration',
      assist: true,
      handoff: { purpose: 'Prepare the bucket migration of the nightly export', currentRequest: 'Where does the nightly export land?' },
      sources: [],
      ...overrides,
    });

  it('carries the earlier material that matches the purpose, marked RECOMMENDED with a score, and previewProjection agrees writing nothing', async () => {
    const input = assisted();
    const eventsBefore = await server.app.database.dataSource.query('SELECT count(*)::int AS n FROM events');
    const { previewProjection: preview } = await client.data<{ previewProjection: Compiled }>(PREVIEW, { input });
    expect(await server.app.database.dataSource.query('SELECT count(*)::int AS n FROM events')).toEqual(eventsBefore);

    const { continueSession } = await client.data<{ continueSession: { successor: { id: string } } }>(CONTINUE, { input });
    const { session } = await client.data<{ session: { continuedFrom: { manifest: Compiled & { tokenBudget: number } } } }>(MANIFEST, {
      id: continueSession.successor.id,
    });
    const manifest = session.continuedFrom.manifest;
    expect(manifest.items).toEqual(preview.items);
    expect(manifest.context.sections.map((section) => section.kind)).toEqual(preview.context.sections.map((section) => section.kind));

    const recommended = manifest.items.filter((item) => item.origin === 'RECOMMENDED');
    expect(recommended.length).toBeGreaterThan(0);
    expect(recommended[0]).toMatchObject({ status: 'INCLUDED', sessionId: origin });
    expect(recommended[0].score).toBeGreaterThan(0);
    expect(recommended[0].relevance).toContain('"export"');
    expect(manifest.context.sections.map((section) => section.text).join('\n')).toContain(FACT);
    expect(manifest.items.filter((item) => item.origin === 'RUNTIME').length).toBeGreaterThanOrEqual(1);
    expect(manifest.items.filter((item) => item.origin !== 'RECOMMENDED').every((item) => item.score === null)).toBe(true);
    expect(manifest.tokenCost).toBeLessThanOrEqual(manifest.tokenBudget);
    const shown = shownEventIds(manifest);
    expect(new Set(shown).size).toBe(shown.length);
  });

  it('without assist, the same continuation carries nothing of the origin', async () => {
    const { previewProjection } = await client.data<{ previewProjection: Compiled }>(PREVIEW, { input: assisted({ assist: false }) });
    expect(previewProjection.items.some((item) => item.origin === 'RECOMMENDED')).toBe(false);
    expect(previewProjection.context.sections.map((section) => section.text).join('\n')).not.toContain(FACT);
  });

  it('keeps the cited sources first: recommendations follow them and only fill what the budget leaves', async () => {
    const opening = await firstEventOf(origin);
    const { previewProjection } = await client.data<{ previewProjection: Compiled }>(PREVIEW, {
      input: assisted({ sources: [{ kind: 'SESSION_EVENT', sessionId: origin, eventId: opening.id, relevance: 'the opening' }] }),
    });
    const cited = previewProjection.items.find((item) => item.origin === 'CITED')!;
    expect(cited.status).toBe('INCLUDED');
    const excerpts = previewProjection.context.sections.find((section) => section.kind === 'EXCERPT')!.text;
    expect(excerpts.indexOf('relevance="the opening"')).toBeGreaterThanOrEqual(0);
    expect(excerpts.indexOf('relevance="the opening"')).toBeLessThan(excerpts.indexOf(FACT));
    // The cited event is not shown again inside the recommendation that holds it.
    const shown = shownEventIds(previewProjection);
    expect(shown.filter((id) => id === opening.id)).toHaveLength(1);
  });

  it('spends a tight budget on the matching event itself before its neighbours', async () => {
    const { previewProjection: bare } = await client.data<{ previewProjection: Compiled }>(PREVIEW, { input: assisted({ assist: false }) });
    // Room for the excerpt's tags and one event line, not for the window around it.
    const { previewProjection } = await client.data<{ previewProjection: Compiled }>(PREVIEW, {
      input: assisted({ tokenBudget: bare.tokenCost + 150 }),
    });
    const recommended = previewProjection.items.filter((item) => item.origin === 'RECOMMENDED');
    expect(recommended).toHaveLength(1);
    expect(recommended[0]).toMatchObject({ kind: 'SESSION_EVENT', status: 'INCLUDED', sessionId: origin });
    const excerpt = previewProjection.context.sections.find((section) => section.kind === 'EXCERPT')!.text;
    expect(excerpt).toContain(FACT);
    expect(excerpt).not.toContain('Morning, let us sort out');
    expect(previewProjection.tokenCost).toBeLessThanOrEqual(bare.tokenCost + 150);
  });

  it('with room, shows the hit and the event after it as one merged range', async () => {
    const { previewProjection } = await client.data<{ previewProjection: Compiled }>(PREVIEW, { input: assisted({ tokenBudget: 8000 }) });
    const recommended = previewProjection.items.filter((item) => item.origin === 'RECOMMENDED' && item.sessionId === origin);
    expect(recommended[0]).toMatchObject({ kind: 'SESSION_EVENTS', status: 'INCLUDED' });
    const excerpt = previewProjection.context.sections.find((section) => section.kind === 'EXCERPT')!.text;
    const lines = excerpt.split('\n');
    const fact = lines.findIndex((line) => line.endsWith(FACT));
    expect(lines[fact + 1]).toMatch(/Chatter about lunch and the weekly sync, part 0\.$/);
    expect(lines[fact - 1]).toMatch(/^<excerpt session=/);
  });

  it('takes recommendations read ahead, while the request was being written, only for the same purpose and request', async () => {
    const { dataSource } = server.app.database;
    const notifier = new Proxy({}, { get: () => () => undefined }) as ContinuationNotifier;
    const service = new ContinuationService(dataSource, notifier, { attachmentsByCids: async () => [] } as unknown as AttachmentService);
    const handoff = { purpose: 'Prepare the bucket migration of the nightly export', currentRequest: 'Where does the nightly export land?' };
    // Read ahead for `purpose`, and found nothing: what the continuation carries says which it used.
    const recommendedWhenAheadFor = async (purpose: string) => {
      const session = await createSession(client, 'Exports');
      await postMessage(client, session, FACT);
      for (let index = 0; index < 12; index++) await postMessage(client, session, `Chatter about lunch, part ${index}.`);
      await postMessage(client, session, handoff.currentRequest);
      await settleRuns(server, session);
      const [{ account_id: accountId }] = await dataSource.query('SELECT account_id FROM sessions WHERE id = $1', [session]);
      const input = continuation(session, { title: 'Migration', assist: true, handoff }) as unknown as ContinueSessionRequest;
      const outcome = await service.continueSession(await runtimeViewer(dataSource.manager, accountId), input, {
        actor: Actor.USER,
        recommendedAhead: { sessionId: session, purpose, recommended: Promise.resolve([]) },
      });
      if (!outcome.ok) throw new Error(outcome.error.message);
      return outcome.value.written!.manifest.items.filter((item) => item.origin === 'RECOMMENDED');
    };
    expect(await recommendedWhenAheadFor(recommendationPurpose(handoff))).toEqual([]);
    expect((await recommendedWhenAheadFor('Plan the office party')).length).toBeGreaterThan(0);
  });

  async function firstEventOf(sessionId: string): Promise<{ id: string }> {
    const { session } = await client.data<{ session: { events: { edges: { node: { id: string } }[] } } }>(
      'query ($id: ID!) { session(id: $id) { events(first: 1) { edges { node { id } } } } }',
      { id: sessionId },
    );
    return session.events.edges[0].node;
  }
});
