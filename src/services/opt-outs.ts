/**
 * Opt-outs: a person's own request not to be contacted, recorded in one place whatever the channel it
 * came on. On a call the assistant's `opt_out` tool records a `voice` opt-out (the person asked not to be
 * called again: the TCPA, 47 CFR 64.1200(d)(3), requires honouring such a request; Ofcom's persistent
 * misuse policy likewise); on SMS and WhatsApp a STOP word records a messaging opt-out on that channel
 * (CTIA's messaging principles; Twilio's STOP handling), which a START word clears.
 *
 * The record is the contact's (created for the number when there is none): `opt_out_<channel>`
 * (src/models/contacts.ts `StoredOptOut`). A `voice` opt-out also sets the contact's `do_not_call` and
 * lists the number on the organization's do-not-call list (`source: "opt_out"`), which every dial
 * consults (src/services/do-not-call.ts `blockedPhones`), so no later call, campaign, callback or redial
 * dials it. A messaging opt-out blocks messages on its channel only, not calls: carriers and Twilio treat
 * STOP as a messaging opt-out, and a person may well want texts stopped but their appointment call kept.
 *
 * Idempotent by construction (DESIGN.md section 3): the contact is created against its unique phone
 * index (never two for one number), the opt-out is set only where none is (a conditional update), and
 * `contact.opted_out` is emitted with an id derived from the request's key, only by the request whose
 * opt-out the contact holds: a retry (or a re-run after a worker died) emits the same event id, which is
 * stored once; an opt-out of a person already opted out on that channel emits nothing.
 */
import type { Client } from '@temporalio/client';
import { isE164 } from '../phone-numbers';
import {
  Contact,
  renderContact,
  type ContactDoc,
  type OptOutChannel,
  type OptOutSource,
  type StoredOptOut,
} from '../models/contacts';
import type { WithId } from '../models/store';
import { derivedId } from '../shared/ids';
import { groupCommit } from '../shared/group-commit';
import { findContact, upsertContact, type Tenant } from './contacts';
import { addDoNotCall } from './do-not-call';
import { emitEvent } from './events';

/** One opt-out request: who asked, on which channel, where, and the key that makes it one request. */
export interface OptOutInput {
  orgId: string;
  livemode: boolean;
  /** The person's number, E.164. */
  phone: string;
  channel: OptOutChannel;
  source: OptOutSource;
  /** The call it was asked on, else null. */
  callId: string | null;
  /** The conversation the STOP came in, else null. */
  conversationId: string | null;
  /**
   * Unique to this request and the same on every retry (the tool call's `tc_…` key, the STOP message's
   * id): the new contact's id and the event's id derive from it.
   */
  key: string;
  /** When it was asked (ms), fixed by the caller like `key`: the time of the ids and of the opt-out. */
  atMs: number;
}

/** What `recordOptOut` did. */
export interface OptOutResult {
  /** The contact holding the opt-out (`cont_…`); null when `phone` is not a phone number. */
  contactId: string | null;
  /** True when this request recorded the opt-out (and emitted `contact.opted_out`); false when one was there. */
  recorded: boolean;
  /** The `contact.opted_out` event this request emitted, else null. */
  eventId: string | null;
}

/** The `contact.opted_out` event id of the request with `key` at `atMs`. */
export function optOutEventId(key: string, atMs: number): string {
  return derivedId('evt', atMs, `opt_out:${key}`);
}

/**
 * Records an opt-out (see the header): the contact for `phone` (created, id derived from `key`, when none
 * exists in the tenant), its `opt_out_<channel>` set unless one is there, for `voice` its `do_not_call`
 * and the do-not-call list entry, and `contact.opted_out` (data.object: the contact with `opt_out`)
 * emitted once.
 * @param temporal the client that starts the event's webhook deliveries
 * @throws only failures a retry may cure (store, Temporal)
 */
export async function recordOptOut(temporal: Client, input: OptOutInput): Promise<OptOutResult> {
  if (!isE164(input.phone)) return { contactId: null, recorded: false, eventId: null };
  return oneAtATime(`${input.orgId}:${input.livemode}:${input.phone}`, () => recordNow(temporal, input));
}

/**
 * Runs the opt-outs of one number of one tenant one at a time in this process: the contact's writes (its
 * creation, the opt-out, `do_not_call`) are separate updates, and FerretDB 1.x applies each as a
 * read-modify-write of the whole document without a version check, so two concurrent requests could
 * undo each other's fields (DESIGN.md section 3, "one writer per document").
 */
const oneAtATime = groupCommit<() => Promise<OptOutResult>, OptOutResult>(async (_key, [run]) => [await run()], 1);

/** `recordOptOut`'s steps, for a phone number already checked, one request of the number at a time. */
async function recordNow(temporal: Client, input: OptOutInput): Promise<OptOutResult> {
  const tenant: Tenant = { orgId: input.orgId, livemode: input.livemode };
  const eventId = optOutEventId(input.key, input.atMs);
  const contact =
    (await findContact(tenant, { phone: input.phone })) ??
    (await upsertContact(tenant, derivedId('cont', input.atMs, `opt_out:${input.key}`), { phone: input.phone }))
      .contact;
  const field = `opt_out_${input.channel}` as const;
  const stored: StoredOptOut = {
    source: input.source,
    created: Math.floor(input.atMs / 1000),
    call_id: input.callId,
    conversation_id: input.conversationId,
    event_id: eventId,
  };
  const scope = { _id: contact._id, org_id: input.orgId, livemode: input.livemode };
  const voice = input.channel === 'voice' ? { do_not_call: true } : {};
  // Set only where no opt-out of this channel is (null or absent): the first request's record stays.
  await Contact.updateOne({ ...scope, [field]: null }, { $set: { [field]: stored, ...voice, updated_ms: Date.now() } });
  let after = (await Contact.findOne(scope).lean()) as WithId<ContactDoc> | null;
  if (!after) return { contactId: null, recorded: false, eventId: null }; // erased meanwhile: nobody to record
  if (input.channel === 'voice') {
    if (!after.do_not_call) {
      await Contact.updateOne(scope, { $set: { do_not_call: true, updated_ms: Date.now() } });
      after = { ...after, do_not_call: true };
    }
    await addDoNotCall(tenant, [input.phone], 'opt_out');
  }
  const mine = (after[field] as StoredOptOut | null | undefined)?.event_id === eventId;
  if (!mine) return { contactId: after._id, recorded: false, eventId: null };
  await emitEvent(temporal, {
    id: eventId,
    orgId: input.orgId,
    livemode: input.livemode,
    type: 'contact.opted_out',
    createdMs: input.atMs,
    object: {
      ...renderContact(after),
      opt_out: {
        channel: input.channel,
        source: input.source,
        created: stored.created,
        call_id: input.callId,
        conversation_id: input.conversationId,
      },
    },
  });
  return { contactId: after._id, recorded: true, eventId };
}

/**
 * Clears the messaging opt-out of `phone` on `channel` (a START word): messages on that channel may be
 * sent again. Calls are not concerned (a `voice` opt-out is cleared only by the organization:
 * `do_not_call: false` on the contact, and `DELETE /v1/do_not_call/{phone}`). Idempotent; no contact, nothing done.
 */
export async function clearMessagingOptOut(tenant: Tenant, phone: string, channel: 'sms' | 'whatsapp'): Promise<void> {
  const field = `opt_out_${channel}`;
  await Contact.updateOne(
    { org_id: tenant.orgId, livemode: tenant.livemode, phone_key: phone, [field]: { $ne: null } },
    { $set: { [field]: null, updated_ms: Date.now() } },
  );
}
