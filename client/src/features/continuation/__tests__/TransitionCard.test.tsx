import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { formatTime } from '../../../app/format';
import { event, lineageShape, renderSessionPage, sessionShape, transcriptMock } from '../../../test/session-page-harness';

const CARD_TIME = '2026-03-01T10:54:00.000Z';

function transitionCardEvent(seq: number, data: Record<string, unknown>) {
  return event(seq, 'Continued in "Implementation plan"', { kind: 'CONTINUATION', data, createdAt: CARD_TIME });
}

const cardData = {
  role: 'transition_card',
  edgeId: 'edge-7',
  manifestId: 'manifest-7',
  successorId: 'session-2',
  successorTitle: 'Implementation plan',
  reason: 'TOPIC_CHANGE',
  actor: 'AGENT',
  carried: 'the current request, 2 decisions and 1 source',
  includedSources: 1,
  omittedSources: 1,
};

const continuedLineage = lineageShape(
  { currentContinuation: { __typename: 'Session', id: 'session-2', title: 'Implementation plan', status: 'ACTIVE' } },
  { status: 'CONTINUED' },
);

describe('the transition card at the end of a predecessor', () => {
  it('says where the conversation went, why, when and what it carried', async () => {
    renderSessionPage(
      [transcriptMock({ events: [event(1), event(2), transitionCardEvent(3, cardData)], session: sessionShape({ status: 'CONTINUED' }) })],
      { lineage: continuedLineage },
    );

    const card = await screen.findByRole('article', { name: 'Continued in “Implementation plan”' });
    expect(card).toHaveTextContent(`Topic changed · ${formatTime(CARD_TIME)}`);
    expect(card).toHaveTextContent('Carried the current request, 2 decisions and 1 source.');
    expect(within(card).getByRole('link', { name: 'Open continuation' })).toHaveAttribute('href', '/sessions/session-2');
    expect(within(card).getByRole('link', { name: 'Inspect handoff' })).toHaveAttribute('href', '/continuations/edge-7');
  });

  it('puts every reason in words', async () => {
    const reasons = {
      PHASE_CHANGE: 'Phase changed',
      CONTEXT_PRESSURE: 'Context was crowded',
      USER_REQUEST: 'You asked for it',
      OTHER: 'Other',
    };
    const cards = Object.keys(reasons).map((reason, index) =>
      transitionCardEvent(index + 1, { ...cardData, edgeId: `edge-${reason}`, successorTitle: `Branch ${reason}`, reason }),
    );
    renderSessionPage([transcriptMock({ events: cards, session: sessionShape({ status: 'CONTINUED' }) })], {
      lineage: continuedLineage,
    });

    for (const [reason, words] of Object.entries(reasons)) {
      const card = await screen.findByRole('article', { name: `Continued in “Branch ${reason}”` });
      expect(card).toHaveTextContent(`${words} · `);
    }
  });

  it('opens the continuation and the handoff', async () => {
    renderSessionPage([transcriptMock({ events: [event(1), transitionCardEvent(2, cardData)] })]);

    fireEvent.click(await screen.findByRole('link', { name: 'Inspect handoff' }));
    expect(await screen.findByText('Opened handoff edge-7')).toBeInTheDocument();
  });

  it('shows a continuation event it cannot read as a plain event', async () => {
    renderSessionPage([transcriptMock({ events: [transitionCardEvent(1, { role: 'transition_card', edgeId: 'edge-7' })] })]);

    expect(await screen.findByText('Continued in "Implementation plan"')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open continuation' })).not.toBeInTheDocument();
  });
});
