import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createCache } from '../../../app/cache';
import { event } from '../../../test/session-page-harness';
import { TranscriptEvent } from '../../transcript/TranscriptEvent';
import { AccountPage, AccountSettingsQuery, SetRetentionPolicyMutation } from '../AccountPage';
import { DeleteSessionDialog } from '../DeleteSessionDialog';
import { EraseSessionMutationDocument } from '../useEraseSession';

function renderWith(mocks: MockLink.MockedResponse[], ui: React.ReactElement) {
  return render(
    <MockedProvider cache={createCache()} mocks={mocks}>
      <MemoryRouter>{ui}</MemoryRouter>
    </MockedProvider>,
  );
}

const SESSION = { id: 'session-3', title: 'Deploy the service', eventCount: 12 };
const LINEAGE = ['Plan the release', 'Fix the tests', 'Deploy the service'];

function eraseMock(scope: 'SESSION' | 'LINEAGE', reason: string, answer: Record<string, unknown>): MockLink.MockedResponse {
  return { request: { query: EraseSessionMutationDocument, variables: { input: { sessionId: SESSION.id, scope, reason } } }, result: { data: { eraseSession: answer } } };
}

const receipt = { __typename: 'ErasureReceipt', id: 'receipt-1', scope: 'LINEAGE', sessionIds: ['session-1', 'session-2', 'session-3'], eventCount: 30, attachmentCount: 1, erasedAt: '2026-03-02T10:00:00.000Z' };

describe('deleting a conversation', () => {
  it('names what goes and deletes only once the title is typed and a reason given', async () => {
    const onErased = jest.fn();
    renderWith([eraseMock('LINEAGE', 'Asked to forget it', receipt)], <DeleteSessionDialog session={SESSION} lineageTitles={LINEAGE} onClose={() => undefined} onErased={onErased} />);
    const dialog = screen.getByRole('dialog', { name: 'Delete for good' });
    for (const title of LINEAGE) expect(dialog).toHaveTextContent(title);
    expect(screen.getByRole('radio', { name: /The whole conversation \(3 sessions\)/ })).toBeChecked();
    const remove = screen.getByRole('button', { name: 'Delete the conversation' });
    expect(remove).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: 'Why (kept on the receipt)' }), { target: { value: 'Asked to forget it' } });
    fireEvent.change(screen.getByRole('textbox', { name: /to confirm/ }), { target: { value: 'Deploy the servic' } });
    expect(remove).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: /to confirm/ }), { target: { value: 'Deploy the service' } });
    expect(remove).toBeEnabled();
    fireEvent.click(remove);
    await waitFor(() => expect(onErased).toHaveBeenCalledWith('LINEAGE'));
  });

  it('deletes this session alone when asked, and shows a refusal without closing', async () => {
    const onErased = jest.fn();
    const refusal = { __typename: 'OperationError', code: 'INVALID_INPUT', message: 'This session was erased already.', details: [] };
    renderWith([eraseMock('SESSION', 'Wrong customer', refusal)], <DeleteSessionDialog session={SESSION} lineageTitles={LINEAGE} onClose={() => undefined} onErased={onErased} />);
    fireEvent.click(screen.getByRole('radio', { name: 'This session only' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('12 events here.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Why (kept on the receipt)' }), { target: { value: 'Wrong customer' } });
    fireEvent.change(screen.getByRole('textbox', { name: /to confirm/ }), { target: { value: 'Deploy the service' } });
    fireEvent.click(screen.getByRole('button', { name: 'Delete this session' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was deleted. This session was erased already.');
    expect(onErased).not.toHaveBeenCalled();
  });
});

describe('an erased event in the transcript', () => {
  it('says when it was erased and why, and nothing of what it said', () => {
    const erased = event(4, null as unknown as string, {
      erasedAt: '2026-03-02T10:00:00.000Z',
      erasure: { __typename: 'ErasureReceipt', id: 'receipt-1', reason: 'A password was pasted' },
    });
    renderWith([], <TranscriptEvent event={erased} />);
    const note = screen.getByText(/^Erased on/);
    expect(note).toHaveTextContent(/Erased on .*2026.*: A password was pasted/);
    expect(note.querySelector('time')).toHaveAttribute('dateTime', '2026-03-02T10:00:00.000Z');
  });
});

describe('the account page', () => {
  const settings = (retentionDays: number | null): MockLink.MockedResponse => ({
    request: { query: AccountSettingsQuery },
    result: {
      data: {
        viewer: { __typename: 'Account', id: 'account-1', name: 'Ada', retentionDays },
        erasures: [{ ...receipt, reason: 'Retention policy: no new event in the lineage for 30 days.', actor: 'SYSTEM', requestedBy: 'retention policy' }],
      },
    },
  });

  it('lists what was erased and sets the retention in days', async () => {
    const save: MockLink.MockedResponse = {
      request: { query: SetRetentionPolicyMutation, variables: { retentionDays: 30 } },
      result: { data: { setRetentionPolicy: { __typename: 'Account', id: 'account-1', retentionDays: 30 } } },
    };
    renderWith([settings(null), save], <AccountPage />);
    expect(await screen.findByText(/by the retention policy: Retention policy: no new event/)).toHaveTextContent('3 sessions, 30 events, 1 attachment');
    const keepAll = screen.getByRole('checkbox', { name: 'Keep everything' });
    expect(keepAll).toBeChecked();
    const days = screen.getByRole('spinbutton', { name: /Erase conversations after/ });
    expect(days).toBeDisabled();
    fireEvent.click(keepAll);
    fireEvent.change(days, { target: { value: '0' } });
    expect(screen.getByRole('button', { name: 'Save retention' })).toBeDisabled();
    fireEvent.change(days, { target: { value: '30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save retention' }));
    expect(await screen.findByText('Conversations with no new message for 30 days are erased.')).toBeInTheDocument();
  });
});
