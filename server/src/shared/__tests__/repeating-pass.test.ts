import { RepeatingPass } from '../repeating-pass';

// The clock is the test's: on a loaded machine a pass due "at once" can wait longer than any real
// pause a test could afford. On this clock "at once" is a millisecond later.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const advance = (ms: number) => jest.advanceTimersByTimeAsync(ms);

describe('a repeating pass of background work', () => {
  it('runs at once, again at once while its batch comes back full, then waits its period; stopped, it runs no more', async () => {
    const full = [true, true, false, false];
    let passes = 0;
    const repeating = new RepeatingPass(async () => full[passes++] ?? false, 60_000, () => undefined);
    repeating.start();
    await advance(10);
    expect(passes).toBe(3);
    await advance(59_000);
    expect(passes).toBe(3);
    await advance(2_000);
    expect(passes).toBe(4);
    await repeating.stop();
    await advance(120_000);
    expect(passes).toBe(4);
  });

  it('reports a failed pass and tries again after its period', async () => {
    const failures: unknown[] = [];
    let passes = 0;
    const repeating = new RepeatingPass(
      async () => {
        passes += 1;
        throw new Error(`pass ${passes}`);
      },
      30,
      (error) => failures.push(error),
    );
    repeating.start();
    await advance(10);
    expect(passes).toBe(1);
    await advance(25);
    await repeating.stop();
    expect(failures.map((error) => (error as Error).message)).toEqual(['pass 1', 'pass 2']);
  });
});
