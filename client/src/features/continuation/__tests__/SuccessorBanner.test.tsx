import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { formatTime } from '../../../app/format';
import {
  SESSION_ID,
  event,
  lineageShape,
  renderSessionPage,
  sessionShape,
  transcriptMock,
} from '../../../test/session-page-harness';

const CONTINUED_AT = '2026-03-01T10:54:00.000Z';
const PREDECESSOR = { __typename: 'Session' as const, id: 'session-0', title: 'Rethink compaction' };

const successorLineage = lineageShape(
  {
    continuedFrom: {
      __typename: 'ContinuationEdge',
      id: 'edge-1',
      reason: 'PHASE_CHANGE',
      actor: 'AGENT',
      createdAt: CONTINUED_AT,
      predecessor: PREDECESSOR,
    },
    lineage: [PREDECESSOR, { __typename: 'Session', id: SESSION_ID, title: 'Implementation plan' }],
  },
  { title: 'Implementation plan' },
);

const openingEvents = [
  event(1, 'Continued from "Rethink compaction"', {
    kind: 'CONTINUATION',
    createdAt: CONTINUED_AT,
    data: { role: 'banner', edgeId: 'edge-1', predecessorId: 'session-0', predecessorTitle: 'Rethink compaction', reason: 'PHASE_CHANGE' },
  }),
  event(2, 'Write the plan down', {
    kind: 'USER_MESSAGE',
    replayOf: { __typename: 'Event', id: 'event-92', session: PREDECESSOR },
  }),
];

function renderSuccessor() {
  renderSessionPage(
    [transcriptMock({ events: openingEvents, session: sessionShape({ kind: 'CONTINUATION', title: 'Implementation plan' }) })],
    { lineage: successorLineage },
  );
}

describe('the banner opening a successor', () => {
  it('says where the session came from and why, with the way back and the handoff', async () => {
    renderSuccessor();

    const banner = await screen.findByRole('complementary', { name: 'Continuation' });
    expect(banner).toHaveTextContent('Continued from “Rethink compaction”');
    expect(banner).toHaveTextContent(`A new phase began; the agent continued in a new session. · ${formatTime(CONTINUED_AT)}`);
    expect(within(banner).getByRole('link', { name: 'Back to previous' })).toHaveAttribute('href', '/sessions/session-0');
    expect(within(banner).getByRole('link', { name: 'View handoff' })).toHaveAttribute('href', '/continuations/edge-1');
  });

  it('says when the runtime continued because the context was full, as it says the agent did', async () => {
    renderSessionPage(
      [transcriptMock({ events: openingEvents, session: sessionShape({ kind: 'CONTINUATION', title: 'Implementation plan' }) })],
      {
        lineage: {
          ...successorLineage,
          continuedFrom: { ...successorLineage.continuedFrom!, reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM' },
        },
      },
    );

    const banner = await screen.findByRole('complementary', { name: 'Continuation' });
    expect(banner).toHaveTextContent(`The context was full; the runtime continued in a new session. · ${formatTime(CONTINUED_AT)}`);
    expect(within(banner).getByRole('link', { name: 'Back to previous' })).toHaveAttribute('href', '/sessions/session-0');
    expect(within(banner).getByRole('link', { name: 'View handoff' })).toHaveAttribute('href', '/continuations/edge-1');
  });

  it('marks the start of the successor in its transcript', async () => {
    renderSuccessor();

    expect(await screen.findByText(/This session begins here, continuing “Rethink compaction”/)).toBeInTheDocument();
  });

  it('shows the replayed message with a link to the exact original', async () => {
    renderSuccessor();

    const provenance = await screen.findByRole('link', { name: 'from “Rethink compaction”' });
    expect(provenance).toHaveAttribute('href', '/sessions/session-0?from=event-92&to=event-92&via=replay');
    expect(provenance.closest('article')).toHaveTextContent('Write the plan down');

    fireEvent.click(provenance);
    expect(await screen.findByText('Opened session session-0')).toBeInTheDocument();
  });

  it('shows no banner on a session that continues nothing', async () => {
    renderSessionPage([transcriptMock({ events: [event(1)] })]);

    await screen.findByRole('heading', { name: 'Plan the migration' });
    expect(screen.queryByRole('complementary', { name: 'Continuation' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to previous' })).not.toBeInTheDocument();
  });
});
