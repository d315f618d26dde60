import { RepeatingPass } from '../repeating-pass';

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a repeating pass of background work', () => {
  it('runs at once, again at once while its batch comes back full, then waits its period; stopped, it runs no more', async () => {
    const full = [true, true, false, false];
    let passes = 0;
    const repeating = new RepeatingPass(async () => full[passes++] ?? false, 60_000, () => undefined);
    repeating.start();
    await settle(100);
    expect(passes).toBe(3);
    await repeating.stop();
    await settle(50);
    expect(passes).toBe(3);
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
    await settle(100);
    await repeating.stop();
    expect(passes).toBeGreaterThanOrEqual(2);
    expect((failures[0] as Error).message).toBe('pass 1');
  });
});
