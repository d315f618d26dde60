import type { MockLink } from '@apollo/client/testing';
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  SESSION_ID,
  event,
  findInTranscript,
  renderSessionPage,
  transcriptMock,
  transcriptTexts,
} from '../../../test/session-page-harness';
import { CitedRangeQuery } from '../cited-range';
import { SessionTranscriptQuery, TRANSCRIPT_PAGE_SIZE } from '../useSessionTranscript';
import { PostMessageMutation } from '../usePostMessage';

describe('the session view', () => {
  it('shows the latest page of the transcript, oldest first', async () => {
    renderSessionPage([
      transcriptMock({ events: [event(51), event(52), event(53)], hasPreviousPage: true, totalCount: 53 }),
    ]);

    expect(await screen.findByRole('heading', { name: 'Plan the migration' })).toBeInTheDocument();
    expect(transcriptTexts()).toEqual(['Message 51', 'Message 52', 'Message 53']);
    expect(screen.getByText('53 events')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Load earlier messages' })).toBeInTheDocument();
    // A screen reader hears where in the whole transcript an event sits.
    expect(screen.getAllByRole('listitem').map((item) => [item.getAttribute('aria-posinset'), item.getAttribute('aria-setsize')])).toEqual([
      ['51', '53'],
      ['52', '53'],
      ['53', '53'],
    ]);
  });

  it('names the session in the tab, and labels the transcript’s token count as its own', async () => {
    renderSessionPage([transcriptMock({ events: [event(1), event(2)] })]);

    await screen.findByRole('heading', { name: 'Plan the migration' });
    expect(document.title).toBe('Plan the migration · Session Continuation');
    expect(screen.getByText('Transcript: 4 tokens')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Session menu' }));
    const about = within(screen.getByRole('group', { name: 'Session menu' })).getByRole('region', { name: 'About this session' });
    expect(about).toHaveTextContent('active');
    expect(about).toHaveTextContent('root');
    expect(about).toHaveTextContent('Transcript: 4 tokens');
  });

  it('loads the page before the first event and shows every event once', async () => {
    renderSessionPage([
      transcriptMock({ events: [event(3), event(4), event(5)], hasPreviousPage: true, totalCount: 5 }),
      // The older page overlaps the first by one event.
      transcriptMock({ events: [event(1), event(2), event(3)], totalCount: 5 }, 'cursor-3'),
    ]);

    fireEvent.click(await screen.findByRole('button', { name: 'Load earlier messages' }));

    expect(await screen.findByText('Start of the session')).toBeInTheDocument();
    expect(transcriptTexts()).toEqual(['Message 1', 'Message 2', 'Message 3', 'Message 4', 'Message 5']);
    expect(screen.queryByRole('button', { name: 'Load earlier messages' })).not.toBeInTheDocument();
  });

  it('says so when the session has no events yet', async () => {
    renderSessionPage([transcriptMock({ events: [] })]);

    expect(await screen.findByText('No messages yet. Write the first one below.')).toBeInTheDocument();
  });

  it('says so when the session does not exist', async () => {
    renderSessionPage([
      {
        request: { query: SessionTranscriptQuery, variables: { id: SESSION_ID, last: TRANSCRIPT_PAGE_SIZE } },
        result: { data: { session: null } },
      },
    ]);

    expect(await screen.findByRole('heading', { name: 'Session not found' })).toBeInTheDocument();
  });
});

describe('live updates', () => {
  it('merges events from the subscription without duplicates', async () => {
    const { transcriptFeed: live } = renderSessionPage([transcriptMock({ events: [event(1), event(2)] })]);
    await screen.findByRole('heading', { name: 'Plan the migration' });
    // A result simulated before the page subscribed would be lost.
    await waitFor(() => expect(live.operation).toBeDefined());

    act(() => live.simulateResult({ result: { data: { sessionEvents: event(2) } } }));
    act(() => live.simulateResult({ result: { data: { sessionEvents: event(3, 'Answer from the agent') } } }));

    expect(await findInTranscript('Answer from the agent')).toBeInTheDocument();
    expect(transcriptTexts()).toEqual(['Message 1', 'Message 2', 'Answer from the agent']);
    expect(screen.getByText('3 events')).toBeInTheDocument();
  });

  it('subscribes once, resuming after the last loaded event, so nothing appended meanwhile is lost', async () => {
    const { transcriptFeed: live } = renderSessionPage([transcriptMock({ events: [event(1), event(2)] })]);
    const subscribed: { operationName?: string; variables: Record<string, unknown> }[] = [];
    live.onSetup(() => subscribed.push({ operationName: live.operation?.operationName, variables: live.operation!.variables }));
    const resumed = { operationName: 'SessionEvents', variables: { sessionId: SESSION_ID, afterSeq: 2 } };
    await waitFor(() => expect(subscribed).toContainEqual(resumed));

    act(() => live.simulateResult({ result: { data: { sessionEvents: event(3, 'Appended while the page opened') } } }));

    await findInTranscript('Appended while the page opened');
    expect(subscribed.filter((operation) => operation.operationName === 'SessionEvents')).toEqual([resumed]);
  });
});

describe('the composer', () => {
  const successSession = {
    __typename: 'Session',
    id: SESSION_ID,
    title: 'Plan the migration',
    status: 'ACTIVE',
    eventCount: 2,
    tokenCount: 4,
    continuedFrom: null,
  };
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  function postMessageMock(respond: (input: { sessionId: string; text: string; clientMessageId: string }) => object) {
    const inputs: { sessionId: string; text: string; clientMessageId: string }[] = [];
    const mock: MockLink.MockedResponse = {
      request: { query: PostMessageMutation, variables: () => true },
      result: (variables) => {
        const input = variables.input as { sessionId: string; text: string; clientMessageId: string };
        inputs.push(input);
        return { data: { postMessage: respond(input) } };
      },
    };
    return { mock, inputs };
  }

  function write(text: string) {
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: text } });
  }

  it('posts the message with a client message id and shows it in the transcript', async () => {
    const { mock, inputs } = postMessageMock(({ text }) => ({
      __typename: 'PostMessageSuccess',
      event: event(2, text),
      session: successSession,
    }));
    renderSessionPage([transcriptMock({ events: [event(1)] }), mock]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    write('  What changed since yesterday?  ');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await findInTranscript('What changed since yesterday?')).toBeInTheDocument();
    expect(inputs).toHaveLength(1);
    expect(inputs[0]).toEqual({
      sessionId: SESSION_ID,
      text: 'What changed since yesterday?',
      clientMessageId: expect.stringMatching(UUID),
    });
    expect(transcriptTexts()).toEqual(['Message 1', 'What changed since yesterday?']);
    await waitFor(() => expect(screen.getByLabelText('Message')).toHaveValue(''));
    expect(screen.getByText('2 events')).toBeInTheDocument();
  });

  it('sends with Enter and keeps one event when the subscription echoes the message', async () => {
    const { mock } = postMessageMock(({ text }) => ({
      __typename: 'PostMessageSuccess',
      event: event(2, text),
      session: successSession,
    }));
    const { transcriptFeed: live } = renderSessionPage([transcriptMock({ events: [event(1)] }), mock]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    write('Ship it');
    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Enter' });
    await findInTranscript('Ship it');
    await waitFor(() => expect(live.operation).toBeDefined());
    act(() => live.simulateResult({ result: { data: { sessionEvents: event(2, 'Ship it') } } }));
    act(() => live.simulateResult({ result: { data: { sessionEvents: event(3, 'Shipping now') } } }));

    await findInTranscript('Shipping now');
    expect(transcriptTexts()).toEqual(['Message 1', 'Ship it', 'Shipping now']);
    expect(screen.getByText('3 events')).toBeInTheDocument();
  });

  it('shows why the server refused the message and keeps the draft', async () => {
    const { mock } = postMessageMock(() => ({
      __typename: 'OperationError',
      code: 'INVALID_INPUT',
      message: 'The message is too long.',
      details: [{ __typename: 'ErrorDetail', path: ['input', 'text'], message: 'At most 100,000 characters.' }],
      currentContinuation: null,
    }));
    renderSessionPage([transcriptMock({ events: [event(1)] }), mock]);
    await screen.findByRole('heading', { name: 'Plan the migration' });

    write('One more thing');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The message was not sent. The message is too long.');
    expect(alert).toHaveTextContent('input.text: At most 100,000 characters.');
    expect(screen.getByLabelText('Message')).toHaveValue('One more thing');
    expect(transcriptTexts()).toEqual(['Message 1']);
  });
});

describe('a cited range', () => {
  function citedRangeMock(from: number, to: number, sessionId = SESSION_ID): MockLink.MockedResponse {
    const cited = (seq: number) => ({ __typename: 'Event', id: `event-${seq}`, seq, session: { __typename: 'Session', id: sessionId } });
    return {
      request: { query: CitedRangeQuery, variables: { fromEventId: `event-${from}`, toEventId: `event-${to}` } },
      result: { data: { from: cited(from), to: cited(to) } },
    };
  }

  it('pages back to the cited events, highlights them and moves focus to the first', async () => {
    const olderPage = Array.from({ length: 50 }, (_, index) => event(index + 1));
    renderSessionPage(
      [
        transcriptMock({ events: [event(51), event(52), event(53)], hasPreviousPage: true, totalCount: 53 }),
        transcriptMock({ events: olderPage, totalCount: 53 }, 'cursor-51'),
        citedRangeMock(2, 3),
      ],
      { search: '?from=event-2&to=event-3' },
    );

    expect(await screen.findByText('Highlighting events 2–3, a cited source.')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Transcript' });
    await within(log).findByText('Message 2');
    const cited = within(log)
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('transcript-item-cited'));
    expect(cited.map((item) => item.getAttribute('data-seq'))).toEqual(['2', '3']);
    expect(cited.every((item) => item.textContent?.startsWith('Cited source'))).toBe(true);
    expect(cited[0]).toHaveFocus();
    expect(screen.getByRole('link', { name: 'Clear highlight' })).toHaveAttribute('href', `/sessions/${SESSION_ID}`);
  });

  it('labels a search hit as a search hit, not as a cited source', async () => {
    renderSessionPage([transcriptMock({ events: [event(1), event(2)] }), citedRangeMock(1, 1)], { search: '?from=event-1&to=event-1&via=search' });

    expect(await screen.findByText('Highlighting event 1, a search hit.')).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Transcript' });
    await within(log).findByText('Message 1');
    const [hit] = within(log)
      .getAllByRole('listitem')
      .filter((item) => item.classList.contains('transcript-item-cited'));
    expect(hit).toHaveTextContent(/^Search hit/);
    expect(screen.queryByText(/cited source/i)).not.toBeInTheDocument();
  });

  it('labels the original of a replayed message as such', async () => {
    renderSessionPage([transcriptMock({ events: [event(1), event(2)] }), citedRangeMock(2, 2)], { search: '?from=event-2&to=event-2&via=replay' });

    expect(await screen.findByText('Highlighting event 2, the original of a replayed message.')).toBeInTheDocument();
    expect(await within(screen.getByRole('log', { name: 'Transcript' })).findByText('Original message')).toBeInTheDocument();
  });

  it('says so when the cited events belong to another session', async () => {
    renderSessionPage([transcriptMock({ events: [event(1)] }), citedRangeMock(1, 1, 'session-other')], {
      search: '?from=event-1&to=event-1',
    });

    expect(await screen.findByRole('alert')).toHaveTextContent('The cited events are not part of this session.');
  });
});
