import { isPublicAddress } from '../destination';
import { DEFAULT_RETRY_SCHEDULE_MS, parseRetrySchedule, retryDelayMs, validateEndpoint, webhookBody } from '../webhooks';

describe('webhook rules', () => {
  it('waits as the schedule says, give or take a fifth, and gives up when it is spent', () => {
    expect(retryDelayMs([200, 500, 1000], 1, () => 0.5)).toBe(200);
    expect(retryDelayMs([200, 500, 1000], 2, () => 0)).toBe(400);
    expect(retryDelayMs([200, 500, 1000], 3, () => 1)).toBe(1200);
    expect(retryDelayMs([200, 500, 1000], 4)).toBeNull();
    const day = DEFAULT_RETRY_SCHEDULE_MS.reduce((sum, wait) => sum + wait, 0);
    expect(day).toBeGreaterThan(20 * 3_600_000);
    expect(day).toBeLessThan(30 * 3_600_000);
  });

  it('reads WEBHOOK_RETRY_SCHEDULE_MS', () => {
    expect(parseRetrySchedule('200, 500,1000')).toEqual([200, 500, 1000]);
    for (const bad of ['', 'soon', '1,-2', '1.5']) expect(parseRetrySchedule(bad)).toBeNull();
  });

  it('lets webhooks reach public unicast addresses only', () => {
    for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '8.8.8.8']) expect([address, isPublicAddress(address)]).toEqual([address, true]);
    for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.100.100.200', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:10.0.0.1', '224.0.0.1', 'nonsense']) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
  });

  it('wants https and an event type', () => {
    expect(validateEndpoint({ url: 'https://example.com/hooks', events: ['MESSAGE_POSTED'] }, false)).toEqual([]);
    expect(validateEndpoint({ url: 'http://example.com/hooks', events: ['MESSAGE_POSTED'] }, true)).toEqual([]);
    expect(validateEndpoint({ url: 'http://example.com/hooks', events: [] }, false).map((detail) => detail.path.join('.'))).toEqual(['input.url', 'input.events']);
    expect(validateEndpoint({ url: 'https://user:pw@example.com/', events: ['RUN_FAILED'] }, false)).toHaveLength(1);
  });

  it('writes the body as type, timestamp and data', () => {
    const body = webhookBody({ accountId: 'a', type: 'RUN_FAILED', occurredAt: new Date('2026-01-02T03:04:05.678Z'), data: { runId: 'r' } });
    expect(body).toBe('{"type":"run.failed","timestamp":"2026-01-02T03:04:05.678Z","data":{"runId":"r"}}');
  });
});
