import { continuationsInLastMinute, rateWindowStart } from '../rate-window';

const minute = (index: number) => new Date(Date.UTC(2026, 11, 4, 20, index));
const at = (index: number, seconds: number) => new Date(minute(index).getTime() + seconds * 1000);

describe("an account's continuation rate window", () => {
  it('starts a window at each whole minute', () => {
    expect(rateWindowStart(at(7, 59.999))).toEqual(minute(7));
    expect(rateWindowStart(minute(8))).toEqual(minute(8));
  });

  it('counts nothing for an account that never continued, or not in the last two windows', () => {
    expect(continuationsInLastMinute(null, at(3, 10))).toBe(0);
    expect(continuationsInLastMinute({ windowStart: minute(1), currentCount: 600, previousCount: 600 }, at(3, 10))).toBe(0);
  });

  it('counts the whole current window, and of the previous one the share still within the last minute', () => {
    const window = { windowStart: minute(5), currentCount: 30, previousCount: 100 };
    expect(continuationsInLastMinute(window, at(5, 0))).toBe(130);
    expect(continuationsInLastMinute(window, at(5, 15))).toBe(30 + 75);
    expect(continuationsInLastMinute(window, at(5, 59))).toBe(30 + 2);
  });

  it('moves a finished window to previous when the next minute starts', () => {
    const window = { windowStart: minute(5), currentCount: 40, previousCount: 100 };
    expect(continuationsInLastMinute(window, at(6, 30))).toBe(20);
    expect(continuationsInLastMinute(window, at(6, 59.9))).toBe(1);
  });

  it('rounds up, so that a burst just before a window ends still counts in full as the next starts', () => {
    const burst = { windowStart: minute(5), currentCount: 600, previousCount: 0 };
    expect(continuationsInLastMinute(burst, new Date(minute(6).getTime() + 1))).toBe(600);
  });

  it("counts a window ahead of this process's clock as the current one", () => {
    const ahead = { windowStart: minute(6), currentCount: 12, previousCount: 3 };
    expect(continuationsInLastMinute(ahead, new Date(minute(6).getTime() - 20))).toBe(15);
  });
});
