import { createHash } from 'node:crypto';
import { eventHash, eventTokenCount, MESSAGE_MAX_CHARS, validateUserMessage } from '../transcript';

const content = {
  sessionId: '00000000-0000-4000-8000-000000000001',
  seq: 3,
  kind: 'TOOL_CALL' as const,
  text: null,
  data: { name: 'read_events', arguments: { to: 9, from: 2 } },
  toolCallId: 'call-1',
  replayOfId: null,
  createdAt: new Date('2026-11-30T10:54:00.123Z'),
};

describe('event hashes', () => {
  it('is sha256 over the documented canonical array, chained to the previous hash', () => {
    const encoded =
      '["prev","00000000-0000-4000-8000-000000000001",3,"TOOL_CALL",null,' +
      '{"arguments":{"from":2,"to":9},"name":"read_events"},"call-1",null,"2026-11-30T10:54:00.123Z"]';
    expect(eventHash('prev', content)).toBe(createHash('sha256').update(encoded).digest('hex'));
  });

  it('changes when any covered field or the previous hash changes', () => {
    const base = eventHash('prev', content);
    expect(eventHash('other', content)).not.toBe(base);
    expect(eventHash('prev', { ...content, seq: 4 })).not.toBe(base);
    expect(eventHash('prev', { ...content, data: { name: 'read_events', arguments: { to: 9, from: 3 } } })).not.toBe(base);
  });
});

describe('user message validation', () => {
  it('accepts a message at the size limit and refuses one over it', () => {
    expect(validateUserMessage({ text: 'a'.repeat(MESSAGE_MAX_CHARS) }, ['input'])).toEqual([]);
    expect(validateUserMessage({ text: 'a'.repeat(MESSAGE_MAX_CHARS + 1) }, ['input'])[0].path).toEqual(['input', 'text']);
  });

  it('refuses an empty clientMessageId', () => {
    expect(validateUserMessage({ text: 'hi', clientMessageId: '' }, ['input'])[0].path).toEqual(['input', 'clientMessageId']);
  });
});

describe('event token counts', () => {
  it('counts the text and the canonical payload', () => {
    expect(eventTokenCount('hello world', null)).toBe(2);
    expect(eventTokenCount(null, { a: 1 })).toBeGreaterThan(0);
    expect(eventTokenCount('', null)).toBe(0);
  });
});
