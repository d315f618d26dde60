import type { MockLink } from '@apollo/client/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen } from '@testing-library/react';
import {
  SESSION_ID,
  event,
  lineageShape,
  renderSessionPage,
  sessionShape,
  transcriptMock,
  transcriptTexts,
} from '../../../test/session-page-harness';
import { PostMessageMutation } from '../../transcript/usePostMessage';

const HEAD = { __typename: 'Session' as const, id: 'session-3', title: 'Implementation plan', status: 'ACTIVE' as const };

interface PostedInput {
  sessionId: string;
  text: string;
  clientMessageId: string;
  branch?: boolean;
}

function postMessageMock(respond: (input: PostedInput) => object) {
  const inputs: PostedInput[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: PostMessageMutation, variables: () => true },
    result: (variables) => {
      const input = variables.input as PostedInput;
      inputs.push(input);
      return { data: { postMessage: respond(input) } };
    },
  };
  return { mock, inputs };
}

function branchCreated({ text }: PostedInput) {
  return {
    __typename: 'PostMessageSuccess',
    event: event(2, text, { id: 'branch-event-2' }),
    session: {
      __typename: 'Session',
      id: 'session-4',
      title: 'Plan the migration',
      status: 'ACTIVE',
      eventCount: 2,
      tokenCount: 4,
      continuedFrom: { __typename: 'ContinuationEdge', id: 'edge-4' },
    },
  };
}

function renderContinuedSession(mocks: MockLink.MockedResponse[]) {
  renderSessionPage([transcriptMock({ events: [event(1), event(2)], session: sessionShape({ status: 'CONTINUED' }) }), ...mocks], {
    lineage: lineageShape({ currentContinuation: HEAD }, { status: 'CONTINUED' }),
  });
}

beforeEach(() => window.sessionStorage.clear());

describe('writing in a continued session', () => {
  it('offers the current continuation or a new branch instead of a message box', async () => {
    renderContinuedSession([]);

    const open = await screen.findByRole('link', { name: 'Open current continuation' });
    expect(open).toHaveAttribute('href', '/sessions/session-3');
    expect(screen.getByText(/The conversation went on in “Implementation plan”/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Branch into a new continuation' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Message')).not.toBeInTheDocument();
  });

  it('branches on purpose and lands in the new successor', async () => {
    const { mock, inputs } = postMessageMock(branchCreated);
    renderContinuedSession([mock]);

    fireEvent.click(await screen.findByRole('button', { name: 'Branch into a new continuation' }));
    fireEvent.change(screen.getByLabelText('First message of the new branch'), { target: { value: 'Try the other schema' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start branch' }));

    const landed = await screen.findByText('Opened session session-4');
    expect(inputs).toEqual([
      { sessionId: SESSION_ID, text: 'Try the other schema', clientMessageId: expect.any(String), branch: true },
    ]);
    expect(JSON.parse(landed.getAttribute('data-state') ?? 'null')).toEqual({ followedContinuation: 'edge-4' });
  });

  it('keeps the person in place when the branch is refused', async () => {
    const { mock } = postMessageMock(() => ({
      __typename: 'OperationError',
      code: 'RATE_LIMITED',
      message: 'Too many continuations; try again shortly.',
      details: [],
      currentContinuation: null,
    }));
    renderContinuedSession([mock]);

    fireEvent.click(await screen.findByRole('button', { name: 'Branch into a new continuation' }));
    fireEvent.change(screen.getByLabelText('First message of the new branch'), { target: { value: 'Once more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start branch' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('No branch was started. Too many continuations; try again shortly.');
    expect(screen.getByLabelText('First message of the new branch')).toHaveValue('Once more');
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();
  });

  it('turns a refused message into the same choice, keeping the draft for a branch', async () => {
    const { mock } = postMessageMock(() => ({
      __typename: 'OperationError',
      code: 'SESSION_CONTINUED',
      message: 'This session was continued: open its current continuation, or post with branch: true.',
      details: [{ __typename: 'ErrorDetail', path: ['input', 'sessionId'], message: 'The session is CONTINUED and read-only.' }],
      currentContinuation: { __typename: 'Session', id: 'session-3', title: 'Implementation plan' },
    }));
    renderSessionPage([transcriptMock({ events: [event(1)] }), mock]);

    fireEvent.change(await screen.findByLabelText('Message'), { target: { value: 'One more thing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));

    expect(await screen.findByRole('link', { name: 'Open current continuation' })).toHaveAttribute('href', '/sessions/session-3');
    expect(screen.getByLabelText('First message of the new branch')).toHaveValue('One more thing');
    expect(transcriptTexts()).toEqual(['Message 1']);
  });
});
