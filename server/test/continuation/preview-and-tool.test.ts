import { countTokens } from '../../src/shared/tokens';
import { GraphQLTestClient } from '../helpers/graphql-client';
import { continuation, continueSession, createSession, postMessage } from '../helpers/continuations';
import { startTestServer, TestServer } from '../helpers/test-server';

const PREVIEW = `query ($input: ContinueSessionInput!) { previewProjection(input: $input) {
  __typename
  ... on ProjectionPreview { tokenBudget tokenCost items { kind status relevance tokenCount hash } context { tokenCount sections { kind text } } }
  ... on OperationError { code message details { path } } } }`;

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe('previewProjection', () => {
  let server: TestServer;
  let client: GraphQLTestClient;

  beforeAll(async () => {
    server = await startTestServer();
    client = await server.newAccount('previewer');
  });
  afterAll(() => server.close());

  it('shows what continueSession would carry and omit, writes nothing, and matches the real manifest', async () => {
    const sessionId = await createSession(client, 'preview me');
    const first = await postMessage(client, sessionId, `A long paste: ${'context '.repeat(3000)}`);
    await postMessage(client, sessionId, 'Now continue with a small budget');
    const input = continuation(sessionId, {
      tokenBudget: 1200,
      sources: [{ kind: 'SESSION_EVENT', relevance: 'the long paste', sessionId, eventId: first }],
    });
    const count = async () =>
      (await server.app.database.dataSource.query('SELECT (SELECT count(*) FROM sessions)::int + (SELECT count(*) FROM events)::int AS rows'))[0].rows;

    const before = await count();
    const { previewProjection: preview } = await client.data<any>(PREVIEW, { input });
    expect(await count()).toBe(before);
    expect(preview).toMatchObject({ __typename: 'ProjectionPreview', tokenBudget: 1200 });
    expect(preview.tokenCost).toBeLessThanOrEqual(1200);
    expect(preview.items.map((item: any) => [item.relevance, item.status])).toEqual([
      ['the initiating user message', 'INCLUDED'],
      ['recent exchange before the initiating message', 'OMITTED'],
      ['the long paste', 'OMITTED'],
    ]);

    const result = await continueSession(client, input);
    const { session } = await client.data<any>(
      `query ($id: ID!) { session(id: $id) { continuedFrom { manifest {
        tokenCost items { kind status relevance tokenCount hash } context { sections { kind text } } } } } }`,
      { id: result.successor!.id },
    );
    const { manifest } = session.continuedFrom;
    expect(manifest.items).toEqual(preview.items);
    // Only the edge and manifest ids differ between the preview and the stored manifest, and each
    // side's cost is the exact count of its own context (ids tokenize to different lengths).
    type Section = { kind: string; text: string };
    const withoutIds = (sections: Section[]) => sections.map(({ kind, text }) => ({ kind, text: text.replace(UUID, '<id>') }));
    expect(withoutIds(manifest.context.sections)).toEqual(withoutIds(preview.context.sections));
    for (const side of [preview, manifest]) {
      expect(countTokens(side.context.sections.map((section: Section) => section.text).join('\n\n'))).toBe(side.tokenCost);
    }
  });

  it('answers the same OperationError as continueSession would', async () => {
    const sessionId = await createSession(client, 'too small');
    await postMessage(client, sessionId, 'hi');
    const { previewProjection } = await client.data<any>(PREVIEW, { input: continuation(sessionId, { tokenBudget: 80 }) });
    expect(previewProjection).toMatchObject({ __typename: 'OperationError', code: 'INVALID_INPUT', details: [{ path: ['input', 'tokenBudget'] }] });
  });
});

describe('continueSessionTool', () => {
  it('describes continue_session in function-calling form with the specification names', async () => {
    const server = await startTestServer();
    try {
      const client = await server.newAccount('agent');
      const { continueSessionTool: tool } = await client.data<any>('query { continueSessionTool }');
      expect(tool.type).toBe('function');
      expect(tool.function.name).toBe('continue_session');
      const parameters = tool.function.parameters;
      expect(Object.keys(parameters.properties).sort()).toEqual(['assist', 'description', 'handoff', 'reason', 'sources', 'title', 'transfer']);
      expect(parameters.required.sort()).toEqual(['handoff', 'reason', 'sources', 'title']);
      expect(parameters.properties.reason.enum).toEqual(['topic_change', 'phase_change', 'context_pressure', 'user_request', 'other']);
      expect(Object.keys(parameters.properties.handoff.properties)).toEqual([
        'purpose',
        'currentRequest',
        'establishedFacts',
        'decisions',
        'openQuestions',
        'nextActions',
        'cautions',
      ]);
      const kinds = parameters.properties.sources.items.oneOf.map((variant: any) => [variant.properties.kind.const, variant.required]);
      expect(kinds).toEqual([
        ['session_events', ['kind', 'relevance', 'sessionId', 'fromEventId', 'toEventId']],
        ['session_event', ['kind', 'relevance', 'sessionId', 'eventId']],
        ['resource', ['kind', 'relevance', 'url']],
        ['memory', ['kind', 'relevance', 'path']],
        ['attachment', ['kind', 'relevance', 'cid']],
      ]);
      expect(Object.keys(parameters.properties.transfer.properties)).toEqual(['plan', 'pendingRuns', 'pinnedTools', 'pinnedResources']);
      expect(parameters.properties.transfer.properties.plan.enum).toEqual(['carry', 'close', 'omit']);
    } finally {
      await server.close();
    }
  });
});
