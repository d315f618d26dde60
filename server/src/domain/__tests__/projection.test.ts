import { createHash } from 'node:crypto';
import { lineageBlock } from '../continuations';
import {
  compileProjection,
  contentItem,
  ProjectedEvent,
  ProjectionRequest,
  ProjectionSourceReader,
  rangeHash,
} from '../projection';
import { countTokens } from '../tokens';

const PREDECESSOR = '11111111-1111-4111-8111-111111111111';

function transcript(texts: string[], sessionId = PREDECESSOR): ProjectedEvent[] {
  let total = 0;
  return texts.map((text, index) => {
    const tokenCount = countTokens(text);
    total += tokenCount;
    return {
      id: `${sessionId.slice(0, 8)}-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
      sessionId,
      seq: index + 1,
      kind: index % 2 === 0 ? 'USER_MESSAGE' : 'ASSISTANT_MESSAGE',
      text,
      data: null,
      tokenCount,
      tokenTotal: total,
      hash: createHash('sha256').update(`${index}:${text}`).digest('hex'),
    };
  });
}

/** Reads from memory and records what was read, to show that compiling reads only what may fit. */
function memoryReader(events: ProjectedEvent[]) {
  const reads: [number, number][] = [];
  const reader: ProjectionSourceReader = {
    async eventsInRanges(ranges) {
      reads.push(...ranges.map((range): [number, number] => [range.fromSeq, range.toSeq]));
      return ranges.map((range) =>
        events.filter((event) => event.sessionId === range.sessionId && event.seq >= range.fromSeq && event.seq <= range.toSeq),
      );
    },
  };
  return { reader, reads };
}

function request(events: ProjectedEvent[], overrides: Partial<ProjectionRequest> = {}): ProjectionRequest {
  const initiating = events[events.length - 1];
  return {
    tokenBudget: 4000,
    identity: { accountId: 'acc', accountName: 'tester', grants: ['everything of this account'], tools: ['continue_session'] },
    transferred: { plan: 'OMIT', planRevision: null, pendingRunIds: [], pinnedTools: [], pinnedResources: [] },
    carriedPlan: null,
    lineageBlock: lineageBlock({ originId: PREDECESSOR, predecessorId: PREDECESSOR, edgeId: 'edge', initiatingEventId: initiating.id, manifestId: 'manifest' }),
    manifestId: 'manifest',
    initiatingEvent: initiating,
    recentBefore: { sessionId: PREDECESSOR, seq: initiating.seq },
    handoff: {
      purpose: 'Plan the release',
      currentRequest: initiating.text ?? '',
      establishedFacts: ['Tests pass on both databases'],
      decisions: ['Ship on Friday'],
      openQuestions: [],
      nextActions: ['Write the changelog'],
      cautions: [],
    },
    pins: [],
    sources: [],
    ...overrides,
  };
}

async function compile(req: ProjectionRequest, reader: ProjectionSourceReader) {
  const outcome = await compileProjection(req, reader);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('the projection compiler', () => {
  const events = transcript(['Hello', 'Hi, how can I help?', 'Summarise the spec', 'It proposes continuation.', 'Now plan the release']);

  it('fills sections in the specified order and lists every source as an item', async () => {
    const source = { type: 'EVENTS' as const, input: { kind: 'SESSION_EVENTS' as const, relevance: 'the spec summary', sessionId: PREDECESSOR }, first: events[2], last: events[3], handoffManifestId: null };
    const projection = await compile(request(events, { sources: [source] }), memoryReader(events).reader);
    expect(projection.sections.map((section) => section.kind)).toEqual([
      'SYSTEM',
      'IDENTITY',
      'STATE',
      'LINEAGE',
      'INITIATING_MESSAGE',
      'HANDOFF',
      'RECENT_EXCHANGE',
      'EXCERPT',
    ]);
    expect(projection.sections[4].text).toBe(`[event ${events[4].id} seq 5 USER_MESSAGE] Now plan the release`);
    expect(projection.items.map((item) => [item.kind, item.status, item.relevance])).toEqual([
      ['SESSION_EVENT', 'INCLUDED', 'the initiating user message'],
      ['SESSION_EVENTS', 'INCLUDED', 'recent exchange before the initiating message'],
      ['SESSION_EVENTS', 'INCLUDED', 'the spec summary'],
    ]);
    expect(projection.items[2]).toMatchObject({ fromEventId: events[2].id, toEventId: events[3].id, hash: rangeHash(events[2], events[3]) });
    expect(projection.items[2].tokenCount).toBe(events[2].tokenCount + events[3].tokenCount);
    const joined = projection.sections.map((section) => section.text).join('\n\n');
    expect(projection.tokenCost).toBe(countTokens(joined));
  });

  it('is deterministic: the same input gives the same context and items', async () => {
    const a = await compile(request(events), memoryReader(events).reader);
    const b = await compile(request(events), memoryReader(events).reader);
    expect(a).toEqual(b);
  });

  it('refuses a budget below the never-dropped sections, naming the minimum, and accepts exactly that minimum', async () => {
    const refused = await compileProjection(request(events, { tokenBudget: 64 }), memoryReader(events).reader);
    expect(refused.ok).toBe(false);
    const minimum = Number(/Must be at least (\d+)/.exec(refused.ok ? '' : refused.error.details[0].message)?.[1]);
    expect(minimum).toBeGreaterThan(64);

    const atMinimum = await compile(request(events, { tokenBudget: minimum }), memoryReader(events).reader);
    expect(atMinimum.tokenCost).toBeLessThanOrEqual(minimum);
    expect(atMinimum.sections.map((section) => section.kind)).toEqual(
      expect.arrayContaining(['SYSTEM', 'IDENTITY', 'STATE', 'LINEAGE', 'INITIATING_MESSAGE', 'OMITTED_HANDLES']),
    );
    const oneShort = await compileProjection(request(events, { tokenBudget: minimum - 1 }), memoryReader(events).reader);
    expect(oneShort).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('omits a huge single event without reading it, and leaves a recall handle for it', async () => {
    const huge = transcript(['word '.repeat(20_000), 'ok', 'Go on'], PREDECESSOR);
    const { reader, reads } = memoryReader(huge);
    const source = { type: 'EVENTS' as const, input: { kind: 'SESSION_EVENT' as const, relevance: 'the huge paste', sessionId: PREDECESSOR }, first: huge[0], last: huge[0], handoffManifestId: null };
    const projection = await compile(request(huge, { sources: [source], recentBefore: { sessionId: PREDECESSOR, seq: 1 } }), reader);
    expect(projection.items[1]).toMatchObject({ status: 'OMITTED', eventId: huge[0].id, tokenCount: huge[0].tokenCount });
    expect(reads).toEqual([]);
    const handles = projection.sections.find((section) => section.kind === 'OMITTED_HANDLES');
    expect(handles?.text).toContain(`event ${huge[0].id}`);
    expect(projection.tokenCost).toBeLessThanOrEqual(4000);
  });

  it('lists a revoked source as UNAVAILABLE with a broken breadcrumb, never its text, and loads pinned content first', async () => {
    const revoked = {
      type: 'UNAVAILABLE' as const,
      item: contentItem('RESOURCE', 'the old contract', { url: 'https://docs.example/contract', version: '3', blockId: null, path: null, cid: null }, null),
    };
    const pinned = {
      type: 'CONTENT' as const,
      item: contentItem('RESOURCE', 'a pinned resource', { url: 'https://docs.example/guide', version: '2', blockId: 'setup', path: null, cid: 'c1d' }, { text: 'Run npm install first.', tokenCount: countTokens('Run npm install first.') }),
      text: 'Run npm install first.',
    };
    const projection = await compile(request(events, { sources: [revoked], pins: [pinned] }), memoryReader(events).reader);
    expect(projection.items.map((item) => [item.relevance, item.status])).toEqual([
      ['the initiating user message', 'INCLUDED'],
      ['a pinned resource', 'INCLUDED'],
      ['recent exchange before the initiating message', 'INCLUDED'],
      ['the old contract', 'UNAVAILABLE'],
    ]);
    expect(projection.items[3]).toMatchObject({ tokenCount: 0, hash: null, version: '3' });
    const kinds = projection.sections.map((section) => section.kind);
    expect(kinds.indexOf('PINNED_SOURCE')).toBeLessThan(kinds.indexOf('RECENT_EXCHANGE'));
    const handles = projection.sections.find((section) => section.kind === 'OMITTED_HANDLES')?.text;
    expect(handles).toBe(
      '- unavailable (revoked, not substituted): resource https://docs.example/contract version 3, 0 tokens (read_resource): the old contract',
    );
  });

  it('keeps within every budget between the minimum and plenty, dropping from the end', async () => {
    const long = transcript(Array.from({ length: 40 }, (_, i) => `message ${i} ${'detail '.repeat(i * 5)}`));
    const sources = [0, 10, 20].map((start) => ({
      type: 'EVENTS' as const,
      input: { kind: 'SESSION_EVENTS' as const, relevance: `part ${start}`, sessionId: PREDECESSOR },
      first: long[start],
      last: long[start + 5],
      handoffManifestId: null,
    }));
    for (const tokenBudget of [700, 900, 1200, 1800, 2600, 4000, 8000]) {
      const projection = await compile(request(long, { sources, tokenBudget }), memoryReader(long).reader);
      expect(projection.tokenCost).toBeLessThanOrEqual(tokenBudget);
      const statuses = projection.items.slice(1).map((item) => item.status);
      expect(statuses.length).toBe(4);
    }
    const generous = await compile(request(long, { sources, tokenBudget: 100_000 }), memoryReader(long).reader);
    expect(generous.items.every((item) => item.status === 'INCLUDED')).toBe(true);
  });
});
