import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { lineageBlock, SourceKind } from '../../continuations';
import { attachmentItem, contentItem, rangeHash } from '../manifest';
import { compileProjection } from '../compile';
import { EventRangeRead, ManifestItem, ProjectedEvent, Projection, ProjectionRequest, ProjectionSourceReader, ResolvedEventSource, readStart } from '../model';
import { recalledItems } from '../recall';
import { countTokens } from '../../../../shared/tokens';

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

/** What a read returns, written plainly: the range, or its longest end within the tokens and the event before it. */
function eventsRead(events: ProjectedEvent[], read: EventRangeRead): ProjectedEvent[] {
  const range = events.filter((event) => event.sessionId === read.sessionId && event.seq >= read.fromSeq && event.seq <= read.toSeq);
  if (read.withinTokens === undefined) return range;
  let start = range.length;
  let tokens = 0;
  while (start > 0 && tokens + range[start - 1].tokenCount <= read.withinTokens) tokens += range[--start].tokenCount;
  return range.slice(Math.max(0, start - 1));
}

/** Reads from memory and records what was read, to show that compiling reads only what may fit. */
function memoryReader(events: ProjectedEvent[]) {
  const reads: ProjectedEvent[][] = [];
  const reader: ProjectionSourceReader = {
    async eventsInRanges(ranges) {
      const answered = ranges.map((range) => eventsRead(events, range));
      reads.push(...answered);
      return answered;
    },
  };
  return { reader, reads };
}

function cite(first: ProjectedEvent, last: ProjectedEvent, relevance = 'cited'): ResolvedEventSource {
  const kind = first.id === last.id ? SourceKind.SESSION_EVENT : SourceKind.SESSION_EVENTS;
  return { type: 'EVENTS', input: { kind, relevance, sessionId: first.sessionId }, first, last, handoffManifestId: null };
}

/** The seqs an event item covers, by its ids. */
function seqsOf(item: ManifestItem, events: ProjectedEvent[]): [number, number] {
  const seq = (id: string | null) => events.find((event) => event.id === id)!.seq;
  return item.eventId ? [seq(item.eventId), seq(item.eventId)] : [seq(item.fromEventId), seq(item.toEventId)];
}

/** How often each event's own line appears in the compiled context. */
function timesShown(projection: Projection, events: ProjectedEvent[]): number[] {
  const context = projection.sections.map((section) => section.text).join('\n\n');
  return events.map((event) => context.split(`[event ${event.id} `).length - 1);
}

function sectionText(projection: Projection, kind: string): string | undefined {
  return projection.sections.find((section) => section.kind === kind)?.text;
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
    expect(projection.citedItems).toEqual([[projection.items[1]]]);
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
      expect(projection.citedItems.map((items) => items.length >= 1 && items.length <= 2)).toEqual([true, true, true]);
    }
    const generous = await compile(request(long, { sources, tokenBudget: 100_000 }), memoryReader(long).reader);
    expect(generous.items.every((item) => item.status === 'INCLUDED')).toBe(true);
  });
});

describe('an event appears once in a compiled context', () => {
  const twelve = transcript(Array.from({ length: 12 }, (_, i) => `message ${i + 1}: ${'detail '.repeat(i + 3)}`));

  it('a cited range overlapping the recent exchange and the initiating message shows only the other events, and says where the rest are', async () => {
    const projection = await compile(request(twelve, { sources: [cite(twelve[0], twelve[11], 'the whole session')] }), memoryReader(twelve).reader);
    expect(timesShown(projection, twelve)).toEqual(Array(12).fill(1));
    expect(sectionText(projection, 'EXCERPT')!.split('\n').slice(1, -1)).toEqual([
      `[event ${twelve[0].id} seq 1 USER_MESSAGE] ${twelve[0].text}`,
      `[event ${twelve[1].id} seq 2 ASSISTANT_MESSAGE] ${twelve[1].text}`,
      `[event ${twelve[2].id} seq 3 USER_MESSAGE] ${twelve[2].text}`,
      'events seq 4-11: see the recent exchange above',
      'event seq 12: see the initiating message above',
    ]);
    // One item with the exact cited range, counting only the tokens it added.
    expect(projection.citedItems).toEqual([[expect.objectContaining({ status: 'INCLUDED', fromEventId: twelve[0].id, toEventId: twelve[11].id })]]);
    expect(projection.citedItems[0][0].tokenCount).toBe(twelve[2].tokenTotal);
    expect(projection.citedItems[0][0].hash).toBe(rangeHash(twelve[0], twelve[11]));
  });

  it('a range wholly inside the recent exchange is one included item of no new tokens', async () => {
    const projection = await compile(request(twelve, { sources: [cite(twelve[5], twelve[6])] }), memoryReader(twelve).reader);
    expect(timesShown(projection, twelve)).toEqual([0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(sectionText(projection, 'EXCERPT')).toContain('events seq 6-7: see the recent exchange above');
    expect(projection.citedItems[0]).toEqual([expect.objectContaining({ status: 'INCLUDED', tokenCount: 0 })]);
  });

  it('a cited range overlapping an earlier excerpt shows only its new events', async () => {
    const noRecent = { recentBefore: { sessionId: PREDECESSOR, seq: 1 } };
    const sources = [cite(twelve[0], twelve[2], 'the start'), cite(twelve[1], twelve[4], 'the middle'), cite(twelve[1], twelve[1], 'one event')];
    const projection = await compile(request(twelve, { ...noRecent, sources }), memoryReader(twelve).reader);
    expect(timesShown(projection, twelve)).toEqual([1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1]);
    const excerpts = sectionText(projection, 'EXCERPT')!;
    expect(excerpts).toContain('events seq 2-3: see the excerpt of seq 1-3 above');
    expect(excerpts).toContain('event seq 2: see the excerpt of seq 1-3 above');
    expect(projection.citedItems.map((items) => items.map((item) => [item.status, seqsOf(item, twelve), item.tokenCount]))).toEqual([
      [['INCLUDED', [1, 3], twelve[2].tokenTotal]],
      [['INCLUDED', [2, 5], twelve[3].tokenCount + twelve[4].tokenCount]],
      [['INCLUDED', [2, 2], 0]],
    ]);
  });
});

describe('a range that does not fit whole is split', () => {
  const long = transcript(Array.from({ length: 60 }, (_, i) => `entry ${i + 1}: ${'observation '.repeat(20 + (i % 7) * 5)}`));
  const noRecent = { recentBefore: { sessionId: PREDECESSOR, seq: 1 }, initiatingEvent: long[59] };

  /** Checks that the items of a cited range cover it exactly, in order, and returns their statuses and seqs. */
  function coverage(items: ManifestItem[], first: ProjectedEvent, last: ProjectedEvent, events: ProjectedEvent[]) {
    const spans = items.map((item) => seqsOf(item, events));
    expect(spans[0][0]).toBe(first.seq);
    expect(spans[spans.length - 1][1]).toBe(last.seq);
    for (let index = 1; index < spans.length; index++) expect(spans[index][0]).toBe(spans[index - 1][1] + 1);
    return items.map((item, index) => [item.status, spans[index]]);
  }

  it('keeps the end nearest the initiating message and leaves out the start as an item of its own, listed and recallable', async () => {
    const source = cite(long[0], long[58], 'the log');
    const projection = await compile(request(long, { ...noRecent, sources: [source], tokenBudget: 3000 }), memoryReader(long).reader);
    expect(projection.tokenCost).toBeLessThanOrEqual(3000);
    const [omitted, included] = projection.citedItems[0];
    const cut = seqsOf(included, long)[0];
    expect(coverage(projection.citedItems[0], long[0], long[58], long)).toEqual([
      ['OMITTED', [1, cut - 1]],
      ['INCLUDED', [cut, 59]],
    ]);
    expect(cut).toBeGreaterThan(1);
    expect(omitted).toMatchObject({ kind: 'SESSION_EVENTS', hash: rangeHash(long[0], long[cut - 2]), tokenCount: long[cut - 2].tokenTotal });
    expect(included).toMatchObject({ hash: rangeHash(long[cut - 1], long[58]), tokenCount: long[58].tokenTotal - long[cut - 2].tokenTotal });
    expect(timesShown(projection, long).slice(0, 59)).toEqual(long.slice(0, 59).map((event) => (event.seq >= cut ? 1 : 0)));
    expect(sectionText(projection, 'OMITTED_HANDLES')).toContain(`events ${long[0].id}..${long[cut - 2].id}, ${omitted.tokenCount} tokens (read_events): the log`);
    // Reading the part left out recalls that item, and only it.
    const read = { kind: 'EVENTS' as const, sessionId: PREDECESSOR, fromEventId: long[0].id, toEventId: long[cut - 2].id };
    expect(recalledItems(projection.items, read)).toEqual([projection.items.indexOf(omitted)]);
  });

  it('reads only the end of a range larger than the whole budget', async () => {
    const { reader, reads } = memoryReader(long);
    const source = cite(long[0], long[58]);
    const projection = await compile(request(long, { ...noRecent, sources: [source], tokenBudget: 2000 }), reader);
    expect(reads).toHaveLength(1);
    const [boundary, ...end] = reads[0];
    expect(end.reduce((sum, event) => sum + event.tokenCount, 0)).toBeLessThanOrEqual(2000);
    expect(end.reduce((sum, event) => sum + event.tokenCount, boundary.tokenCount)).toBeGreaterThan(2000);
    expect(end[end.length - 1]).toBe(long[58]);
    expect(projection.citedItems[0].map((item) => item.status)).toEqual(['OMITTED', 'INCLUDED']);
  });

  it('covers the cited range exactly at every budget from tight to plenty', async () => {
    const source = cite(long[10], long[58]);
    const seen = new Set<string>();
    for (let tokenBudget = 500; tokenBudget <= 30_000; tokenBudget += 250) {
      const outcome = await compileProjection(request(long, { ...noRecent, sources: [source], tokenBudget }), memoryReader(long).reader);
      if (!outcome.ok) continue;
      expect(outcome.value.tokenCost).toBeLessThanOrEqual(tokenBudget);
      const statuses = coverage(outcome.value.citedItems[0], long[10], long[58], long).map(([status]) => status);
      seen.add(statuses.join(' '));
    }
    expect([...seen].sort()).toEqual(['INCLUDED', 'OMITTED', 'OMITTED INCLUDED']);
  });

  it('leaves a range of one event too large for the budget as one OMITTED item, without reading it', async () => {
    const huge = transcript(['word '.repeat(20_000), 'ok', 'Go on']);
    const { reader, reads } = memoryReader(huge);
    const projection = await compile(request(huge, { sources: [cite(huge[0], huge[0])], recentBefore: { sessionId: PREDECESSOR, seq: 1 } }), reader);
    expect(reads).toEqual([]);
    expect(projection.citedItems).toEqual([[expect.objectContaining({ status: 'OMITTED', eventId: huge[0].id, tokenCount: huge[0].tokenCount })]]);
  });

  it('splits the recent exchange too, keeping the events just before the initiating message', async () => {
    const pasted = transcript([`a paste: ${'line of log output '.repeat(600)}`, 'a short answer', 'a short note', 'Go on']);
    const projection = await compile(request(pasted, { tokenBudget: 1200 }), memoryReader(pasted).reader);
    const recent = projection.items.filter((item) => item.relevance === 'recent exchange before the initiating message');
    expect(recent.map((item) => [item.status, seqsOf(item, pasted)])).toEqual([
      ['OMITTED', [1, 1]],
      ['INCLUDED', [2, 3]],
    ]);
    expect(timesShown(projection, pasted)).toEqual([0, 1, 1, 1]);
  });
});

describe('compiled contexts, for any history, budget and cited ranges', () => {
  const history = fc.array(fc.oneof(fc.nat(60), fc.nat(60), fc.nat(3000)), { minLength: 2, maxLength: 40 });
  const scenario = history.chain((sizes) =>
    fc.record({
      sizes: fc.constant(sizes),
      budget: fc.integer({ min: 300, max: 12_000 }),
      cited: fc.array(fc.tuple(fc.integer({ min: 1, max: sizes.length }), fc.integer({ min: 1, max: sizes.length })), { maxLength: 5 }),
    }),
  );

  it('show each event at most once, keep within the budget, and cover each cited range exactly', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ sizes, budget, cited }) => {
        const events = transcript(sizes.map((size, index) => `event ${index + 1} ${'word '.repeat(size)}`));
        const sources = cited.map(([a, b]) => cite(events[Math.min(a, b) - 1], events[Math.max(a, b) - 1]));
        const outcome = await compileProjection(request(events, { sources, tokenBudget: budget }), memoryReader(events).reader);
        if (!outcome.ok) {
          expect(outcome.error.code).toBe('INVALID_INPUT');
          return;
        }
        const projection = outcome.value;
        expect(timesShown(projection, events).every((times) => times <= 1)).toBe(true);
        expect(projection.tokenCost).toBeLessThanOrEqual(budget);
        expect(projection.tokenCost).toBe(countTokens(projection.sections.map((section) => section.text).join('\n\n')));
        for (const [index, source] of sources.entries()) {
          const spans = projection.citedItems[index].map((item) => seqsOf(item, events));
          expect(spans[0][0]).toBe(source.first.seq);
          expect(spans[spans.length - 1][1]).toBe(source.last.seq);
          for (let at = 1; at < spans.length; at++) expect(spans[at][0]).toBe(spans[at - 1][1] + 1);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('find where a bounded read starts as a plain read of the range does', () => {
    fc.assert(
      fc.property(history, fc.nat(4000), fc.nat(39), fc.nat(39), (sizes, withinTokens, a, b) => {
        const events = transcript(sizes.map((size) => 'word '.repeat(size)));
        const [fromSeq, toSeq] = [Math.min(a, b) % sizes.length, Math.max(a, b) % sizes.length].map((seq) => seq + 1).sort((x, y) => x - y);
        const read = { sessionId: PREDECESSOR, fromSeq, toSeq, withinTokens };
        expect(readStart(read, (seq) => events[seq - 1])).toBe(eventsRead(events, read)[0].seq);
      }),
    );
  });
});

describe('attachments in a projection', () => {
  const events = transcript(['Here is the floor plan', 'Noted.', 'Continue with the plan']);
  const reference = { cid: 'c'.repeat(64), name: 'plan "v2".png', mediaType: 'image/png', byteSize: 2048 };
  const cited = (excerpt: string | null, cid = reference.cid) => ({
    type: 'ATTACHMENT' as const,
    item: attachmentItem('the floor plan', cid),
    reference: { ...reference, cid, mediaType: excerpt === null ? 'image/png' : 'text/plain' },
    excerpt,
  });

  it('names the initiating message\'s attachments beside it, as INCLUDED items of the runtime', async () => {
    const projection = await compile(request(events, { initiatingAttachments: [reference] }), memoryReader(events).reader);
    expect(sectionText(projection, 'INITIATING_MESSAGE')).toBe(
      `[event ${events[2].id} seq 3 USER_MESSAGE] Continue with the plan\n<attachment cid="${reference.cid}" name="plan 'v2'.png" type="image/png" bytes="2048" />`,
    );
    expect(projection.items[1]).toMatchObject({ kind: 'ATTACHMENT', status: 'INCLUDED', origin: 'RUNTIME', cid: reference.cid, hash: reference.cid });
  });

  it('carries a cited attachment as a reference, with a text one\'s content only when it fits, and leaves one out with a read_attachment handle', async () => {
    const image = await compile(request(events, { sources: [cited(null)] }), memoryReader(events).reader);
    expect(sectionText(image, 'EXCERPT')).toBe(`<attachment cid="${reference.cid}" name="plan 'v2'.png" type="image/png" bytes="2048" relevance="the floor plan" />`);
    expect(image.items.at(-1)).toMatchObject({ kind: 'ATTACHMENT', status: 'INCLUDED', tokenCount: countTokens(sectionText(image, 'EXCERPT')!) });

    const text = await compile(request(events, { sources: [cited('Kitchen faces north.')] }), memoryReader(events).reader);
    expect(sectionText(text, 'EXCERPT')).toContain('>\nKitchen faces north.\n</attachment>');

    const long = 'north '.repeat(5_000);
    const tight = await compile(request(events, { tokenBudget: 2_000, sources: [cited(long)] }), memoryReader(events).reader);
    expect(sectionText(tight, 'EXCERPT')).toMatch(/relevance="the floor plan" \/>$/);

    // No recent exchange: room for the two handles (the handoff's and this one's), not for the reference.
    const bare = { recentBefore: { sessionId: PREDECESSOR, seq: 1 }, sources: [cited(null)] };
    const withoutRoom = await compileProjection(request(events, { ...bare, tokenBudget: 64 }), memoryReader(events).reader);
    const minimum = Number(/below the (\d+) tokens/.exec(withoutRoom.ok ? '' : withoutRoom.error.message)![1]);
    const handle = `- attachment cid ${reference.cid} (read_attachment): the floor plan`;
    const room = countTokens('- the handoff: read_manifest manifest') + countTokens(handle) + 2;
    const omitted = await compile(request(events, { ...bare, tokenBudget: minimum + room }), memoryReader(events).reader);
    expect(omitted.items.at(-1)).toMatchObject({ kind: 'ATTACHMENT', status: 'OMITTED' });
    expect(sectionText(omitted, 'OMITTED_HANDLES')).toBe(`- the handoff: read_manifest manifest\n${handle}`);
  });
});

