import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { formatTime } from '../../../app/format';
import { event, lineageShape, renderSessionPage, sessionShape, transcriptMock } from '../../../test/session-page-harness';
import { TransitionDetailsQuery } from '../TransitionCard';

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
  // The server's own summary counts the cited sources only.
  carried: 'the current request, 2 decisions and 1 source',
  includedSources: 1,
  omittedSources: 1,
};

/** The manifest the inspector shows: the initiating message, the recent exchange and one cited range. */
function detailsMock(edgeId: string, { actor = 'AGENT', handoffFit = true } = {}): MockLink.MockedResponse {
  const item = (status: string) => ({ __typename: 'ManifestItem', status });
  return {
    request: { query: TransitionDetailsQuery, variables: { edgeId } },
    result: {
      data: {
        continuationEdge: {
          __typename: 'ContinuationEdge',
          id: edgeId,
          actor,
          handoff: { __typename: 'Handoff', decisions: ['Use blue-green', 'Ship on Friday'], establishedFacts: [], openQuestions: ['Which region?'] },
          manifest: {
            __typename: 'ProjectionManifest',
            id: `manifest-${edgeId}`,
            items: [item('INCLUDED'), item('OMITTED'), item('OMITTED')],
            context: {
              __typename: 'ProjectedContext',
              sections: [{ __typename: 'ContextSection', kind: 'SYSTEM' }, ...(handoffFit ? [{ __typename: 'ContextSection', kind: 'HANDOFF' }] : [])],
            },
            transferredState: { __typename: 'TransferredState', plan: 'CARRY', pendingRunIds: [] },
          },
        },
      },
    },
  };
}

const continuedLineage = lineageShape(
  { currentContinuation: { __typename: 'Session', id: 'session-2', title: 'Implementation plan', status: 'ACTIVE' } },
  { status: 'CONTINUED' },
);

function renderPredecessor(events: ReturnType<typeof event>[], mocks: MockLink.MockedResponse[]) {
  renderSessionPage([transcriptMock({ events, session: sessionShape({ status: 'CONTINUED' }) }), ...mocks], { lineage: continuedLineage });
}

describe('the transition card at the end of a predecessor', () => {
  it('says where the conversation went, why, by whom, when and what it carried, counting the sources as the inspector does', async () => {
    renderPredecessor([event(1), event(2), transitionCardEvent(3, cardData)], [detailsMock('edge-7')]);

    const card = await screen.findByRole('article', { name: 'Continued in “Implementation plan”' });
    expect(card).toHaveTextContent(`The topic changed; the agent continued in a new session. · ${formatTime(CARD_TIME)}`);
    expect(
      await within(card).findByText(
        'Carried the current request, 2 decisions, 1 open question, the plan and 3 sources (1 included, 2 omitted).',
      ),
    ).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Open continuation' })).toHaveAttribute('href', '/sessions/session-2');
    expect(within(card).getByRole('link', { name: 'Inspect handoff' })).toHaveAttribute('href', '/continuations/edge-7');
  });

  it('counts none of the handoff’s lists when the handoff did not fit the budget', async () => {
    renderPredecessor([transitionCardEvent(1, cardData)], [detailsMock('edge-7', { handoffFit: false })]);

    const card = await screen.findByRole('article', { name: 'Continued in “Implementation plan”' });
    expect(await within(card).findByText('Carried the current request, the plan and 3 sources (1 included, 2 omitted).')).toBeInTheDocument();
  });

  it('looks the same when the runtime continued, and says the context was full', async () => {
    renderPredecessor(
      [transitionCardEvent(1, { ...cardData, edgeId: 'edge-8', reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM' })],
      [detailsMock('edge-8', { actor: 'SYSTEM' })],
    );

    const card = await screen.findByRole('article', { name: 'Continued in “Implementation plan”' });
    expect(card).toHaveTextContent('The context was full; the runtime continued in a new session.');
    expect(within(card).getByRole('link', { name: 'Open continuation' })).toHaveAttribute('href', '/sessions/session-2');
    expect(within(card).getByRole('link', { name: 'Inspect handoff' })).toHaveAttribute('href', '/continuations/edge-8');
  });

  it('puts every reason in words', async () => {
    const reasons = {
      PHASE_CHANGE: 'A new phase began',
      CONTEXT_PRESSURE: 'The context was full',
      USER_REQUEST: 'You asked for a new session',
      OTHER: 'Another reason (see the handoff)',
    };
    const cards = Object.keys(reasons).map((reason, index) =>
      transitionCardEvent(index + 1, { ...cardData, edgeId: `edge-${reason}`, successorTitle: `Branch ${reason}`, reason }),
    );
    renderPredecessor(cards, Object.keys(reasons).map((reason) => detailsMock(`edge-${reason}`)));

    for (const [reason, words] of Object.entries(reasons)) {
      const card = await screen.findByRole('article', { name: `Continued in “Branch ${reason}”` });
      expect(card).toHaveTextContent(`${words}; the agent continued in a new session. · `);
    }
  });

  it('falls back on the server’s summary when the manifest cannot be read', async () => {
    renderPredecessor([transitionCardEvent(1, cardData)], [{ request: { query: TransitionDetailsQuery, variables: { edgeId: 'edge-7' } }, error: new Error('Network down') }]);

    const card = await screen.findByRole('article', { name: 'Continued in “Implementation plan”' });
    expect(await within(card).findByText('Carried the current request, 2 decisions and 1 source.')).toBeInTheDocument();
  });

  it('opens the continuation and the handoff', async () => {
    renderSessionPage([transcriptMock({ events: [event(1), transitionCardEvent(2, cardData)] }), detailsMock('edge-7')]);

    fireEvent.click(await screen.findByRole('link', { name: 'Inspect handoff' }));
    expect(await screen.findByText('Opened handoff edge-7')).toBeInTheDocument();
  });

  it('shows a continuation event it cannot read as a plain event', async () => {
    renderSessionPage([transcriptMock({ events: [transitionCardEvent(1, { role: 'transition_card', edgeId: 'edge-7' })] })]);

    expect(await screen.findByText('Continued in "Implementation plan"')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open continuation' })).not.toBeInTheDocument();
  });
});
