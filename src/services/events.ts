/**
 * Event emission: the one place where an event comes into being (DESIGN.md section 5). `emitEvent`
 * stores the event, rendered once, under an id chosen by the caller (a workflow, so a retried activity
 * stores it once; the API, from its idempotency record), then starts its webhook deliveries with the
 * Temporal client it is given (src/services/webhooks.ts `startDeliveriesForEvent`). Activities pass the
 * worker's client (`Context.current().client`), the API its own.
 *
 * With the organization's PII redaction on, the payload is redacted before it is
 * stored: what webhooks deliver and `GET /v1/events` shows carries placeholders, never the raw values.
 *
 * Idempotent: calling it again with the same id stores nothing new and starts no second delivery
 * (deliveries are started with `REJECT_DUPLICATE` on `<event id>:<endpoint id>`).
 */
import type { Client } from '@temporalio/client';
import { Event, renderEvent, type StoredEvent } from '../models/events';
import { insertIfAbsent } from '../models/store';
import { redactorFor } from './redaction-policy';
import { startDeliveriesForEvent } from './webhooks';

export interface EmitEventInput {
  /** `evt_…`, chosen by the caller so that a retry emits the same event. */
  id: string;
  orgId: string;
  livemode: boolean;
  /** One of src/shared/webhooks.ts `EVENT_TYPES`. */
  type: string;
  /** Milliseconds since the epoch; `created` is its unix second. */
  createdMs: number;
  /** The API object the event is about (`data.object`). */
  object: { id: string } & Record<string, unknown>;
}

/**
 * Stores an event (once, whatever the retries) and starts its webhook deliveries.
 * @param temporal the client that starts `webhookDeliveryWorkflow`s
 * @returns the event object as stored (the first emission's, on a retry)
 */
export async function emitEvent(temporal: Client, input: EmitEventInput): Promise<StoredEvent> {
  // With the organization's redaction on (card numbers whatever the setting), every string of `data.object` is redacted
  // before the event is stored, and so delivered (its whole-E.164 fields, the parties, are kept).
  const redactor = await redactorFor({ orgId: input.orgId, livemode: input.livemode });
  const rendered = renderEvent({
    id: input.id,
    type: input.type,
    created: Math.floor(input.createdMs / 1000),
    livemode: input.livemode,
    object: redactor ? redactor.value(input.object) : input.object,
  });
  const inserted = await insertIfAbsent(Event, {
    _id: input.id,
    org_id: input.orgId,
    livemode: input.livemode,
    type: input.type,
    created: rendered.created,
    object_id: input.object.id,
    payload_json: JSON.stringify(rendered),
  });
  let event: StoredEvent = { ...rendered, org_id: input.orgId };
  if (!inserted) {
    const existing = await Event.findById(input.id).lean();
    if (existing)
      event = { ...(JSON.parse(existing.payload_json) as ReturnType<typeof renderEvent>), org_id: existing.org_id };
  }
  await startDeliveriesForEvent(temporal, event);
  return event;
}
