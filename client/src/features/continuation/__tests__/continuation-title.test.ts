import { describe, expect, it } from '@jest/globals';
import { nextPartTitle } from '../continuation-title';

describe("a successor's suggested title", () => {
  it('is the next part of the session, never its own title again', () => {
    expect(nextPartTitle('Next phase')).toBe('Next phase, part 2');
    expect(nextPartTitle('Next phase, part 2')).toBe('Next phase, part 3');
    expect(nextPartTitle('Next phase, part 9 ')).toBe('Next phase, part 10');
  });

  it('stays within the 200 characters a title takes', () => {
    const title = nextPartTitle('x'.repeat(200));
    expect(title).toHaveLength(200);
    expect(title.endsWith('…, part 2')).toBe(true);
  });
});
