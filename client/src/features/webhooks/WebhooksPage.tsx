import { useMutation, useQuery } from '@apollo/client/react';
import { useState } from 'react';
import { formatDateTime } from '../../app/format';
import { OperationErrorNotice, type OperationError } from '../../app/OperationErrorNotice';
import { TopBar } from '../../app/shell/TopBar';
import { useDocumentTitle } from '../../app/useDocumentTitle';
import { graphql } from '../../gql';
import type { WebhookEventType, WebhookEndpointsQuery as WebhookEndpointsData } from '../../gql/graphql';
import './webhooks.css';

export const WebhookEndpointsQuery = graphql(`
  query WebhookEndpoints {
    webhookEndpoints {
      id
      url
      events
      description
      createdAt
      disabledAt
      deliveries(first: 20) {
        id
        event
        status
        attempts
        lastResponseStatus
        lastError
        nextAttemptAt
        createdAt
        deliveredAt
      }
    }
  }
`);

export const CreateWebhookEndpointMutation = graphql(`
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      __typename
      ... on CreateWebhookEndpointSuccess {
        secret
        endpoint {
          id
        }
      }
      ... on OperationError {
        ...OperationErrorNoticeFields
      }
    }
  }
`);

export const DeleteWebhookEndpointMutation = graphql(`
  mutation DeleteWebhookEndpoint($id: ID!) {
    deleteWebhookEndpoint(id: $id) {
      id
    }
  }
`);

export const RedeliverWebhookMutation = graphql(`
  mutation RedeliverWebhook($deliveryId: ID!) {
    redeliverWebhook(deliveryId: $deliveryId) {
      id
      status
      nextAttemptAt
    }
  }
`);

const EVENT_WORDS: Record<WebhookEventType, string> = {
  SESSION_CONTINUED: 'A session continued',
  MESSAGE_POSTED: 'A message posted',
  RUN_SUCCEEDED: 'A run succeeded',
  RUN_FAILED: 'A run failed',
  RUN_CANCELLED: 'A run cancelled',
  PROPOSAL_CREATED: 'A continuation proposed',
  PROPOSAL_DECIDED: 'A proposal decided',
  SESSION_ERASED: 'Content erased',
};
const EVENT_TYPES = Object.keys(EVENT_WORDS) as WebhookEventType[];

type Endpoint = WebhookEndpointsData['webhookEndpoints'][number];

/** Registers an endpoint; its secret is shown here once. */
function EndpointForm() {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['SESSION_CONTINUED', 'RUN_SUCCEEDED', 'RUN_FAILED']);
  const [secret, setSecret] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<OperationError | null>(null);
  const [create, { loading }] = useMutation(CreateWebhookEndpointMutation, { refetchQueries: [WebhookEndpointsQuery] });
  const toggle = (type: WebhookEventType, on: boolean) => setEvents((chosen) => (on ? [...chosen, type] : chosen.filter((event) => event !== type)));

  async function submit() {
    setSecret(null);
    setRefusal(null);
    const { data } = await create({ variables: { input: { url: url.trim(), events, description: description.trim() || null } } });
    const result = data?.createWebhookEndpoint;
    if (result?.__typename === 'CreateWebhookEndpointSuccess') {
      setSecret(result.secret);
      setUrl('');
      setDescription('');
    } else if (result?.__typename === 'OperationError') setRefusal(result);
  }

  return (
    <form
      className="webhook-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (url.trim() && events.length > 0) void submit();
      }}
    >
      <label className="field">
        <span>URL (https)</span>
        <input type="url" required value={url} placeholder="https://example.com/hooks" onChange={(event) => setUrl(event.target.value)} />
      </label>
      <label className="field">
        <span>Description</span>
        <input value={description} maxLength={500} onChange={(event) => setDescription(event.target.value)} />
      </label>
      <fieldset className="webhook-events">
        <legend>Events</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox-field">
            <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} /> {EVENT_WORDS[type]}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button button-primary" disabled={loading || !url.trim() || events.length === 0}>
        Add endpoint
      </button>
      {secret && (
        <div className="notice" role="status">
          <p>Signing secret, shown this once: keep it where the receiver verifies signatures.</p>
          <code className="webhook-secret">{secret}</code>
        </div>
      )}
      {refusal && <OperationErrorNotice lead="Not added." error={refusal} />}
    </form>
  );
}

function deliveryState(delivery: Endpoint['deliveries'][number]): string {
  if (delivery.status === 'DELIVERED') return `delivered ${delivery.deliveredAt ? formatDateTime(delivery.deliveredAt) : ''}`.trim();
  const last = delivery.lastResponseStatus ? `answered ${delivery.lastResponseStatus}` : delivery.lastError;
  const next = delivery.nextAttemptAt ? `, next attempt ${formatDateTime(delivery.nextAttemptAt)}` : '';
  return `${delivery.status.toLowerCase()}${last ? ` (${last})` : ''}${next}`;
}

/** One endpoint with its recent deliveries, each of which can be sent again. */
function EndpointCard({ endpoint }: { endpoint: Endpoint }) {
  const [remove, { loading: removing }] = useMutation(DeleteWebhookEndpointMutation, { refetchQueries: [WebhookEndpointsQuery] });
  const [redeliver] = useMutation(RedeliverWebhookMutation, { refetchQueries: [WebhookEndpointsQuery] });
  return (
    <li className="webhook-endpoint">
      <h3>{endpoint.url}</h3>
      {endpoint.description && <p>{endpoint.description}</p>}
      <p>{endpoint.events.map((type) => EVENT_WORDS[type]).join(', ')}</p>
      {endpoint.disabledAt && (
        <p className="notice notice-error">Disabled {formatDateTime(endpoint.disabledAt)} after failing for too long: delete it and add it again once it answers.</p>
      )}
      <button type="button" className="button" disabled={removing} onClick={() => void remove({ variables: { id: endpoint.id } })}>
        Delete endpoint
      </button>
      {endpoint.deliveries.length === 0 ? (
        <p>No deliveries yet.</p>
      ) : (
        <table className="webhook-deliveries">
          <caption>Recent deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">When</th>
              <th scope="col">Attempts</th>
              <th scope="col">State</th>
              <th scope="col" aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {endpoint.deliveries.map((delivery) => (
              <tr key={delivery.id}>
                <td>{EVENT_WORDS[delivery.event]}</td>
                <td>
                  <time dateTime={delivery.createdAt}>{formatDateTime(delivery.createdAt)}</time>
                </td>
                <td>{delivery.attempts}</td>
                <td>{deliveryState(delivery)}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    disabled={Boolean(endpoint.disabledAt)}
                    aria-label={`Redeliver ${delivery.id}`}
                    onClick={() => void redeliver({ variables: { deliveryId: delivery.id } })}
                  >
                    Redeliver
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

/** The route `/webhooks`: the account's endpoints, their deliveries, a form to add one. */
export function WebhooksPage() {
  const { data, loading, error } = useQuery(WebhookEndpointsQuery, { fetchPolicy: 'cache-and-network' });
  useDocumentTitle('Webhooks');
  return (
    <div className="page">
      <TopBar>
        <h1>Webhooks</h1>
      </TopBar>
      <div className="webhooks-page">
        <section aria-labelledby="add-endpoint-heading">
          <h2 id="add-endpoint-heading">Add an endpoint</h2>
          <p>Events are POSTed as signed Standard Webhooks; a delivery not answered 2xx is retried for about a day.</p>
          <EndpointForm />
        </section>
        <section aria-labelledby="endpoints-heading">
          <h2 id="endpoints-heading">Endpoints</h2>
          {loading && !data && <p role="status">Loading the endpoints…</p>}
          {error && !data && (
            <p className="notice notice-error" role="alert">
              The endpoints could not be loaded ({error.message}).
            </p>
          )}
          {data && data.webhookEndpoints.length === 0 && <p>No endpoint yet.</p>}
          {data && data.webhookEndpoints.length > 0 && (
            <ul className="webhook-endpoints">
              {data.webhookEndpoints.map((endpoint) => (
                <EndpointCard key={endpoint.id} endpoint={endpoint} />
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
