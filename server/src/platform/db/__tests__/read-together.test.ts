import { EntityManager } from 'typeorm';
import { readTogether } from '../read-together';

/** Reads that note how many of them were running at once, each answering its index after a tick. */
function countedReads(count: number) {
  let running = 0;
  let most = 0;
  const reads = Array.from({ length: count }, (_, index) => async () => {
    running += 1;
    most = Math.max(most, running);
    await new Promise((resolve) => setImmediate(resolve));
    running -= 1;
    return index;
  });
  return { reads, most: () => most };
}

describe('readTogether', () => {
  it('runs the reads at once on a manager whose queries each draw a pooled connection', async () => {
    const { reads, most } = countedReads(3);
    await expect(readTogether({} as EntityManager, reads)).resolves.toEqual([0, 1, 2]);
    expect(most()).toBe(3);
  });

  it("runs them one after another, in order, on a transaction's manager, whose one connection must not queue queries", async () => {
    const { reads, most } = countedReads(3);
    await expect(readTogether({ queryRunner: {} } as unknown as EntityManager, reads)).resolves.toEqual([0, 1, 2]);
    expect(most()).toBe(1);
  });
});
