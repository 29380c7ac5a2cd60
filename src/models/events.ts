/**
 * Events (`evt_…`, object `event`; DESIGN.md section 5). Immutable: written once, by `emitEvent`
 * (src/services/events.ts) under an id the emitter chose, so a retried emission is a
 * duplicate, not a second event.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { API_VERSION } from '../config';
import { schemaOptions as base } from './store';

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

/** An event object (DESIGN.md section 5); rendered once, when the event is created. */
export function renderEvent(e: { id: string; type: string; created: number; livemode: boolean; object: unknown }) {
  return {
    id: e.id,
    object: 'event' as const,
    type: e.type,
    created: e.created,
    livemode: e.livemode,
    api_version: API_VERSION,
    data: { object: e.object },
  };
}

/** An event as stored: the rendered event object plus its organization. */
export type StoredEvent = ReturnType<typeof renderEvent> & { org_id: string };
