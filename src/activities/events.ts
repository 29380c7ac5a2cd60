/**
 * Event emission: the one place where an event comes into being (DESIGN.md section 5). Activities call
 * `emitEvent`; it stores the event, rendered once, under an id chosen by the workflow (so a retried
 * activity stores it once), then hands it to `afterEmit` hooks: webhook delivery starts there.
 */
import { Event } from '../models/events';
import { insertIfAbsent } from '../models/store';
import { renderEvent } from '../models/events';

export interface EmitEventInput {
  id: string;
  orgId: string;
  livemode: boolean;
  type: string;
  /** Milliseconds since the epoch; `created` is its unix second. */
  createdMs: number;
  /** The API object the event is about (`data.object`). */
  object: { id: string } & Record<string, unknown>;
}

export type StoredEvent = ReturnType<typeof renderEvent> & { org_id: string };
type AfterEmitHook = (event: StoredEvent) => Promise<void>;
const hooks: AfterEmitHook[] = [];

/** Registers work to do after every emitted event (idempotent: it may run again for one event). */
export function onEventEmitted(hook: AfterEmitHook): void {
  hooks.push(hook);
}

/**
 * Stores an event (once, whatever the retries) and runs the after-emit hooks.
 * @returns the event object as stored
 */
export async function emitEvent(input: EmitEventInput): Promise<StoredEvent> {
  const rendered = renderEvent({ id: input.id, type: input.type, created: Math.floor(input.createdMs / 1000), livemode: input.livemode, object: input.object });
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
    if (existing) event = { ...(JSON.parse(existing.payload_json) as ReturnType<typeof renderEvent>), org_id: existing.org_id };
  }
  for (const hook of hooks) await hook(event);
  return event;
}
