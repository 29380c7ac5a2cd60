/**
 * Events (`evt_…`, object `event`; DESIGN.md section 5). Immutable: written once, by `emitEvent`
 * (src/services/events.ts) under an id the emitter chose, so a retried emission is a
 * duplicate, not a second event.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { API_VERSION } from '../config';
import { EVENT_TYPES, type EventType } from '../shared/webhooks';
import { schemaOptions as base } from './store';
import { AnalysisObject } from './analyses';
import { BulkCallObject, BulkCallResultObject } from './bulk-calls';
import { CallObject } from './calls';
import { ConnectorVersionObject } from './connectors';
import { OptedOutContactObject } from './contacts';
import { ConversationObject, MessageObject } from './conversations';
import { ErasureObject } from './erasures';
import { RecordingObject } from './recordings';
import { ReplayObject } from './replays';
import { TestSuiteRunObject } from './test-suites';
import { WebhookDeliveryObject } from './webhooks';
import { apiObject, unix } from './wire';

const eventSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    type: { type: String, required: true },
    created: { type: Number, required: true },
    /** The id of the object the event is about (`data.object.id`). */
    object_id: { type: String, default: null },
    /** The whole event object as JSON, rendered once at creation and never changed. */
    payload_json: { type: String, required: true },
  },
  base,
);
eventSchema.index({ org_id: 1, livemode: 1, _id: -1 });
eventSchema.index({ org_id: 1, livemode: 1, type: 1, _id: -1 });
/** `GET /v1/events?object_id=` (a call's page lists that call's events). */
eventSchema.index({ org_id: 1, livemode: 1, object_id: 1, _id: -1 });
/** Retention: a tenant's events by age (src/services/retention.ts). */
eventSchema.index({ org_id: 1, livemode: 1, created: 1 });
export const Event = mongoose.model('Event', eventSchema, 'events');

export type EventDoc = InferSchemaType<typeof eventSchema>;

/** The fields every event shares, whatever its type. */
const eventFields = {
  id: z.string().meta({ examples: ['evt_01jd5x2v7c0000000000000000'] }),
  object: z.literal('event'),
  created: unix,
  livemode: z.boolean(),
  api_version: z.string().describe('The API version the event was rendered with.'),
  pending_webhooks: z
    .number()
    .int()
    .optional()
    .describe(
      'Deliveries still being attempted. Present when the event is read from the API (`GET /v1/events`, `GET /v1/events/{id}`); absent from webhook deliveries, whose body is the event as rendered at creation.',
    ),
  webhook_deliveries: z
    .array(WebhookDeliveryObject)
    .optional()
    .describe(
      'The deliveries of the event, one per endpoint and redelivery, oldest first. Present when the event is read from the API (`GET /v1/events`, `GET /v1/events/{id}`); absent from webhook deliveries.',
    ),
};

/** A conversation as `conversation.analyzed` carries it: the conversation with its new analysis. */
const AnalyzedConversationObject = apiObject(
  'AnalyzedConversation',
  'A conversation with the analysis just stored (`conversation.analyzed`).',
  ConversationObject.extend({ analysis: AnalysisObject }),
);

/**
 * The object each event type carries in `data.object`, as its emitter renders it: the component name of
 * the event variant, its types, and the object's schema. Every type of `EVENT_TYPES` is in one (checked
 * as the module loads).
 */
const EVENT_VARIANTS: [id: string, types: EventType[], object: z.ZodType][] = [
  [
    'CallEvent',
    [
      'call.scheduled',
      'call.started',
      'call.ended',
      'call.transferred',
      'call.transfer_failed',
      'call.handed_off',
      'call.analyzed',
    ],
    CallObject,
  ],
  ['ConversationEvent', ['conversation.needs_person', 'conversation.handed_off'], ConversationObject],
  ['ConversationAnalyzedEvent', ['conversation.analyzed'], AnalyzedConversationObject],
  ['MessageEvent', ['message.received', 'message.sent', 'message.delivered', 'message.failed'], MessageObject],
  ['WebhookDeliveryEvent', ['webhook_endpoint.delivery_failed'], WebhookDeliveryObject],
  ['ConnectorVersionEvent', ['connector.version_published'], ConnectorVersionObject],
  ['BulkCallResultEvent', ['bulk_call.contact_completed'], BulkCallResultObject],
  ['BulkCallEvent', ['bulk_call.completed'], BulkCallObject],
  ['RecordingEvent', ['recording.ready', 'recording.deleted'], RecordingObject],
  ['TestSuiteRunEvent', ['test_suite_run.completed'], TestSuiteRunObject],
  ['ReplayEvent', ['replay.completed'], ReplayObject],
  ['ErasureEvent', ['erasure.completed'], ErasureObject],
  ['ContactOptedOutEvent', ['contact.opted_out'], OptedOutContactObject],
];

/** The event type → the component name of its variant (the `discriminator` mapping of `Event`). */
export const EVENT_VARIANT_OF_TYPE: Record<string, string> = Object.fromEntries(
  EVENT_VARIANTS.flatMap(([id, types]) => types.map((t) => [t, id])),
);
for (const type of EVENT_TYPES)
  if (!EVENT_VARIANT_OF_TYPE[type]) throw new Error(`the event type ${type} has no variant in EVENT_VARIANTS`);

/**
 * The `event` object as the API answers it (the OpenAPI component `Event`): one of the variants, told
 * apart by `type`, each with its own `data.object` (a `call`, a `message`, …); the event as rendered at
 * creation (`renderEvent`) with its live delivery state (src/models/webhooks.ts `withDeliveryState`).
 */
export const EventObject = apiObject(
  'Event',
  'Something that happened: its `type`, the object as it was then (`data.object`, whose shape `type` tells), and its deliveries.',
  z
    .discriminatedUnion(
      'type',
      EVENT_VARIANTS.map(([id, types, object]) =>
        apiObject(
          id,
          `An event of type ${types.map((t) => `\`${t}\``).join(', ')}: \`data.object\` is the object as it was then.`,
          z.object({ ...eventFields, type: z.enum(types), data: z.object({ object }) }),
        ),
      ) as unknown as [z.ZodObject<{ type: z.ZodEnum }>, ...z.ZodObject<{ type: z.ZodEnum }>[]],
    )
    .meta({
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(
          Object.entries(EVENT_VARIANT_OF_TYPE).map(([t, id]) => [t, `#/components/schemas/${id}`]),
        ),
      },
    }),
);

/** An event as rendered at creation, stored and delivered: the `event` object without its delivery state. */
export type RenderedEvent = {
  id: string;
  object: 'event';
  type: EventType;
  created: number;
  livemode: boolean;
  api_version: string;
  data: { object: unknown };
};

/**
 * An event object (DESIGN.md section 5); rendered once, when the event is created. `type` is one of
 * `EVENT_TYPES`: the emitters (src/services/events.ts `emitEvent`, fed by the workflows' event lists) carry
 * it as a plain string.
 */
export function renderEvent(e: {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  object: unknown;
}): RenderedEvent {
  return {
    id: e.id,
    object: 'event' as const,
    type: e.type as EventType,
    created: e.created,
    livemode: e.livemode,
    api_version: API_VERSION,
    data: { object: e.object },
  };
}

/** An event as stored: the rendered event object plus its organization. */
export type StoredEvent = ReturnType<typeof renderEvent> & { org_id: string };
