/**
 * The API's objects as zod schemas: what every response carries, for the OpenAPI document
 * (src/api/openapi.ts, issue 15). Each schema matches its `render…` function in src/models (the wire
 * shape, spec sections 4 and 7 and DESIGN.md section 6); `objects` registers them under their component
 * names. Timestamps are integer unix seconds; ids carry their prefix (`call_…`). The schemathesis run in CI
 * (scripts/fuzz-api.sh) checks every response against these, so a render function that drifts fails it.
 */
import { z } from 'zod';
import { CHANNELS, NUMBER_CHANNELS } from '../shared/conversations';

import { apiObject as component, unix, metadataObject as metadata } from '../models/wire';

// Moved beside their renderers (src/models/*); re-exported until every router declares its operations.
export { ErrorObject, DeletedObject, listOf, API_OBJECTS as objects } from '../models/wire';
export { AgentObject as Agent } from '../models/agents';
import { CallObject as Call } from '../models/calls';

export const Conversation = component(
  'Conversation',
  'A WhatsApp, SMS or web-widget thread between a customer (a number, or `user:`/`visitor:` for the widget) and a service number (`widget` for the web).',
  z.object({
    id: z.string(),
    object: z.literal('conversation'),
    livemode: z.boolean(),
    channel: z.enum(CHANNELS),
    customer_number: z.string(),
    service_number: z.string(),
    agent_id: z.string().nullable(),
    status: z.enum(['open', 'needs_person']),
    handoff_reason: z.string().nullable(),
    window_expires_at: unix.nullable(),
    last_message_at: unix.nullable(),
    contact_id: z.string().nullable(),
    created: unix,
  }),
);

export const Message = component(
  'Message',
  'A WhatsApp, SMS or web-widget message, received or sent.',
  z.object({
    id: z.string(),
    object: z.literal('message'),
    livemode: z.boolean(),
    conversation_id: z.string(),
    channel: z.enum(CHANNELS),
    direction: z.enum(['inbound', 'outbound']),
    from: z.string(),
    to: z.string(),
    text: z.string(),
    template: z.object({ name: z.string(), language: z.string(), parameters: z.array(z.string()) }).nullable(),
    author: z.enum(['customer', 'assistant', 'person', 'api']),
    status: z.string().meta({ examples: ['queued', 'sent', 'delivered', 'read', 'failed', 'received'] }),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    created: unix,
  }),
);

export const PhoneNumber = component(
  'PhoneNumber',
  'A service number connected for messaging, and the agent that answers it.',
  z.object({
    id: z.string(),
    object: z.literal('phone_number'),
    livemode: z.boolean(),
    number: z.string(),
    channels: z.array(z.enum(NUMBER_CHANNELS)),
    agent_id: z.string().nullable(),
    created: unix,
  }),
);

export const MessageTemplate = component(
  'MessageTemplate',
  'An approved WhatsApp template, to message a customer outside the 24-hour window.',
  z.object({
    id: z.string(),
    object: z.literal('message_template'),
    livemode: z.boolean(),
    name: z.string(),
    language: z.string(),
    body: z.string(),
    content_sid: z.string().nullable(),
    created: unix,
  }),
);

export const WebhookEndpoint = component(
  'WebhookEndpoint',
  'An HTTPS URL that receives signed events. `secret` is shown only on creation and rotation.',
  z.object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    livemode: z.boolean(),
    url: z.string(),
    events: z.array(z.string()),
    description: z.string().nullable(),
    metadata,
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable(),
    api_version: z.string(),
    created: unix,
    secret_rotation_expires_at: unix.nullable(),
    secret: z.string().optional(),
  }),
);

export const WebhookDeliveryAttempt = component(
  'WebhookDeliveryAttempt',
  'One HTTP attempt of a delivery: when, the status code, the latency, the error.',
  z.object({
    id: z.string(),
    object: z.literal('webhook_delivery_attempt'),
    livemode: z.boolean(),
    created: unix,
    webhook_endpoint: z.string(),
    delivery: z.string(),
    event: z.string(),
    event_type: z.string(),
    trigger: z.string(),
    attempt: z.number().int(),
    url: z.string(),
    succeeded: z.boolean(),
    status_code: z.number().int().nullable(),
    latency_ms: z.number().nullable(),
    error: z.string().nullable(),
    error_code: z.string().nullable(),
    response_body: z.string().nullable(),
  }),
);

export const PublisherKey = component(
  'PublisherKey',
  'An Ed25519 public key that signs connector versions.',
  z.object({
    id: z.string(),
    object: z.literal('publisher_key'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    algorithm: z.literal('ed25519'),
    public_key: z.string(),
    fingerprint: z.string(),
    status: z.enum(['active', 'expired', 'revoked']),
    expires_at: unix.nullable(),
    revoked_at: unix.nullable(),
    created: unix,
  }),
);

export const ConnectorVersion = component(
  'ConnectorVersion',
  'A signed, published version of a connector bundle.',
  z.object({
    id: z.string(),
    object: z.literal('connector_version'),
    livemode: z.boolean(),
    connector: z.string(),
    version: z.string(),
    sha256: z.string(),
    size: z.number().int(),
    key_id: z.string(),
    manifest: z.record(z.string(), z.unknown()),
    created: unix,
  }),
);

export const Connector = component(
  'Connector',
  'A connector and its latest version.',
  z.object({
    id: z.string(),
    object: z.literal('connector'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    latest_version: z.string().nullable(),
    versions: z.number().int(),
    created: unix,
  }),
);

export const WidgetSession = component(
  'WidgetSession',
  "A browser widget's session: its `token` (only in the answer that opens it; valid 24 hours) authenticates the widget's messages, stream and voice.",
  z.object({
    id: z.string(),
    object: z.literal('widget_session'),
    livemode: z.boolean(),
    token: z.string().optional().describe('`wses_…_secret_…`; shown once, stored hashed.'),
    expires_at: unix,
    visitor_id: z.string(),
    verified: z.boolean().describe('True when `identity` verified: the session carries `user_id`.'),
    user_id: z.string().nullable(),
    conversation_id: z.string().describe("The `web` conversation: the user's (verified) or this visitor's."),
    created: unix,
  }),
);

export const WidgetVoice = component(
  'WidgetVoice',
  'A browser voice call: the media room to join with `token` (valid at most 10 minutes), and the call it is.',
  z.object({
    object: z.literal('widget_voice'),
    url: z.string().describe('The LiveKit server URL (`wss://…`); a `.invalid` address for a simulated room.'),
    room: z.string(),
    token: z.string().describe('A LiveKit access token (JWT) for this room and visitor; opaque for a simulated room.'),
    expires_at: unix,
    call_id: z.string(),
    simulated: z.boolean(),
    call: Call,
  }),
);
