import { RunOutputStream } from '../run-output';

/** A store whose writes finish only when released, one at a time, as a slow database's would. */
function heldStore() {
  const writes: { offset: number; text: string }[] = [];
  const pending: (() => void)[] = [];
  return {
    writes,
    write: (offset: number, text: string) =>
      new Promise<void>((resolve) => {
        writes.push({ offset, text });
        pending.push(resolve);
      }),
    async releaseNext() {
      pending.shift()!();
      // The stream starts its next write once the released one has settled.
      for (let tick = 0; tick < 5; tick++) await Promise.resolve();
    },
  };
}

describe("a run's output stream", () => {
  it('writes what was produced during a slow write in one write after it, never two at once', async () => {
    const store = heldStore();
    const stream = new RunOutputStream(store.write, { batchMs: 60_000, maxBatchChars: 5 });
    stream.append('hello');
    for (const delta of [' wor', 'ld, and', ' more', ' still']) stream.append(delta);
    expect(store.writes).toEqual([{ offset: 0, text: 'hello' }]);

    await store.releaseNext();
    expect(store.writes).toEqual([
      { offset: 0, text: 'hello' },
      { offset: 5, text: ' world, and more still' },
    ]);
    const finished = stream.finish();
    await store.releaseNext();
    expect(await finished).toBe('hello world, and more still');
    expect(store.writes.map(({ text }) => text).join('')).toBe('hello world, and more still');
  });

  it('waits for a batch to be due after a quick write, instead of sending what it holds at once', async () => {
    jest.useFakeTimers();
    try {
      const store = heldStore();
      const stream = new RunOutputStream(store.write, { batchMs: 40, maxBatchChars: 1_000 });
      stream.append('one');
      jest.advanceTimersByTime(40);
      stream.append(' two');
      await store.releaseNext();
      expect(store.writes).toEqual([{ offset: 0, text: 'one' }]);

      stream.append(' three');
      jest.advanceTimersByTime(39);
      expect(store.writes).toHaveLength(1);
      jest.advanceTimersByTime(1);
      expect(store.writes[1]).toEqual({ offset: 3, text: ' two three' });
      await store.releaseNext();
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps the halves of a surrogate pair in one batch', async () => {
    const store = heldStore();
    const stream = new RunOutputStream(store.write, { batchMs: 60_000, maxBatchChars: 3 });
    stream.append('ab\ud83d');
    expect(store.writes).toEqual([{ offset: 0, text: 'ab' }]);
    stream.append('\ude80c');
    await store.releaseNext();
    expect(store.writes[1]).toEqual({ offset: 2, text: '\ud83d\ude80c' });
    const finished = stream.finish();
    await store.releaseNext();
    expect(await finished).toBe('ab\ud83d\ude80c');
  });
});
