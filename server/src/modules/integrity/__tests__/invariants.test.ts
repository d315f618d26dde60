import { StoredEdge, edgeViolations } from '../invariants';

describe('a continuation edge as the verifier checks it', () => {
  const cid = 'a'.repeat(64);
  const edge: StoredEdge = {
    id: 'edge',
    predecessorId: 'predecessor',
    successorId: 'successor',
    initiatingEventId: 'initiating',
    manifest: { id: 'manifest', predecessorId: 'predecessor', successorId: 'successor', initiatingEventId: 'initiating' },
    transitionCardId: 'card',
    banner: { id: 'banner', kind: 'CONTINUATION', data: { role: 'banner', edgeId: 'edge' } },
    opening: { id: 'opening', kind: 'USER_MESSAGE', text: 'look at this', replayOfId: 'initiating', attachmentCids: [cid] },
    initiatingText: 'look at this',
    initiatingAttachmentCids: [cid],
  };

  it('takes the replayed message only with the same attachments, in the same order', () => {
    expect(edgeViolations(edge)).toEqual([]);
    for (const attachmentCids of [[], [cid, 'b'.repeat(64)], ['b'.repeat(64)]]) {
      const violations = edgeViolations({ ...edge, opening: { ...edge.opening!, attachmentCids } });
      expect(violations.map((violation) => [violation.code, violation.ids.eventId])).toEqual([['EDGE_WITHOUT_INITIATING_MESSAGE', 'opening']]);
    }
    expect(edgeViolations({ ...edge, opening: { ...edge.opening!, attachmentCids: [] }, initiatingAttachmentCids: [] })).toEqual([]);
  });
});
