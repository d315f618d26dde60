import { eventTokenCount } from '../../modules/conversation/transcript';
import { countTokens } from '../../shared/tokens';
import type { CompiledSection } from '../../modules/continuation/projection/model';
import { PENDING_RESULT, projectedMessages, transcriptMessages } from '../model-context';
import { messageTokens, messagesTokens } from '../turn/context-budget';

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

  it("takes the instructions' count from the sections' stored counts when they are kept, and counts nothing else", () => {
    const texts = [
      'You are continuing work that began in an earlier session.',
      'Purpose: move the receipts.\nCurrent request: plan it.',
      '[event 7 seq 3 USER_MESSAGE] And the backup loop?',
    ];
    const sections: CompiledSection[] = [
      { kind: 'SYSTEM', text: texts[0], tokenCount: countTokens(texts[0]) },
      { kind: 'INITIATING_MESSAGE', text: 'the request', tokenCount: 2 },
      { kind: 'HANDOFF', text: texts[1], tokenCount: countTokens(texts[1]) },
      { kind: 'RECENT_EXCHANGE', text: texts[2], tokenCount: countTokens(texts[2]) },
    ];
    const [kept, request] = projectedMessages(sections, [], new Map(), true);
    expect(kept.contentTokens).toBe(countTokens(kept.content!));
    expect(request.contentTokens).toBeUndefined();
    // Taken, not counted again: a stored count that differs from the text's shows through.
    const [taken] = projectedMessages([{ ...sections[0], tokenCount: sections[0].tokenCount + 5 }, ...sections.slice(1)], [], new Map(), true);
    expect(taken.contentTokens).toBe(kept.contentTokens! + 5);
    // An erased manifest's texts are gone while its counts stay: nothing is taken.
    expect(projectedMessages(sections)[0].contentTokens).toBeUndefined();
  });
});

describe("a turn's count of the history it loads", () => {
  const stored = (seq: number, kind: string, text: string | null, extra: { data?: unknown; toolCallId?: string; erasedAt?: Date } = {}) => ({
    ...event(seq, kind, text, extra),
    tokenCount: eventTokenCount(text, extra.data ?? null),
    erasedAt: extra.erasedAt ?? null,
  });
  const transcript = [
    stored(1, 'USER_MESSAGE', 'Where does the gnuharbor coolant loop run, and at what pressure?'),
    stored(2, 'ASSISTANT_MESSAGE', "It runs through Building Zeta at 40 bar; the 2024 review kept it there.\n\nAnything else?"),
    stored(3, 'SYSTEM', 'Transition card', { data: { role: 'transition_card', edgeId: '01a24999-1d67-726d-ab5b-bbc65282483d' } }),
    stored(4, 'TOOL_CALL', null, { toolCallId: 'a', data: { name: 'read_events', arguments: '{"fromSeq":1,"toSeq":2}' } }),
    stored(5, 'TOOL_RESULT', '[1] user: Where does ...', { toolCallId: 'a' }),
    stored(6, 'TOOL_RESULT', 'moved result', { toolCallId: 'elsewhere' }),
    { ...stored(7, 'USER_MESSAGE', null, { erasedAt: new Date() }), tokenCount: 37 },
    stored(8, 'USER_MESSAGE', 'And the backup loop?'),
  ];

  it('is what the tokenizer counts in the messages the model is given', () => {
    const messages = transcriptMessages(transcript);
    const counted = messagesTokens(messages.map(({ contentTokens: _known, ...message }) => message));
    expect(messagesTokens(messages)).toBe(counted);
  });

  it("takes each plain message's count from its event rather than counting its text again", () => {
    const [question] = transcriptMessages([{ ...stored(1, 'USER_MESSAGE', 'Where does the loop run?'), tokenCount: 1_000 }]);
    const { contentTokens: _known, ...unknown } = question;
    expect(messageTokens(question)).toBe(messageTokens(unknown) - countTokens('Where does the loop run?') + 1_000);
  });
});
