import { ContinuationReason } from '../continuations';
import { ContinuationDraft, ProposalStatus, approvedRequest, effectiveStatus, expiresAt, proposalIdempotencyKey } from '../proposals';

const draft: ContinuationDraft = {
  reason: ContinuationReason.USER_REQUEST,
  title: 'Next phase',
  description: null,
  handoff: { purpose: 'Plan it', currentRequest: '/continue Next phase', decisions: ['Use PostgreSQL'] },
  sources: [{ kind: 'SESSION_EVENT', relevance: 'the request', sessionId: 's', eventId: 'e' }],
  transfer: { plan: 'CARRY' },
  initiatingEventId: 'e',
  tokenBudget: null,
  assist: false,
};

describe('proposals', () => {
  it("lays a person's edits over the agent's draft, keeping what they left alone", () => {
    const request = approvedRequest('s', 'p', draft, { title: 'Phase two', tokenBudget: 4000 });
    expect(request).toEqual({
      sessionId: 's',
      idempotencyKey: proposalIdempotencyKey('p'),
      reason: 'USER_REQUEST',
      title: 'Phase two',
      description: null,
      handoff: draft.handoff,
      sources: draft.sources,
      transfer: { plan: 'CARRY' },
      initiatingEventId: 'e',
      tokenBudget: 4000,
      assist: false,
    });
    expect(approvedRequest('s', 'p', draft, { handoff: { purpose: 'Other', currentRequest: 'Now' }, sources: [] })).toMatchObject({
      title: 'Next phase',
      handoff: { purpose: 'Other', currentRequest: 'Now' },
      sources: [],
    });
  });

  it('counts a pending proposal past its time as expired, and a decided one as decided', () => {
    const created = new Date('2026-03-01T10:00:00.000Z');
    const proposal = { status: ProposalStatus.PENDING, expiresAt: expiresAt(created, 60_000) };
    expect(effectiveStatus(proposal, new Date('2026-03-01T10:00:59.999Z'))).toBe('PENDING');
    expect(effectiveStatus(proposal, new Date('2026-03-01T10:01:00.000Z'))).toBe('EXPIRED');
    expect(effectiveStatus({ ...proposal, status: ProposalStatus.REJECTED }, new Date('2026-03-02T00:00:00.000Z'))).toBe('REJECTED');
  });
});
