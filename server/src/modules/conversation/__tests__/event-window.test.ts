import { eventCursor, eventWindow } from '../event-window';

function window(args: Parameters<typeof eventWindow>[0], eventCount: number) {
  const outcome = eventWindow(args, eventCount);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.value;
}

describe('eventWindow', () => {
  it('defaults to the first 50 events', () => {
    expect(window({}, 120)).toEqual({ fromSeq: 1, toSeq: 50, hasPreviousPage: false, hasNextPage: true, totalCount: 120 });
  });

  it('pages forward after a cursor and backward before one', () => {
    expect(window({ first: 10, after: eventCursor(95) }, 100)).toMatchObject({ fromSeq: 96, toSeq: 100, hasNextPage: false, hasPreviousPage: true });
    expect(window({ last: 10, before: eventCursor(5) }, 100)).toMatchObject({ fromSeq: 1, toSeq: 4, hasPreviousPage: false, hasNextPage: true });
  });

  it('bounds pages to fromSeq/toSeq and counts only that range', () => {
    expect(window({ fromSeq: 10, toSeq: 20, last: 3 }, 100)).toEqual({
      fromSeq: 18,
      toSeq: 20,
      hasPreviousPage: true,
      hasNextPage: false,
      totalCount: 11,
    });
  });

  it('gives an empty page for an empty transcript or a range past its end', () => {
    expect(window({}, 0)).toMatchObject({ totalCount: 0, hasNextPage: false });
    const past = window({ fromSeq: 50 }, 10);
    expect(past.toSeq).toBeLessThan(past.fromSeq);
    expect(past.totalCount).toBe(0);
  });

  it.each([
    [{ first: 101 }, 'first'],
    [{ last: -1 }, 'last'],
    [{ first: 1, last: 1 }, 'last'],
    [{ fromSeq: 0 }, 'fromSeq'],
    [{ after: 'not-a-cursor' }, 'after'],
  ])('refuses %j with INVALID_INPUT naming %s', (args, path) => {
    const outcome = eventWindow(args, 10);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', details: [{ path: [path] }] } });
  });
});
