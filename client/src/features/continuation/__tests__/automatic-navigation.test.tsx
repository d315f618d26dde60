import { beforeEach, describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SESSION_ID, event, findInTranscript, lineageShape, renderSessionPage, sessionShape, transcriptMock } from '../../../test/session-page-harness';
import { CitedRangeQuery } from '../../transcript/cited-range';
import { rememberFollowed } from '../followed-continuations';

const conversation = [event(1), event(2), event(3)];

type RenderedPage = ReturnType<typeof renderSessionPage>;

/**
 * Continues the session on screen elsewhere, as the server announces it to the page. First the
 * page must be fully loaded: its queries answer with the session as it was before, so an answer
 * landing after the announcement would overwrite the continuation in the cache; and without its
 * sessionContinued subscription in place the announcement would be lost.
 */
async function announceContinuation(
  { requestsAnswered, continuations }: RenderedPage,
  edgeId = 'edge-5',
  { reason = 'TOPIC_CHANGE', actor = 'AGENT' }: { reason?: string; actor?: string } = {},
) {
  await requestsAnswered();
  await waitFor(() => expect(continuations.operation).toBeDefined());
  const successor = { __typename: 'Session' as const, id: 'session-5', title: 'Deploy the service' };
  const lineage = lineageShape(
    { currentContinuation: { ...successor, status: 'ACTIVE' as const } },
    { status: 'CONTINUED' },
  );
  await act(async () => {
    continuations.simulateResult({
      result: {
        data: {
          sessionContinued: {
            __typename: 'SessionContinuedEvent',
            edge: { __typename: 'ContinuationEdge', id: edgeId, reason, actor },
            predecessor: { ...lineage, status: 'CONTINUED' },
            successor,
          },
        },
      },
    });
    // simulateResult delivers on a zero-delay timer: let it fire inside act, so React applies what it causes.
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** jsdom lays nothing out: give the transcript a height, and scroll it with the wheel from its end up to the top. */
function scrollTranscriptToTop() {
  const scroller = screen.getByRole('log', { name: 'Transcript' }).closest('.transcript') as HTMLElement;
  Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 2000 });
  Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 500 });
  scroller.scrollTop = 1500;
  fireEvent.scroll(scroller);
  fireEvent.wheel(scroller, { deltaY: -1500 });
  scroller.scrollTop = 0;
  fireEvent.scroll(scroller);
}

beforeEach(() => window.sessionStorage.clear());

describe('when the session on screen is continued elsewhere', () => {
  it('follows a reader at the live end, once, as a history push', async () => {
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    await announceContinuation(page);

    const landed = await screen.findByText('Opened session session-5');
    expect(JSON.parse(landed.getAttribute('data-state') ?? 'null')).toEqual({ followedContinuation: 'edge-5' });
    expect(window.sessionStorage.getItem('session-continuation.followedContinuations')).toBe('["edge-5"]');
  });

  it('keeps following a reader at the live end when the transcript moves by itself, as when a long answer lands', async () => {
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });
    const scroller = screen.getByRole('log', { name: 'Transcript' }).closest('.transcript') as HTMLElement;
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, value: 2000 });
    Object.defineProperty(scroller, 'clientHeight', { configurable: true, value: 500 });
    scroller.scrollTop = 1500;
    fireEvent.scroll(scroller);
    // The content shrank under the reader: the browser moved the scroll, the reader did nothing.
    scroller.scrollTop = 300;
    fireEvent.scroll(scroller);

    await announceContinuation(page);

    expect(await screen.findByText('Opened session session-5')).toBeInTheDocument();
  });

  it('tells a reader who scrolled away instead of moving them', async () => {
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    scrollTranscriptToTop();
    await announceContinuation(page);

    const notice = await screen.findByText(/This session was continued in “Deploy the service”/);
    expect(within(notice).getByRole('link', { name: 'Open' })).toHaveAttribute('href', '/sessions/session-5');
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
    // The composer becomes the choice: nothing typed here can be appended silently any more.
    expect(screen.getByRole('link', { name: 'Open current continuation' })).toHaveAttribute('href', '/sessions/session-5');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(/This session was continued in/)).not.toBeInTheDocument();
  });

  it('follows the runtime when it continued because the context was full, as it follows the agent', async () => {
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    await announceContinuation(page, 'edge-6', { reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM' });

    const landed = await screen.findByText('Opened session session-5');
    expect(JSON.parse(landed.getAttribute('data-state') ?? 'null')).toEqual({ followedContinuation: 'edge-6' });
  });

  it('tells a reader who scrolled away that the context was full when the runtime continued', async () => {
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    scrollTranscriptToTop();
    await announceContinuation(page, 'edge-6', { reason: 'CONTEXT_PRESSURE', actor: 'SYSTEM' });

    const notice = await screen.findByText(/This session was continued in “Deploy the service”/);
    expect(notice).toHaveTextContent('The context was full; the runtime continued in a new session.');
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
  });

  it('tells a reader of a cited range instead of moving them', async () => {
    const page = renderSessionPage(
      [
        transcriptMock({ events: conversation }),
        {
          request: { query: CitedRangeQuery, variables: { fromEventId: 'event-1', toEventId: 'event-2' } },
          result: {
            data: {
              from: { __typename: 'Event', id: 'event-1', seq: 1, session: { __typename: 'Session', id: SESSION_ID } },
              to: { __typename: 'Event', id: 'event-2', seq: 2, session: { __typename: 'Session', id: SESSION_ID } },
            },
          },
        },
      ],
      { search: '?from=event-1&to=event-2' },
    );
    await screen.findByText('Highlighting events 1–2, a cited source.');

    await announceContinuation(page);

    expect(await screen.findByText(/This session was continued in “Deploy the service”/)).toBeInTheDocument();
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
  });

  it('does not bounce a reader who came back from a continuation they followed', async () => {
    rememberFollowed(window.sessionStorage, 'edge-5');
    const page = renderSessionPage([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    await announceContinuation(page);

    expect(await screen.findByRole('link', { name: 'Open current continuation' })).toBeInTheDocument();
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
    expect(screen.queryByText(/This session was continued in/)).not.toBeInTheDocument();
  });
});

/** The card a continuation appends to its predecessor, as the transcript's subscription delivers it. */
function transitionCard(seq: number, edgeId = 'edge-5') {
  return event(seq, 'Continued in "Deploy the service"', {
    kind: 'CONTINUATION',
    data: {
      role: 'transition_card',
      edgeId,
      manifestId: 'manifest-5',
      successorId: 'session-5',
      successorTitle: 'Deploy the service',
      reason: 'TOPIC_CHANGE',
      actor: 'AGENT',
      carried: 'the current request',
      includedSources: 0,
      omittedSources: 0,
    },
  });
}

/** The page, noting the subscriptions it opens on the transcript's feed (the agent's among them). */
function renderNotingSubscriptions(...args: Parameters<typeof renderSessionPage>) {
  const page = renderSessionPage(...args);
  const subscribed: string[] = [];
  page.transcriptFeed.onSetup(() => subscribed.push(page.transcriptFeed.operation?.operationName ?? ''));
  return { ...page, subscribed };
}

/** Delivers `events` through the transcript's subscription, once the page has loaded and subscribed. */
async function appendLive({ requestsAnswered, transcriptFeed, subscribed }: ReturnType<typeof renderNotingSubscriptions>, ...events: ReturnType<typeof event>[]) {
  await requestsAnswered();
  await waitFor(() => expect(subscribed).toContain('SessionEvents'));
  for (const appended of events) {
    await act(async () => {
      transcriptFeed.simulateResult({ result: { data: { sessionEvents: appended } } });
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
}

describe('when the announcement is missed, as when the session is continued while the page opens', () => {
  it('follows a reader at the live end on the card appended to the transcript', async () => {
    const page = renderNotingSubscriptions([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    await appendLive(page, transitionCard(4));

    const landed = await screen.findByText('Opened session session-5');
    expect(JSON.parse(landed.getAttribute('data-state') ?? 'null')).toEqual({ followedContinuation: 'edge-5' });
  });

  it('tells a reader who scrolled away, once, when the announcement comes after the card', async () => {
    const page = renderNotingSubscriptions([transcriptMock({ events: conversation })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });
    scrollTranscriptToTop();

    await appendLive(page, transitionCard(4));
    await screen.findByText(/This session was continued in “Deploy the service”/);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    await announceContinuation(page);

    expect(screen.queryByText(/This session was continued in/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
  });

  it('does not move a reader who opened a session continued before, nor on its card replayed', async () => {
    const page = renderNotingSubscriptions([transcriptMock({ events: [...conversation, transitionCard(4)], session: sessionShape({ status: 'CONTINUED' }) })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    await appendLive(page, transitionCard(4), event(5, 'Appended after the card'));

    await findInTranscript('Appended after the card');
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
    expect(screen.queryByText(/This session was continued in/)).not.toBeInTheDocument();
  });
});
