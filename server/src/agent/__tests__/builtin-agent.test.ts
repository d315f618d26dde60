import { TurnFacts } from '../agent';
import { BuiltinAgent, continuationDecision, continueArguments, contentWords, isTopicShift } from '../providers/builtin-agent';

function facts(text: string, overrides: Partial<TurnFacts> = {}): TurnFacts {
  return {
    sessionId: 'session-1',
    sessionTitle: 'Kitchen remodel',
    sessionKind: 'ROOT',
    userMessage: { id: 'event-9', seq: 9, text, replayed: false, attachmentNames: [] },
    earlierUserMessages: [],
    citableRange: { fromEventId: 'event-1', toEventId: 'event-8' },
    contextUsage: { tokens: 100, windowTokens: 1_000, threshold: 0.8 },
    openPlan: null,
    pendingRunIds: [],
    delegatedTask: null,
    ...overrides,
  };
}

describe('the built-in agent decides to continue', () => {
  it('on /continue, with the title given or one derived from the session', () => {
    expect(continuationDecision(facts('/continue Cabinet orders'))).toEqual({ reason: 'USER_REQUEST', title: 'Cabinet orders' });
    expect(continuationDecision(facts('/continue'))).toEqual({ reason: 'USER_REQUEST', title: 'Kitchen remodel (continued)' });
    expect(continuationDecision(facts('Could we continue in a new session?'))).toEqual({ reason: 'USER_REQUEST', title: 'Kitchen remodel (continued)' });
  });

  it('on /phase, named after the phase', () => {
    expect(continuationDecision(facts('/phase Demolition'))).toEqual({ reason: 'PHASE_CHANGE', title: 'Demolition' });
  });

  it('when the context at the start of the turn is past its threshold', () => {
    expect(continuationDecision(facts('next', { contextUsage: { tokens: 799, windowTokens: 1_000, threshold: 0.8 } }))).toBeNull();
    expect(continuationDecision(facts('next', { contextUsage: { tokens: 800, windowTokens: 1_000, threshold: 0.8 } }))).toEqual({
      reason: 'CONTEXT_PRESSURE',
      title: 'Kitchen remodel (continued)',
    });
  });

  it('never on a replayed message: a successor answers what it was opened with', async () => {
    const reply = await new BuiltinAgent().complete({
      messages: [{ role: 'user', content: '/continue Cabinet orders' }],
      tools: [],
      facts: facts('/continue Cabinet orders', { userMessage: { id: 'e2', seq: 2, text: '/continue Cabinet orders', replayed: true, attachmentNames: [] } }),
    });
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toContain('a new session');
  });
});

describe('the built-in agent answers', () => {
  it('acknowledging the attachments of the message by name', async () => {
    const attached = facts('Here are the plans', { userMessage: { id: 'e3', seq: 3, text: 'Here are the plans', replayed: false, attachmentNames: ['floor.png', 'notes.txt'] } });
    const reply = await new BuiltinAgent().complete({ messages: [{ role: 'user', content: 'Here are the plans' }], tools: [], facts: attached });
    expect(reply.text).toBe('Noted: "Here are the plans". Attached: floor.png, notes.txt.');
  });
});

describe('the built-in agent with a message over 20,000 characters', () => {
  const long = `/continue Cabinet orders\n${'Measure twice. '.repeat(2_000)}`;

  it('writes a handoff whose fields fit: the request cut at 20,000 characters', () => {
    const { handoff } = continueArguments(facts(long, { earlierUserMessages: [`We decided ${'x'.repeat(25_000)}.`] }), { reason: 'USER_REQUEST', title: 'Cabinet orders' }) as {
      handoff: { currentRequest: string; decisions: string[] };
    };
    expect(long.length).toBeGreaterThan(20_000);
    expect(handoff.currentRequest).toHaveLength(20_000);
    expect(handoff.currentRequest.startsWith('/continue Cabinet orders\nMeasure twice.')).toBe(true);
    expect(handoff.currentRequest.endsWith('…')).toBe(true);
    expect(handoff.decisions.every((decision) => decision.length <= 20_000)).toBe(true);
  });

  it('answers a refused continuation in words, never with the tool result\'s JSON', async () => {
    const reply = await new BuiltinAgent(0).complete({
      messages: [
        { role: 'user', content: long },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'continue_session', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call-1', content: JSON.stringify({ error: 'RATE_LIMITED: Too many continuations of this session in a minute.' }) },
      ],
      tools: [],
      facts: facts(long),
    });
    expect(reply.text).toBe('I could not continue in a new session, so I answer here. The server said: Too many continuations of this session in a minute.');
    expect(reply.text).not.toMatch(/[{}"]/);
  });
});

describe('the topic-shift measure', () => {
  const earlier = ['The cabinets arrive on Monday.', 'Paint the cabinets white.', 'Order brass handles for the cabinets.'];

  it('counts content words: four letters or more, no stop words, plurals folded', () => {
    expect([...contentWords('Order the brass handles, then order more handle screws!')]).toEqual(['order', 'brass', 'handle', 'screw']);
  });

  it('is a shift only when a message of five or more content words shares none with at least three earlier ones', () => {
    expect(isTopicShift(earlier, 'Compare mortgage interest rates between banks quarterly.')).toBe(true);
    expect(isTopicShift(earlier, 'Compare mortgage interest rates between cabinets quarterly.')).toBe(false);
    expect(isTopicShift(earlier.slice(0, 2), 'Compare mortgage interest rates between banks quarterly.')).toBe(false);
    expect(isTopicShift(earlier, 'Mortgage rates now?')).toBe(false);
  });
});

describe('the handoff the built-in agent writes', () => {
  it('carries the request verbatim, recent decisions and questions, the open plan and pending runs, and cites the conversation', () => {
    const args = continueArguments(
      facts('/phase Demolition', {
        earlierUserMessages: ['We will keep the old floor. Is the wall load-bearing?', "Let's start on Monday."],
        openPlan: { revision: 3, steps: [{ title: 'Remove cabinets', status: 'DONE' }, { title: 'Open the wall', status: 'PENDING' }] },
        pendingRunIds: ['run-7'],
      }),
      { reason: 'PHASE_CHANGE', title: 'Demolition' },
    );
    expect(args).toMatchObject({
      reason: 'phase_change',
      title: 'Demolition',
      handoff: {
        currentRequest: '/phase Demolition',
        decisions: ['We will keep the old floor.', "Let's start on Monday."],
        openQuestions: ['Is the wall load-bearing?'],
        nextActions: ['Open the wall'],
      },
      sources: [{ kind: 'session_events', sessionId: 'session-1', fromEventId: 'event-1', toEventId: 'event-8' }],
      transfer: { plan: 'carry', pendingRuns: ['run-7'] },
    });
  });
});

describe('the reference agent answering', () => {
  it('streams its answer in groups of words that join to the whole answer, and /echo answers with the text as written', async () => {
    const text = '/echo | a | b |\n| --- | --- |\n| 1 | 2 |\n\n```js\nconst x = 1;\n```';
    const deltas: string[] = [];
    const reply = await new BuiltinAgent(0).complete({
      messages: [{ role: 'user', content: text }],
      tools: [],
      facts: facts(text),
      onTextDelta: (delta) => deltas.push(delta),
    });
    expect(reply.text).toBe(text.slice('/echo '.length));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(reply.text);
  });

  it('stops streaming when the turn is aborted', async () => {
    const abort = new AbortController();
    const deltas: string[] = [];
    const answered = new BuiltinAgent(20).complete({
      messages: [{ role: 'user', content: '/echo one two three four five six seven eight nine' }],
      tools: [],
      facts: facts('/echo one two three four five six seven eight nine'),
      signal: abort.signal,
      onTextDelta: (delta) => {
        deltas.push(delta);
        abort.abort();
      },
    });
    await expect(answered).rejects.toThrow();
    expect(deltas).toEqual(['one two three ']);
  });
});
