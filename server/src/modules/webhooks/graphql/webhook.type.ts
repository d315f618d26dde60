import { Field, ID, InputType, Int, ObjectType, createUnionType, registerEnumType } from 'type-graphql';
import { OperationError } from '../../../shared/graphql/operation-error.type';
import { WebhookDeliveryStatus, WebhookEventType } from '../webhooks';

registerEnumType(WebhookEventType, {
  name: 'WebhookEventType',
  description: 'What an endpoint receives; the JSON body names each by its `type`.',
  valuesConfig: {
    SESSION_CONTINUED: { description: '`session.continued`: a session was continued in a successor (data: edgeId, predecessorId, successorId, reason, actor, createdAt).' },
    MESSAGE_POSTED: { description: '`message.posted`: a user or assistant message was appended (data: sessionId, eventId, seq, kind, replayOfId, createdAt).' },
    RUN_SUCCEEDED: { description: '`run.succeeded`: a run ended with its answer (data: runId, sessionId, kind, status, attempt, error, finishedAt).' },
    RUN_FAILED: { description: '`run.failed`: a run failed (data as run.succeeded, error set).' },
    RUN_CANCELLED: { description: '`run.cancelled`: a run was cancelled (data as run.succeeded).' },
    PROPOSAL_CREATED: { description: '`proposal.created`: the agent proposed a continuation that waits for a person (data: proposalId, sessionId, expiresAt, createdAt).' },
    PROPOSAL_DECIDED: { description: '`proposal.decided`: a proposal was approved, rejected, superseded or expired (data: proposalId, sessionId, status, edgeId, decidedAt).' },
    SESSION_ERASED: { description: '`session.erased`: content was erased (data: receiptId, scope, sessionIds, eventId, eventCount, actor, erasedAt).' },
  },
});

registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'Where a delivery stands.',
  valuesConfig: {
    PENDING: { description: 'Not answered 2xx yet: an attempt is due at nextAttemptAt.' },
    DELIVERED: { description: 'Answered 2xx.' },
    FAILED: { description: 'Every retry failed, or its endpoint was disabled; redeliverWebhook sends it again.' },
  },
});

@ObjectType({ description: 'One event sent to one endpoint, with every attempt under the same webhook-id.' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'The webhook-id header: the same on every attempt of this delivery.' })
  id: string;

  @Field(() => WebhookEventType, { description: 'The event it carries.' })
  event: WebhookEventType;

  @Field(() => WebhookDeliveryStatus, { description: 'PENDING, DELIVERED or FAILED.' })
  status: WebhookDeliveryStatus;

  @Field(() => Int, { description: 'Attempts made so far.' })
  attempts: number;

  @Field(() => Int, { nullable: true, description: "The HTTP status of the last attempt's answer; null when there was none (a network error, a timeout)." })
  lastResponseStatus: number | null;

  @Field(() => String, { nullable: true, description: 'What went wrong in the last attempt; null after a success.' })
  lastError: string | null;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due; null once DELIVERED or FAILED.' })
  nextAttemptAt: Date | null;

  @Field({ description: 'When the event happened and the delivery was queued.' })
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'When an attempt was answered 2xx.' })
  deliveredAt: Date | null;
}

@ObjectType({ description: 'An HTTPS (or, where allowed, HTTP) endpoint that receives the account\'s events as signed Standard Webhooks.' })
export class WebhookEndpoint {
  @Field(() => ID, { description: "The endpoint's id." })
  id: string;

  @Field({ description: 'Where events are POSTed.' })
  url: string;

  @Field(() => [WebhookEventType], { description: 'The event types it receives.' })
  events: WebhookEventType[];

  @Field(() => String, { nullable: true, description: 'What it is for, as its creator put it.' })
  description: string | null;

  @Field({ description: 'When it was registered.' })
  createdAt: Date;

  @Field(() => Date, { nullable: true, description: 'Set when the endpoint was disabled after failing for too long; deliveries stop.' })
  disabledAt: Date | null;
}

@InputType({ description: 'An endpoint to register.' })
export class CreateWebhookEndpointInput {
  @Field({ description: 'An https URL (http where the server allows it) whose host resolves to public addresses only (unless the server allows private networks); at most 2,000 characters.' })
  url: string;

  @Field(() => [WebhookEventType], { description: 'The event types to receive: at least one.' })
  events: WebhookEventType[];

  @Field(() => String, { nullable: true, description: 'What it is for: at most 500 characters.' })
  description?: string | null;
}

@ObjectType({ description: 'The endpoint registered, and its signing secret.' })
export class CreateWebhookEndpointSuccess {
  @Field(() => WebhookEndpoint, { description: 'The endpoint.' })
  endpoint: WebhookEndpoint;

  @Field({ description: 'whsec_ followed by the base64 key; shown only here.' })
  secret: string;
}

export const CreateWebhookEndpointResult = createUnionType({
  name: 'CreateWebhookEndpointResult',
  description: 'The endpoint with its secret, or the expected failure that registered nothing.',
  types: () => [CreateWebhookEndpointSuccess, OperationError] as const,
});
