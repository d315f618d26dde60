import type { MockLink, MockSubscriptionLink } from '@apollo/client/testing';
import { describe, expect, it } from '@jest/globals';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FormattedExecutionResult } from 'graphql';
import type { RunStateFragment } from '../../../gql/graphql';
import { agentStateMock, runState, WINDOW_TOKENS, type AgentState } from '../../../test/agent-state-mocks';
import { event, renderSessionPage, transcriptMock } from '../../../test/session-page-harness';
import { CancelRunMutation } from '../useCancelRun';
import { RetryRunMutation } from '../useRetryRun';

const conversation = [event(1, 'Plan the cut-over')];

/** The session page over a server whose agent state is `server`, as the test changes it. */
function renderWithAgent(server: AgentState, mocks: MockLink.MockedResponse[] = []) {
  // The harness pushes every subscription but sessionContinued through one feed.
  const { transcriptFeed: subscriptions } = renderSessionPage([
    transcriptMock({ events: conversation }),
    agentStateMock(() => server),
    ...mocks,
  ]);
  return { subscriptions };
}

/**
 * Pushes a run change to the page. A result simulated before the runUpdated subscription exists
 * is lost: the panel subscribes as it mounts, and its meter shows only once its state has loaded.
 */
async function pushRun(subscriptions: MockSubscriptionLink, run: RunStateFragment) {
  await screen.findByRole('meter');
  act(() => subscriptions.simulateResult({ result: { data: { runUpdated: run } } }));
}

function retryRunMock(respond: (runId: string) => FormattedExecutionResult) {
  const runIds: string[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: RetryRunMutation, variables: () => true },
    result: (variables) => {
      const runId = variables.runId as string;
      runIds.push(runId);
      return respond(runId);
    },
  };
  return { mock, runIds };
}

const failed = runState({ status: 'FAILED', error: 'The model did not answer within 120 seconds.' });

describe('the current turn', () => {
  it('shows "Thinking…" politely while the turn is queued or running, and nothing once it answered', async () => {
    const server: AgentState = { runs: [] };
    const { subscriptions } = renderWithAgent(server);
    await screen.findByRole('meter');
    expect(screen.queryByText('Thinking…')).not.toBeInTheDocument();

    await pushRun(subscriptions, runState({ status: 'QUEUED' }));
    const thinking = await screen.findByText('Thinking…');
    expect(thinking).toHaveAttribute('role', 'status');
    expect(thinking).toHaveAttribute('aria-live', 'polite');

    await pushRun(subscriptions, runState({ status: 'RUNNING' }));
    expect(await screen.findByText('Thinking…')).toBeInTheDocument();

    server.runs = [runState()];
    await pushRun(subscriptions, runState());
    await waitFor(() => expect(screen.queryByText('Thinking…')).not.toBeInTheDocument());
  });

  it('shows a turn that was already running when the page opened', async () => {
    renderWithAgent({ runs: [runState({ id: 'run-0' }), runState({ status: 'RUNNING' })] });

    expect(await screen.findByText('Thinking…')).toHaveAttribute('role', 'status');
  });

  it('shows why the turn failed, and Retry queues the same run again', async () => {
    const server: AgentState = { runs: [failed] };
    const { mock, runIds } = retryRunMock((runId) => ({ data: { retryRun: runState({ id: runId, status: 'QUEUED' }) } }));
    renderWithAgent(server, [mock]);

    expect(
      await screen.findByText('The assistant could not answer: The model did not answer within 120 seconds.'),
    ).toHaveAttribute('role', 'status');
    const retry = screen.getByRole('button', { name: 'Retry' });
    fireEvent.click(retry);
    // Disabled while the request is on its way: a second click cannot queue the run twice.
    expect(retry).toBeDisabled();

    expect(await screen.findByText('Thinking…')).toBeInTheDocument();
    expect(runIds).toEqual(['run-1']);
    expect(screen.queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/could not answer/)).not.toBeInTheDocument();
  });

  it('says why the server refused to retry, and shows the run as it is now', async () => {
    const server: AgentState = { runs: [failed] };
    const { mock, runIds } = retryRunMock(() => {
      // Another tab retried it first, and it has answered since.
      server.runs = [runState()];
      return {
        errors: [
          {
            message: 'Only a failed run can be retried: it succeeded, and its answer stands.',
            extensions: { code: 'INVALID_INPUT' },
          },
        ],
      };
    });
    renderWithAgent(server, [mock]);

    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The server refused to retry: Only a failed run can be retried: it succeeded, and its answer stands.',
    );
    expect(runIds).toEqual(['run-1']);
    await waitFor(() => expect(screen.queryByText(/could not answer/)).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
  });
});

function cancelRunMock() {
  const runIds: string[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: CancelRunMutation, variables: () => true },
    result: (variables) => {
      runIds.push(variables.runId as string);
      return { data: { cancelRun: runState({ id: variables.runId as string, status: 'CANCELLED' }) } };
    },
  };
  return { mock, runIds };
}

describe('the answer being written', () => {
  it('grows inside the transcript’s scroller, while Stop stays beside the composer', async () => {
    const running = runState({ status: 'RUNNING' });
    const { subscriptions } = renderWithAgent({ runs: [running] });
    await screen.findByText('Thinking…');

    act(() => subscriptions.simulateResult({ result: { data: { runOutput: { __typename: 'RunOutputChunk', runId: 'run-1', offset: 0, text: 'Three steps: ' } } } }));
    act(() => subscriptions.simulateResult({ result: { data: { runOutput: { __typename: 'RunOutputChunk', runId: 'run-1', offset: 13, text: '**copy**, then switch.' } } } }));

    const answer = await screen.findByRole('region', { name: 'The answer so far' });
    await waitFor(() => expect(answer).toHaveTextContent('Three steps: copy, then switch.'));
    expect(answer.closest('.transcript')).not.toBeNull();
    // Not part of the transcript's list, and not announced piece by piece.
    expect(answer.closest('[role="log"]')).toBeNull();
    expect(answer.closest('[aria-live="polite"]')).toBeNull();
    const stop = screen.getByRole('button', { name: 'Stop' });
    expect(stop.closest('.transcript')).toBeNull();
    expect(stop.closest('.session-footer')).not.toBeNull();
  });

  it('gives way to the answer once it is in the transcript, so it never shows twice', async () => {
    const server: AgentState = { runs: [runState({ status: 'RUNNING' })] };
    const { subscriptions } = renderWithAgent(server);
    await screen.findByText('Thinking…');
    act(() => subscriptions.simulateResult({ result: { data: { runOutput: { __typename: 'RunOutputChunk', runId: 'run-1', offset: 0, text: 'All done.' } } } }));
    await screen.findByRole('region', { name: 'The answer so far' });

    act(() => subscriptions.simulateResult({ result: { data: { sessionEvents: event(2, 'All done.') } } }));

    await waitFor(() => expect(screen.queryByRole('region', { name: 'The answer so far' })).not.toBeInTheDocument());
    expect(screen.getAllByText('All done.')).toHaveLength(1);
  });

  it('stops with Esc, but not while a dialog is open', async () => {
    const { mock, runIds } = cancelRunMock();
    renderWithAgent({ runs: [runState({ status: 'RUNNING' })] }, [mock]);
    await screen.findByText('Thinking…');

    const dialog = document.createElement('dialog');
    dialog.setAttribute('open', '');
    document.body.append(dialog);
    fireEvent.keyDown(document.body, { key: 'Escape' });
    dialog.remove();
    expect(runIds).toEqual([]);

    fireEvent.keyDown(screen.getByLabelText('Message'), { key: 'Escape' });
    await waitFor(() => expect(runIds).toEqual(['run-1']));
  });
});

describe('the context meter', () => {
  it('shows how much of the model’s context window the session fills', async () => {
    renderWithAgent({ tokens: 3_277 });

    const meter = await screen.findByRole('meter', { name: 'Model context: 3,277 of 32,768 tokens (10%)' });
    expect(meter).toHaveAttribute('value', '3277');
    expect(meter).toHaveAttribute('max', String(WINDOW_TOKENS));
  });

  it('does not suggest continuing while the server does not advise it', async () => {
    renderWithAgent({ tokens: 20_000, continuationSuggested: false });

    await screen.findByRole('meter');
    expect(screen.queryByText(/This conversation is getting long/)).not.toBeInTheDocument();
  });

  it('suggests continuing when the server advises it, and opens the continue dialog', async () => {
    renderWithAgent({ tokens: 27_000, continuationSuggested: true });

    expect(await screen.findByText(/This conversation is getting long:/)).toHaveTextContent(
      'This conversation is getting long: continue in a new session',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'continue in a new session' }));

    const dialog = await screen.findByRole('dialog', { name: 'Continue in new session' });
    expect(dialog).toBeVisible();
  });
});
