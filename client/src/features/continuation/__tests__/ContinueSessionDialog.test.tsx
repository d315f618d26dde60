import type { MockLink } from '@apollo/client/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ContinueSessionInput } from '../../../gql/graphql';
import { SESSION_ID, event, renderSessionPage, transcriptMock } from '../../../test/session-page-harness';
import { ContinueSessionMutation, TranscriptBoundsQuery } from '../useContinueSession';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const conversation = [event(1, 'How do we migrate the data?'), event(2, 'In three steps.'), event(3, 'Now plan the deployment')];

function boundsMock(): MockLink.MockedResponse {
  const node = (id: string) => ({ __typename: 'EventConnection', edges: [{ __typename: 'EventEdge', node: { __typename: 'Event', id } }] });
  return {
    request: { query: TranscriptBoundsQuery, variables: { id: SESSION_ID, lastSeq: 3 } },
    result: { data: { session: { __typename: 'Session', id: SESSION_ID, opening: node('event-1'), latest: node('event-3') } } },
    maxUsageCount: 2,
  };
}

const continued = {
  __typename: 'ContinueSessionSuccess',
  edge: {
    __typename: 'ContinuationEdge',
    id: 'edge-9',
    predecessor: {
      __typename: 'Session',
      id: SESSION_ID,
      status: 'CONTINUED',
      currentContinuation: { __typename: 'Session', id: 'session-9', title: 'Deploy the service', status: 'ACTIVE' },
    },
  },
  successor: {
    __typename: 'Session',
    id: 'session-9',
    title: 'Deploy the service',
    origin: {
      __typename: 'Session',
      id: SESSION_ID,
      currentContinuation: {
        __typename: 'Session',
        id: 'session-9',
        title: 'Deploy the service',
        status: 'ACTIVE',
        lineage: [
          { __typename: 'Session', id: SESSION_ID },
          { __typename: 'Session', id: 'session-9' },
        ],
      },
    },
  },
};

const budgetTooSmall = {
  __typename: 'OperationError',
  code: 'INVALID_INPUT',
  message: 'tokenBudget 100 is below the 431 tokens this continuation needs at least.',
  details: [{ __typename: 'ErrorDetail', path: ['input', 'tokenBudget'], message: 'Must be at least 431.' }],
};

function continueSessionMock(respond: (input: ContinueSessionInput) => object) {
  const inputs: ContinueSessionInput[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: ContinueSessionMutation, variables: () => true },
    result: (variables) => {
      const input = variables.input as ContinueSessionInput;
      inputs.push(input);
      return { data: { continueSession: respond(input) } };
    },
    maxUsageCount: 2,
  };
  return { mock, inputs };
}

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Continue in new session' }));
  return screen.findByRole('dialog', { name: 'Continue in new session' });
}

function fill(dialog: HTMLElement, label: string | RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

beforeEach(() => window.sessionStorage.clear());

describe('continuing a session on request', () => {
  it('starts from the session title, the latest user message and the default budget', async () => {
    renderSessionPage([transcriptMock({ events: conversation })]);

    const dialog = await openDialog();
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Plan the migration');
    expect(within(dialog).getByLabelText('Current request')).toHaveValue('Now plan the deployment');
    expect(within(dialog).getByLabelText('Purpose')).toHaveValue('');
    expect(within(dialog).getByLabelText('Token budget')).toHaveValue(8000);
  });

  it('cites the whole transcript, shows a refusal inline and moves to the successor once it exists', async () => {
    const { mock, inputs } = continueSessionMock((input) => (input.tokenBudget === 100 ? budgetTooSmall : continued));
    renderSessionPage([transcriptMock({ events: conversation }), boundsMock(), mock]);

    const dialog = await openDialog();
    fill(dialog, 'Title', 'Deploy the service');
    fill(dialog, 'Purpose', 'Plan the deployment');
    fill(dialog, /Decisions/, 'Use blue-green\n\n  Ship on Friday ');
    fill(dialog, /Open questions/, 'Which region?');
    fill(dialog, 'Token budget', '100');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('The session was not continued. tokenBudget 100 is below the 431 tokens');
    expect(refusal).toHaveTextContent('input.tokenBudget: Must be at least 431.');
    expect(screen.queryByText(/Opened session/)).not.toBeInTheDocument();

    fill(dialog, 'Token budget', '500');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    const landed = await screen.findByText('Opened session session-9');
    expect(JSON.parse(landed.getAttribute('data-state') ?? 'null')).toEqual({ followedContinuation: 'edge-9' });
    expect(inputs).toHaveLength(2);
    expect(inputs[1]).toEqual({
      sessionId: SESSION_ID,
      idempotencyKey: expect.stringMatching(UUID),
      reason: 'USER_REQUEST',
      actor: 'USER',
      title: 'Deploy the service',
      tokenBudget: 500,
      handoff: {
        purpose: 'Plan the deployment',
        currentRequest: 'Now plan the deployment',
        decisions: ['Use blue-green', 'Ship on Friday'],
        establishedFacts: [],
        openQuestions: ['Which region?'],
      },
      sources: [
        { kind: 'SESSION_EVENTS', sessionId: SESSION_ID, fromEventId: 'event-1', toEventId: 'event-3', relevance: 'the conversation so far' },
      ],
    });
    // A corrected request is a new request: reusing the key would be refused as IDEMPOTENCY_KEY_REUSED.
    expect(inputs[1].idempotencyKey).not.toBe(inputs[0].idempotencyKey);
  });

  it('closes without a request on cancel', async () => {
    renderSessionPage([transcriptMock({ events: conversation })]);

    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue in new session' })).toBeInTheDocument();
  });

  it('is not offered before the session has a user message', async () => {
    renderSessionPage([transcriptMock({ events: [] })]);

    await screen.findByText('No messages yet. Write the first one below.');
    expect(screen.queryByRole('button', { name: 'Continue in new session' })).not.toBeInTheDocument();
  });
});
