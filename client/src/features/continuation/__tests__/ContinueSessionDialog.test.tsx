import type { MockLink } from '@apollo/client/testing';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ContinueSessionInput } from '../../../gql/graphql';
import { SESSION_ID, event, renderSessionPage, transcriptMock } from '../../../test/session-page-harness';
import { ContinueSessionMutation, TranscriptBoundsQuery } from '../useContinueSession';
import { PreviewProjectionQuery } from '../useProjectionPreview';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const conversation = [event(1, 'How do we migrate the data?'), event(2, 'In three steps.'), event(3, 'Now plan the deployment')];

function boundsMock(): MockLink.MockedResponse {
  const node = (id: string) => ({ __typename: 'EventConnection', edges: [{ __typename: 'EventEdge', node: { __typename: 'Event', id } }] });
  return {
    request: { query: TranscriptBoundsQuery, variables: { id: SESSION_ID, lastSeq: 3 } },
    result: { data: { session: { __typename: 'Session', id: SESSION_ID, opening: node('event-1'), latest: node('event-3') } } },
    // Read again for every preview and every confirmation.
    maxUsageCount: Number.POSITIVE_INFINITY,
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

function manifestItem(
  status: 'INCLUDED' | 'OMITTED',
  relevance: string,
  range: { from: string; to: string },
  tokenCount: number,
  { origin = 'CITED', score = null }: { origin?: 'CITED' | 'RUNTIME' | 'RECOMMENDED'; score?: number | null } = {},
) {
  return {
    __typename: 'ManifestItem',
    kind: 'SESSION_EVENTS',
    status,
    origin,
    score,
    relevance,
    sessionId: SESSION_ID,
    fromEventId: range.from,
    toEventId: range.to,
    eventId: null,
    url: null,
    version: null,
    blockId: null,
    path: null,
    cid: null,
    tokenCount,
    hash: `hash-${range.from}-${range.to}`,
  };
}

/** The initiating message fits; the recent exchange and the cited conversation do not. */
function previewed(input: ContinueSessionInput) {
  const section = (kind: string, tokenCount: number) => ({ __typename: 'ContextSection', kind, tokenCount });
  return {
    __typename: 'ProjectionPreview',
    tokenBudget: input.tokenBudget ?? 8000,
    tokenCost: 420,
    context: {
      __typename: 'ProjectedContext',
      sections: [section('SYSTEM', 180), section('LINEAGE', 60), section('INITIATING_MESSAGE', 20), section('HANDOFF', 120), section('OMITTED_HANDLES', 40)],
    },
    items: [
      manifestItem('INCLUDED', 'the initiating user message', { from: 'event-3', to: 'event-3' }, 6, { origin: 'RUNTIME' }),
      manifestItem('OMITTED', 'recent exchange before the initiating message', { from: 'event-1', to: 'event-2' }, 8, { origin: 'RUNTIME' }),
      manifestItem('OMITTED', 'the conversation so far', { from: 'event-1', to: 'event-3' }, 12),
    ],
  };
}

/** Assisted selection recommends two ranges beside the initiating message. */
function assistedPreview(input: ContinueSessionInput) {
  return {
    ...previewed(input),
    tokenCost: 310,
    items: [
      manifestItem('INCLUDED', 'the initiating user message', { from: 'event-3', to: 'event-3' }, 6, { origin: 'RUNTIME' }),
      manifestItem('INCLUDED', 'matches “migrate”, “data”', { from: 'event-1', to: 'event-2' }, 8, { origin: 'RECOMMENDED', score: 0.9132 }),
      manifestItem('INCLUDED', 'matches “steps”', { from: 'event-2', to: 'event-2' }, 4, { origin: 'RECOMMENDED', score: 0.4 }),
    ],
  };
}

/** The kept recommendations, cited. */
function keptPreview(input: ContinueSessionInput) {
  return {
    ...previewed(input),
    tokenCost: 300,
    items: [
      manifestItem('INCLUDED', 'the initiating user message', { from: 'event-3', to: 'event-3' }, 6, { origin: 'RUNTIME' }),
      ...input.sources.map((source) =>
        manifestItem('INCLUDED', source.relevance, { from: String(source.fromEventId), to: String(source.toEventId) }, 8),
      ),
    ],
  };
}

function previewMock(respond: (input: ContinueSessionInput) => object) {
  const inputs: ContinueSessionInput[] = [];
  const mock: MockLink.MockedResponse = {
    request: { query: PreviewProjectionQuery, variables: () => true },
    result: (variables) => {
      const input = variables.input as ContinueSessionInput;
      inputs.push(input);
      return { data: { previewProjection: respond(input) } };
    },
    maxUsageCount: Number.POSITIVE_INFINITY,
  };
  return { mock, inputs };
}

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

/** The session menu holds the action. */
async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: 'Session menu' }));
  fireEvent.click(screen.getByRole('button', { name: 'Continue in new session' }));
  return screen.findByRole('dialog', { name: 'Continue in new session' });
}

/** Previews wait for a pause in typing, then for the server. */
const PREVIEWED = { timeout: 3000 };

function previewRegion(dialog: HTMLElement) {
  return within(dialog).getByRole('region', { name: 'Preview of the new session' });
}

function fill(dialog: HTMLElement, label: string | RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

beforeEach(() => window.sessionStorage.clear());

describe('continuing a session on request', () => {
  it('starts from the next part of the session, its latest user message and the server’s default budget', async () => {
    renderSessionPage([transcriptMock({ events: conversation })]);

    const dialog = await openDialog();
    expect(within(dialog).getByLabelText('Title')).toHaveFocus();
    // Never the session's own title again.
    expect(within(dialog).getByLabelText('Title')).toHaveValue('Plan the migration, part 2');
    expect(within(dialog).getByLabelText('Current request')).toHaveValue('Now plan the deployment');
    expect(within(dialog).getByLabelText('Purpose')).toHaveValue('');
    expect(within(dialog).getByLabelText('Token budget')).toHaveValue(null);
    expect(dialog).toHaveTextContent("Left empty: the server's default.");
    expect(previewRegion(dialog)).toHaveTextContent('Fill in the title, purpose and current request');
  });

  it('leaves the budget to the server, and says what it is once a preview has told it', async () => {
    const previews = previewMock((input) => previewed({ ...input, tokenBudget: input.tokenBudget ?? 6000 }));
    const { mock, inputs } = continueSessionMock(() => continued);
    renderSessionPage([transcriptMock({ events: conversation }), boundsMock(), previews.mock, mock]);

    const dialog = await openDialog();
    fill(dialog, 'Purpose', 'Plan the deployment');

    await within(previewRegion(dialog)).findByText('Would include 1 of 3 sources and omit 2, using 420 of 6,000 tokens.', {}, PREVIEWED);
    expect(dialog).toHaveTextContent("Left empty: the server's default, 6,000 tokens.");
    expect(within(dialog).getByLabelText('Token budget')).toHaveAttribute('placeholder', '6,000');
    expect(previews.inputs[0]).not.toHaveProperty('tokenBudget');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await screen.findByText('Opened session session-9');
    expect(inputs[0]).not.toHaveProperty('tokenBudget');
  });

  it('previews what the new session would carry and omit, from the input it then confirms', async () => {
    const previews = previewMock(previewed);
    const { mock, inputs } = continueSessionMock(() => continued);
    renderSessionPage([transcriptMock({ events: conversation }), boundsMock(), previews.mock, mock]);

    const dialog = await openDialog();
    fill(dialog, 'Title', 'Deploy the service');
    fill(dialog, 'Purpose', 'Plan the deployment');
    fill(dialog, /Decisions/, 'Use blue-green');
    fill(dialog, 'Token budget', '500');

    const preview = previewRegion(dialog);
    const summary = await within(preview).findByText(
      'Would include 1 of 3 sources and omit 2, using 420 of 500 tokens.',
      {},
      PREVIEWED,
    );
    expect(summary.closest('[aria-live="polite"]')).not.toBeNull();
    const budget = within(preview).getByRole('figure', { name: '420 of 500 tokens used (84%)' });
    expect(budget).toHaveTextContent('Handoff: 120 tokens');
    expect(budget).toHaveTextContent('Unused: 80 tokens');
    const items = within(preview).getAllByRole('article');
    const described = items.map((item) => [within(item).getByText(/Included|Omitted/).textContent, item.querySelector('p')?.textContent]);
    expect(described).toEqual([
      ['● Included', 'the initiating user message'],
      ['○ Omitted', 'recent exchange before the initiating message'],
      ['○ Omitted', 'the conversation so far'],
    ]);
    expect(items[2]).toHaveTextContent('from this session “Plan the migration”');
    // The edits came in one burst: one preview, of the form as it ended up.
    expect(previews.inputs).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    await screen.findByText('Opened session session-9');
    expect(inputs).toHaveLength(1);
    expect(previews.inputs[0]).toEqual({ ...inputs[0], idempotencyKey: expect.any(String) });
    expect(previews.inputs[0]).toMatchObject({ actor: 'USER', reason: 'USER_REQUEST', tokenBudget: 500 });
  });

  it('shows the refusal the preview answers before anything is confirmed, and previews the corrected form', async () => {
    const previews = previewMock((input) => (input.tokenBudget === 100 ? budgetTooSmall : previewed(input)));
    const { mock, inputs } = continueSessionMock(() => continued);
    renderSessionPage([transcriptMock({ events: conversation }), boundsMock(), previews.mock, mock]);

    const dialog = await openDialog();
    fill(dialog, 'Purpose', 'Plan the deployment');
    fill(dialog, 'Token budget', '100');

    const preview = previewRegion(dialog);
    const refusal = await within(preview).findByText(/tokenBudget 100 is below the 431 tokens/, {}, PREVIEWED);
    expect(refusal.closest('[aria-live="polite"]')).toHaveTextContent(
      'As it stands, the session would not be continued. tokenBudget 100 is below the 431 tokens',
    );
    expect(preview).toHaveTextContent('input.tokenBudget: Must be at least 431.');
    expect(within(preview).queryByRole('figure')).not.toBeInTheDocument();
    // Announced politely by the preview; an alert is for a refused confirmation.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    fill(dialog, 'Token budget', '431');

    await within(preview).findByText('Would include 1 of 3 sources and omit 2, using 420 of 431 tokens.', {}, PREVIEWED);
    expect(within(preview).queryByText(/would not be continued/)).not.toBeInTheDocument();
    expect(previews.inputs.map((input) => input.tokenBudget)).toEqual([100, 431]);
    expect(inputs).toEqual([]);
  });

  it('cites the whole transcript, shows a refusal inline and moves to the successor once it exists', async () => {
    const { mock, inputs } = continueSessionMock((input) => (input.tokenBudget === 100 ? budgetTooSmall : continued));
    const previews = previewMock((input) => (input.tokenBudget === 100 ? budgetTooSmall : previewed(input)));
    renderSessionPage([transcriptMock({ events: conversation }), boundsMock(), previews.mock, mock]);

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
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
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

  it('with assisted selection, cites nothing itself and confirms the recommendations it previewed', async () => {
    const previews = previewMock(assistedPreview);
    const { mock, inputs } = continueSessionMock(() => continued);
    renderSessionPage([transcriptMock({ events: conversation }), previews.mock, mock]);

    const dialog = await openDialog();
    fill(dialog, 'Purpose', 'Plan the deployment');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Assisted selection' }));

    const choice = await within(dialog).findByRole('group', { name: 'Recommended sources' }, PREVIEWED);
    const kept = within(choice).getAllByRole('checkbox');
    expect(kept.map((box) => [(box as HTMLInputElement).checked, box.closest('li')?.textContent?.trim()])).toEqual([
      [true, 'Keep matches “migrate”, “data”Event range · 8 tokens · score 0.91'],
      [true, 'Keep matches “steps”Event range · 4 tokens · score 0.40'],
    ]);
    const preview = previewRegion(dialog);
    expect(within(preview).getAllByText('Recommended')).toHaveLength(2);
    expect(within(preview).getAllByText('Added by the runtime')).toHaveLength(1);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    await screen.findByText('Opened session session-9');
    expect(inputs[0]).toMatchObject({ assist: true, sources: [] });
    expect(previews.inputs.at(-1)).toEqual({ ...inputs[0], idempotencyKey: expect.any(String) });
  });

  it('cites the recommendations kept when one is dropped, previewing that request before confirming it', async () => {
    const previews = previewMock((input) => (input.assist ? assistedPreview(input) : keptPreview(input)));
    const { mock, inputs } = continueSessionMock(() => continued);
    renderSessionPage([transcriptMock({ events: conversation }), previews.mock, mock]);

    const dialog = await openDialog();
    fill(dialog, 'Purpose', 'Plan the deployment');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Assisted selection' }));
    const choice = await within(dialog).findByRole('group', { name: 'Recommended sources' }, PREVIEWED);
    const dropping = within(choice).getByRole('checkbox', { name: /Keep matches “steps”/ });
    fireEvent.click(dropping);

    const preview = previewRegion(dialog);
    await within(preview).findByText('Would include 2 of 2 sources, using 300 of 8,000 tokens.', {}, PREVIEWED);
    expect(dropping).not.toBeChecked();
    // The same checkbox, never re-created while the preview changes: focus stays where the person left it.
    expect(dropping.isConnected).toBe(true);
    expect(within(preview).getByText('Cited by you')).toBeInTheDocument();
    expect(within(preview).queryByText('Recommended')).not.toBeInTheDocument();
    expect(previews.inputs.at(-1)).toMatchObject({
      sources: [
        { kind: 'SESSION_EVENTS', sessionId: SESSION_ID, fromEventId: 'event-1', toEventId: 'event-2', relevance: 'matches “migrate”, “data”' },
      ],
    });
    expect(previews.inputs.at(-1)).not.toHaveProperty('assist');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Continue' }));

    await screen.findByText('Opened session session-9');
    expect(previews.inputs.at(-1)).toEqual({ ...inputs[0], idempotencyKey: expect.any(String) });
  });

  it('closes without a request on cancel', async () => {
    renderSessionPage([transcriptMock({ events: conversation })]);

    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is not offered before the session has a user message', async () => {
    renderSessionPage([transcriptMock({ events: [] })]);

    await screen.findByText('No messages yet. Write the first one below.');
    fireEvent.click(screen.getByRole('button', { name: 'Session menu' }));
    expect(screen.getByRole('group', { name: 'Session menu' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue in new session' })).not.toBeInTheDocument();
  });
});
