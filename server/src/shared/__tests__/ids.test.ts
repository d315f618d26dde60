import { isId, newRowId } from '../ids';

describe('newRowId', () => {
  it('makes UUIDs that sort, byte by byte as PostgreSQL orders uuid, in the order they were made', () => {
    const ids = Array.from({ length: 10_000 }, () => newRowId());
    expect(ids.every(isId)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (let index = 1; index < ids.length; index++) expect(ids[index] > ids[index - 1]).toBe(true);
  });

  it('leads with the time it was made, so that a later row never sorts before an earlier one', async () => {
    const before = newRowId();
    await new Promise((resolve) => setTimeout(resolve, 2));
    const after = newRowId();
    const millisecondsOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(millisecondsOf(after)).toBeGreaterThan(millisecondsOf(before));
    expect(Math.abs(millisecondsOf(after) - Date.now())).toBeLessThan(1_000);
  });
});
