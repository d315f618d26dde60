import type { MockLink } from '@apollo/client/testing';
import { MockedProvider } from '@apollo/client/testing/react';
import { describe, expect, it } from '@jest/globals';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { createCache } from '../../../app/cache';
import { CreateWebhookEndpointMutation, RedeliverWebhookMutation, WebhookEndpointsQuery, WebhooksPage } from '../WebhooksPage';

const delivery = {
  __typename: 'WebhookDelivery',
  id: 'delivery-1',
  event: 'RUN_FAILED',
  status: 'FAILED',
  attempts: 8,
  lastResponseStatus: 503,
  lastError: 'The endpoint answered 503.',
  nextAttemptAt: null,
  createdAt: '2026-03-02T10:00:00.000Z',
  deliveredAt: null,
};
const endpoint = {
  __typename: 'WebhookEndpoint',
  id: 'endpoint-1',
  url: 'https://hooks.example.com/in',
  events: ['RUN_FAILED'],
  description: 'pager',
  createdAt: '2026-03-01T10:00:00.000Z',
  disabledAt: null,
  deliveries: [delivery],
};
const listed = (endpoints: unknown[]): MockLink.MockedResponse => ({ request: { query: WebhookEndpointsQuery }, result: { data: { webhookEndpoints: endpoints } } });

function renderPage(mocks: MockLink.MockedResponse[]) {
  return render(
    <MockedProvider cache={createCache()} mocks={mocks}>
      <MemoryRouter>
        <WebhooksPage />
      </MemoryRouter>
    </MockedProvider>,
  );
}

describe('the webhooks page', () => {
  it('adds an endpoint and shows its secret once', async () => {
    const input = { url: 'https://hooks.example.com/in', events: ['SESSION_CONTINUED', 'RUN_SUCCEEDED', 'RUN_FAILED'], description: null };
    const created = { __typename: 'CreateWebhookEndpointSuccess', secret: 'whsec_c2VjcmV0', endpoint: { __typename: 'WebhookEndpoint', id: 'endpoint-1' } };
    renderPage([listed([]), { request: { query: CreateWebhookEndpointMutation, variables: { input } }, result: { data: { createWebhookEndpoint: created } } }, listed([endpoint])]);
    expect(await screen.findByText('No endpoint yet.')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: 'URL (https)' }), { target: { value: input.url } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('whsec_c2VjcmV0')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'https://hooks.example.com/in' })).toBeInTheDocument();
  });

  it('shows a refusal of the URL', async () => {
    const input = { url: 'https://127.0.0.1/in', events: ['SESSION_CONTINUED', 'RUN_SUCCEEDED', 'RUN_FAILED'], description: null };
    const refusal = { __typename: 'OperationError', code: 'INVALID_INPUT', message: '127.0.0.1 resolves to 127.0.0.1, which is not a public address.', details: [] };
    renderPage([listed([]), { request: { query: CreateWebhookEndpointMutation, variables: { input } }, result: { data: { createWebhookEndpoint: refusal } } }, listed([])]);
    fireEvent.change(await screen.findByRole('textbox', { name: 'URL (https)' }), { target: { value: input.url } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Not added. 127.0.0.1 resolves to 127.0.0.1, which is not a public address.');
  });

  it('lists deliveries with their state and redelivers one', async () => {
    const requeued = { ...delivery, status: 'PENDING', nextAttemptAt: '2026-03-02T11:00:00.000Z' };
    renderPage([
      listed([endpoint]),
      { request: { query: RedeliverWebhookMutation, variables: { deliveryId: 'delivery-1' } }, result: { data: { redeliverWebhook: { __typename: 'WebhookDelivery', id: 'delivery-1', status: 'PENDING', nextAttemptAt: requeued.nextAttemptAt } } } },
      listed([{ ...endpoint, deliveries: [requeued] }]),
    ]);
    const table = await screen.findByRole('table', { name: 'Recent deliveries' });
    expect(within(table).getByText('A run failed')).toBeInTheDocument();
    expect(within(table).getByText('failed (answered 503)')).toBeInTheDocument();
    fireEvent.click(within(table).getByRole('button', { name: 'Redeliver delivery-1' }));
    expect(await within(table).findByText(/^pending \(answered 503\), next attempt/)).toBeInTheDocument();
  });
});
