import { PENDING_RESULT, projectedMessages, transcriptMessages } from '../model-context';

const event = (seq: number, kind: string, text: string | null, extra: { data?: unknown; toolCallId?: string } = {}) => ({
  seq,
  kind,
  text,
  data: extra.data ?? null,
  toolCallId: extra.toolCallId ?? null,
});

describe('a transcript as chat messages', () => {
  it('maps messages, puts each result right after its call, and marks a call still waiting', () => {
    const messages = transcriptMessages([
      event(1, 'USER_MESSAGE', 'count the crates'),
      event(2, 'TOOL_CALL', null, { toolCallId: 'a', data: { name: 'read_events', arguments: '{}' } }),
      event(3, 'TOOL_CALL', null, { toolCallId: 'b', data: { name: 'delegate', arguments: '{"task":"count"}' } }),
      event(4, 'TOOL_RESULT', 'events...', { toolCallId: 'a' }),
      event(5, 'ASSISTANT_MESSAGE', 'counting'),
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'count the crates' },
      {
        role: 'assistant',
        content: null,
        toolCalls: [
          { id: 'a', name: 'read_events', arguments: '{}' },
          { id: 'b', name: 'delegate', arguments: '{"task":"count"}' },
        ],
      },
      { role: 'tool', toolCallId: 'a', content: 'events...' },
      { role: 'tool', toolCallId: 'b', content: PENDING_RESULT },
      { role: 'assistant', content: 'counting' },
    ]);
  });

  it('turns a result whose call lives in a predecessor into a note, and leaves continuation events out', () => {
    expect(
      transcriptMessages([
        event(1, 'CONTINUATION', 'Continued from "x"'),
        event(2, 'USER_MESSAGE', 'go on'),
        event(3, 'TOOL_RESULT', '42 crates', { toolCallId: 'moved' }),
      ]),
    ).toEqual([
      { role: 'user', content: 'go on' },
      { role: 'user', content: '[Result of delegated work, tool call moved]\n42 crates' },
    ]);
  });

  it("gives a successor its compiled context: the sections as instructions, the initiating message as the user's turn", () => {
    expect(
      projectedMessages([
        { kind: 'SYSTEM', text: 'system', tokenCount: 1 },
        { kind: 'INITIATING_MESSAGE', text: 'the request', tokenCount: 2 },
        { kind: 'HANDOFF', text: 'handoff', tokenCount: 1 },
      ]),
    ).toEqual([
      { role: 'system', content: 'system\n\nhandoff' },
      { role: 'user', content: 'the request' },
    ]);
  });
});
