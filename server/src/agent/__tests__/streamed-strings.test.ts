import { StreamedStrings } from '../turn/streamed-strings';

const PURPOSE = ['handoff', 'purpose'];
const REQUEST = ['handoff', 'currentRequest'];

/** `text` in pieces of `size` characters, as a model streams a tool call's arguments. */
function pieces(text: string, size: number): string[] {
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
}

describe('the string values of a streamed JSON object', () => {
  const draft = {
    reason: 'context_pressure',
    title: 'Quay survey, "phase two"',
    sources: [{ kind: 'session_events', handoff: { purpose: 'not this one' } }],
    handoff: { purpose: 'Repair the quay wall \\ before spring', currentRequest: 'Which berths first?\nList them.', establishedFacts: ['a', 'b'] },
    assist: true,
  };
  const text = JSON.stringify(draft);

  it('are whole as soon as their closing quote arrives, before the rest of the object', () => {
    const streamed = new StreamedStrings([PURPOSE, REQUEST]);
    const requestEnds = text.indexOf('"', text.indexOf('Which berths')) + 1;
    let wholeAt = -1;
    let read = 0;
    for (const piece of pieces(text, 3)) {
      read += piece.length;
      if (streamed.push(piece) && wholeAt < 0) wholeAt = read;
    }
    expect(streamed.value(PURPOSE)).toBe(draft.handoff.purpose);
    expect(streamed.value(REQUEST)).toBe(draft.handoff.currentRequest);
    expect(wholeAt).toBeGreaterThanOrEqual(requestEnds);
    expect(wholeAt).toBeLessThan(requestEnds + 3);
  });

  it('are read whatever the pieces, escapes included, and not from inside arrays', () => {
    for (const size of [1, 2, 7, text.length]) {
      const streamed = new StreamedStrings([PURPOSE, REQUEST]);
      pieces(text, size).forEach((piece) => streamed.push(piece));
      expect([streamed.value(PURPOSE), streamed.value(REQUEST)]).toEqual([draft.handoff.purpose, draft.handoff.currentRequest]);
    }
  });

  it('stay unknown while cut off or when not strings', () => {
    const cut = new StreamedStrings([PURPOSE, REQUEST]);
    expect(cut.push(text.slice(0, text.indexOf('Which berths')))).toBe(false);
    expect(cut.value(PURPOSE)).toBe(draft.handoff.purpose);
    expect(cut.value(REQUEST)).toBeUndefined();
    const numbers = new StreamedStrings([PURPOSE]);
    expect(numbers.push('{"handoff": {"purpose": 12, "currentRequest": "x"}}')).toBe(false);
  });
});
