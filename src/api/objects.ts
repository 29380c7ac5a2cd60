/**
 * The API's objects as zod schemas: what every response carries, for the OpenAPI document
 * (src/api/openapi.ts, issue 15). Each schema matches its `render…` function in src/models (the wire
 * shape, spec sections 4 and 7 and DESIGN.md section 6); `objects` registers them under their component
 * names. Timestamps are integer unix seconds; ids carry their prefix (`call_…`). The schemathesis run in CI
 * (scripts/fuzz-api.sh) checks every response against these, so a render function that drifts fails it.
 */
import { z } from 'zod';
import { BULK_CALL_STATUSES, RESULT_STATUSES, REDIAL_OUTCOMES } from '../shared/bulk-calls';
import { CALL_STATUSES } from '../shared/calls';
import { FORM_FIELD_TYPES } from '../shared/forms';
import { EVENT_TYPES } from '../shared/webhooks';

import {
  apiObject as component,
  unix,
  metadataObject as metadata,
  formValuesObject as formValues,
} from '../models/wire';

// Moved beside their renderers (src/models/*); re-exported until every router declares its operations.
export { ErrorObject, DeletedObject, listOf, API_OBJECTS as objects } from '../models/wire';
export { AgentObject as Agent } from '../models/agents';
import { WebhookDeliveryObject } from '../models/webhooks';
export { WebhookDeliveryObject as WebhookDelivery };

export const Call = component(
  'Call',
  'A phone call placed by an assistant (spec section 4, "Calls"), live through Twilio or simulated with a test key.',
  z.object({
    id: z.string().meta({ examples: ['call_01jd5x2v7c0000000000000000'] }),
    object: z.literal('call'),
    livemode: z.boolean(),
    status: z.enum(CALL_STATUSES),
    to: z.string(),
    from: z.string().nullable(),
    agent_id: z.string(),
    contact_id: z.string().nullable(),
    context: z.record(z.string(), z.unknown()),
    metadata,
    end_reason: z.string().nullable(),
    transferred_to: z.string().nullable(),
    simulated: z.boolean(),
    max_duration_seconds: z.number().int(),
    created: unix,
    answered_at: unix.nullable(),
    ended_at: unix.nullable(),
    duration_seconds: z.number().int().nullable(),
    error: z.object({ message: z.string() }).nullable(),
    bulk_call_id: z.string().nullable(),
    form: formValues.nullable().describe("A campaign call's filled form, once the call has ended."),
  }),
);

export const Transcript = component(
  'Transcript',
  "An ended call's turns, in order, with the tools the assistant called and the knowledge it was given.",
  z.object({
    object: z.literal('transcript'),
    call_id: z.string(),
    livemode: z.boolean(),
    created: unix,
    turns: z.array(
      z.object({
        role: z.string().meta({ examples: ['assistant', 'caller', 'tool'] }),
        text: z.string(),
        tool: z.object({ name: z.string(), arguments: z.unknown() }).optional(),
        knowledge: z.array(z.object({ document: z.string(), chunk: z.number().int() })).optional(),
        at: unix.nullable(),
        offset_ms: z.number().int().nullable(),
      }),
    ),
  }),
);

const formField = z.object({
  key: z.string(),
  type: z.enum(FORM_FIELD_TYPES),
  description: z.string().nullable(),
  required: z.boolean(),
  options: z.array(z.string()).nullable(),
});

export const Form = component(
  'Form',
  'The fields a bulk campaign fills on every call.',
  z.object({
    id: z.string(),
    object: z.literal('form'),
    livemode: z.boolean(),
    name: z.string(),
    fields: z.array(formField),
    created: unix,
  }),
);

export const BulkCall = component(
  'BulkCall',
  'A campaign that calls a list of contacts and fills a form on each call.',
  z.object({
    id: z.string().meta({ examples: ['bulk_01jd5x2v7c0000000000000000'] }),
    object: z.literal('bulk_call'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    status: z.enum(BULK_CALL_STATUSES),
    agent_id: z.string(),
    form_id: z.string(),
    from: z.string().nullable(),
    max_concurrency: z.number().int(),
    max_duration_seconds: z.number().int(),
    schedule: z.unknown().nullable(),
    retry: z.object({
      max_attempts: z.number().int(),
      on: z.array(z.enum(REDIAL_OUTCOMES)),
      interval_seconds: z.number().int(),
    }),
    metadata,
    simulation: z.unknown().optional(),
    counts: z.object({
      total: z.number().int(),
      pending: z.number().int(),
      in_progress: z.number().int(),
      completed: z.number().int(),
      not_reached: z.number().int(),
      failed: z.number().int(),
      skipped: z.number().int(),
    }),
    duplicates_removed: z.number().int(),
    created: unix,
    completed_at: unix.nullable(),
  }),
);

export const BulkCallResult = component(
  'BulkCallResult',
  'One contact of a campaign: its outcome, attempts, calls and filled form.',
  z.object({
    id: z.string(),
    object: z.literal('bulk_call_result'),
    livemode: z.boolean(),
    bulk_call_id: z.string(),
    index: z.number().int(),
    contact: z.unknown().describe('The contact as given in the request.'),
    status: z.enum(RESULT_STATUSES),
    attempts: z.number().int(),
    call_ids: z.array(z.string()),
    form: formValues.nullable(),
    updated: unix.nullable(),
  }),
);

export const KnowledgeDocument = component(
  'KnowledgeDocument',
  "A document of an agent's knowledge, split in chunks the assistant is given when they match.",
  z.object({
    id: z.string(),
    object: z.literal('knowledge_document'),
    livemode: z.boolean(),
    agent_id: z.string(),
    title: z.string(),
    characters: z.number().int(),
    chunks: z.number().int(),
    created: unix,
    updated: unix,
  }),
);

export const KnowledgeChunk = component(
  'KnowledgeChunk',
  'A search hit: a chunk of a knowledge document and its score.',
  z.object({
    object: z.literal('knowledge_chunk'),
    document: z.string(),
    chunk: z.number().int(),
    title: z.string(),
    text: z.string(),
    score: z.number(),
  }),
);

export const Contact = component(
  'Contact',
  'Someone the assistant talks to; calls and conversations with their number are theirs.',
  z.object({
    id: z.string(),
    object: z.literal('contact'),
    livemode: z.boolean(),
    phone: z.string().nullable(),
    name: z.string().nullable(),
    external_id: z.string().nullable(),
    do_not_call: z.boolean(),
    created: unix,
    updated: unix,
  }),
);

export const ContactRecord = component(
  'Record',
  'Something the assistant knows about a contact (an order, an appointment), given to it on every call.',
  z.object({
    id: z.string(),
    object: z.literal('record'),
    livemode: z.boolean(),
    contact_id: z.string(),
    type: z.string().nullable(),
    title: z.string().nullable(),
    text: z.string(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    occurred_at: unix.nullable(),
    external_id: z.string().nullable(),
    created: unix,
    updated: unix,
  }),
);

export const Event = component(
  'Event',
  'Something that happened (spec section 5): its type, the object as it was, and its deliveries.',
  z.object({
    id: z.string().meta({ examples: ['evt_01jd5x2v7c0000000000000000'] }),
    object: z.literal('event'),
    type: z.enum(EVENT_TYPES),
    created: unix,
    livemode: z.boolean(),
    api_version: z.string(),
    data: z.object({ object: z.unknown() }),
    pending_webhooks: z.number().int(),
    webhook_deliveries: z.array(WebhookDeliveryObject),
  }),
);

const count = z.number().int();
const measures = {
  calls: z.object({
    count,
    answered: count,
    by_status: z.record(z.string(), count),
    talk_seconds: count,
    billable_minutes: count,
  }),
  messages: z.object({
    outbound: z.object({ sms: count, whatsapp: count, whatsapp_template: count, web: count }),
    inbound: z.object({ sms: count, whatsapp: count, web: count }),
  }),
  llm: z.object({ requests: count, prompt_tokens: count, completion_tokens: count }),
  knowledge: z.object({ searches: count }),
  webhooks: z.object({ attempts: count, succeeded: count }),
};

export const Usage = component(
  'Usage',
  "The organization's usage over a period of local days: totals and one entry per day.",
  z.object({
    object: z.literal('usage'),
    livemode: z.boolean(),
    from: z.string(),
    to: z.string(),
    timezone: z.string(),
    as_of: unix,
    totals: z.object(measures),
    daily: z.array(z.object({ date: z.string(), ...measures })),
  }),
);

// The widget's voice answer embeds the Call object: it joins its renderer's object in src/models/widget.ts
// once the Call object is in src/models/calls.ts (models may not import the API).
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
