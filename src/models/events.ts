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
export const Event = mongoose.model('Event', eventSchema, 'events');

export type EventDoc = InferSchemaType<typeof eventSchema>;

/**
 * The `event` object as the API answers it (the OpenAPI component `Event`): the event as rendered at
 * creation (`renderEvent`) with its live delivery state (src/models/webhooks.ts `withDeliveryState`).
 */
export const EventObject = apiObject(
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

/** An event as rendered at creation, stored and delivered: the `event` object without its delivery state. */
export type RenderedEvent = Omit<z.output<typeof EventObject>, 'pending_webhooks' | 'webhook_deliveries'>;

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
