import type { MockLink } from '@apollo/client/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ProposalCardFragment } from '../../../gql/graphql';
import { SESSION_ID, event, renderSessionPage, sessionShape, transcriptMock } from '../../../test/session-page-harness';
import { timeLeftInWords } from '../proposal-time';
import { ApproveContinuationMutation, ContinuationProposalQuery, RejectContinuationMutation } from '../useContinuationProposal';

function proposal(overrides: Partial<ProposalCardFragment> = {}): ProposalCardFragment {
  return {
    __typename: 'ContinuationProposal',
    id: 'proposal-1',
    status: 'PENDING',
    reason: 'USER_REQUEST',
    title: 'Next phase',
    note: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    expiresAt: new Date(Date.now() + 2 * 3_600_000 + 5 * 60_000 + 30_000).toISOString(),
    decidedAt: null,
    handoff: {
      __typename: 'Handoff',
      purpose: 'Plan the next phase',
      currentRequest: '/continue Next phase',
      establishedFacts: [],
      decisions: ['Use PostgreSQL'],
      openQuestions: [],
      nextActions: [],
      cautions: [],
    },
    preview: {
      __typename: 'ProjectionPreview',
      tokenBudget: 8000,
      tokenCost: 900,
      context: { __typename: 'ProjectedContext', sections: [{ __typename: 'ContextSection', kind: 'HANDOFF', tokenCount: 120 }] },
      items: [
        {
          __typename: 'ManifestItem',
          kind: 'SESSION_EVENTS',
          status: 'INCLUDED',
          origin: 'CITED',
          score: null,
          relevance: 'the conversation before the request',
          sessionId: SESSION_ID,
          fromEventId: 'event-1',
          toEventId: 'event-2',
          eventId: null,
          url: null,
          version: null,
          blockId: null,
          path: null,
          cid: null,
          tokenCount: 40,
          hash: 'abc',
        },
      ],
    },
    edge: null,
    session: { __typename: 'Session', id: SESSION_ID, title: 'Plan the migration' },
    ...overrides,
  };
}

const proposalEvent = event(5, 'The agent proposes to continue in "Next phase": waiting for a person to approve or reject it.', {
  kind: 'SYSTEM',
  data: { role: 'continuation_proposal', proposalId: 'proposal-1' },
});

function proposalMock(value: ProposalCardFragment): MockLink.MockedResponse {
  return { request: { query: ContinuationProposalQuery, variables: { id: 'proposal-1' } }, result: { data: { continuationProposal: value } } };
}

function renderWithProposal(mocks: MockLink.MockedResponse[], value = proposal()) {
  return renderSessionPage([
    transcriptMock({ events: [event(1), event(2), event(3), event(4, 'Noted'), proposalEvent], session: sessionShape({ continuationApproval: 'ASK' }) }),
    proposalMock(value),
    ...mocks,
  ]);
}

beforeEach(() => window.sessionStorage.clear());

describe('the proposal card', () => {
  it('says how long a proposal still waits', () => {
    const now = Date.parse('2026-03-01T10:00:00.000Z');
    expect(timeLeftInWords('2026-03-01T12:05:30.000Z', now)).toBe('2 h 5 min left');
    expect(timeLeftInWords('2026-03-01T10:00:45.000Z', now)).toBe('45 s left');
    expect(timeLeftInWords('2026-03-01T09:59:59.000Z', now)).toBeNull();
  });

  it("shows the agent's draft with its preview and time left, and approves with the person's edits only", async () => {
    const inputs: Record<string, unknown>[] = [];
    renderWithProposal([
      {
        request: { query: ApproveContinuationMutation, variables: () => true },
        result: (variables) => {
          inputs.push(variables.input as Record<string, unknown>);
          return {
            data: {
              approveContinuation: {
                __typename: 'ContinueSessionSuccess',
                edge: {
                  __typename: 'ContinuationEdge',
                  id: 'edge-1',
                  predecessor: {
                    __typename: 'Session',
                    id: SESSION_ID,
                    status: 'CONTINUED',
                    currentContinuation: { __typename: 'Session', id: 'session-2', title: 'Phase two', status: 'ACTIVE' },
                  },
                },
                successor: { __typename: 'Session', id: 'session-2', title: 'Phase two' },
              },
            },
          };
        },
      },
    ]);
    const card = await screen.findByRole('article', { name: 'The agent proposes to continue in “Next phase”' });
    expect(within(card).getByText(/h 5 min left|h 4 min left/)).toBeTruthy();
    expect(within(card).getByText(/Would include 1 of 1 source, using 900 of 8,000 tokens/)).toBeTruthy();
    expect(within(card).getByText('Use PostgreSQL')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Session menu' }));
    expect((screen.getByRole('checkbox', { name: 'Ask me before the agent continues in a new session' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.keyDown(screen.getByRole('group', { name: 'Session menu' }), { key: 'Escape' });

    fireEvent.change(within(card).getByLabelText('Title of the new session'), { target: { value: 'Phase two' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByTestId('elsewhere')).toHaveTextContent('Opened session session-2');
    expect(inputs).toEqual([{ proposalId: 'proposal-1', title: 'Phase two' }]);
  });

  it('says the context is full when that is why the continuation is proposed', async () => {
    renderWithProposal([], proposal({ reason: 'CONTEXT_PRESSURE' }));

    const card = await screen.findByRole('article', { name: 'The context is full: continue in “Next phase”?' });
    expect(card).toHaveTextContent('The context was full · ');
    expect(within(card).getByRole('button', { name: 'Approve' })).toBeInTheDocument();
  });

  it('rejects with a note and then shows the decision', async () => {
    const sent: Record<string, unknown>[] = [];
    renderWithProposal([
      {
        request: { query: RejectContinuationMutation, variables: () => true },
        result: (variables) => {
          sent.push(variables);
          return { data: { rejectContinuation: proposal({ status: 'REJECTED', note: 'Stay here', decidedAt: '2026-03-01T10:05:00.000Z' }) } };
        },
      },
    ]);
    const card = await screen.findByRole('article', { name: 'The agent proposes to continue in “Next phase”' });
    fireEvent.change(within(card).getByLabelText('Note for the agent (why not, what instead)'), { target: { value: 'Stay here' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Reject' }));
    expect(await within(card).findByText('Rejected: “Stay here”. The agent answers here.')).toBeTruthy();
    expect(sent).toEqual([{ proposalId: 'proposal-1', note: 'Stay here' }]);
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });
});
