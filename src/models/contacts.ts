/**
 * Contacts (`cont_…`, object `contact`) and their records (`rec_…`, object `record`), written only by
 * src/services/contacts.ts on behalf of the API (`POST /v1/contacts`, `POST /v1/records`, `DELETE
 * /v1/contacts/{id}`); read by the API and by the assistant's context (the LLM activity).
 *
 * Identity is enforced by unique indexes, never by read-then-write (DESIGN.md section 3): per
 * organization and mode, one contact per `phone` and one per `external_id`. FerretDB 1.x has no partial
 * indexes, so the indexed fields are `phone_key` / `external_key`: the value, or `~<contact id>` when the
 * contact has none (unique by construction). Records likewise carry `external_key` (their `external_id`,
 * or `~<record id>`), unique per contact, so a record pushed again with its `external_id` is updated.
 * Concurrent upserts of one contact each `$set` whole fields: the last one wins, nothing is merged.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, seconds, type WithId } from './store';
import { apiObject, unix } from './wire';

const contactSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    phone: { type: String, default: null },
    external_id: { type: String, default: null },
    /** `phone`, or `~<contact id>` when there is none (see the header). */
    phone_key: { type: String, required: true },
    /** `external_id`, or `~<contact id>` when there is none. */
    external_key: { type: String, required: true },
    name: { type: String, default: null },
    do_not_call: { type: Boolean, required: true },
    /**
     * The person's own opt-outs per channel (`StoredOptOut`, src/services/opt-outs.ts), null while none:
     * `voice` (the `opt_out` tool on a call; it also sets `do_not_call`), `sms` / `whatsapp` (a STOP
     * word; a START clears it). Absent on contacts stored before opt-outs were recorded.
     */
    opt_out_voice: { type: Schema.Types.Mixed, default: null },
    opt_out_sms: { type: Schema.Types.Mixed, default: null },
    opt_out_whatsapp: { type: Schema.Types.Mixed, default: null },
    created: { type: Number, required: true },
    updated_ms: { type: Number, required: true },
  },
  base,
);
contactSchema.index({ org_id: 1, livemode: 1, phone_key: 1 }, { unique: true });
contactSchema.index({ org_id: 1, livemode: 1, external_key: 1 }, { unique: true });
contactSchema.index({ org_id: 1, livemode: 1, _id: -1 });
/** The do-not-call contacts of a tenant (src/services/do-not-call.ts `blockedPhones`). */
contactSchema.index({ org_id: 1, livemode: 1, do_not_call: 1, phone_key: 1 });
export const Contact = mongoose.model('Contact', contactSchema, 'contacts');

const recordSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    contact_id: { type: String, required: true },
    external_id: { type: String, default: null },
    /** `external_id`, or `~<record id>` when there is none. */
    external_key: { type: String, required: true },
    type: { type: String, default: null },
    title: { type: String, default: null },
    text: { type: String, required: true },
    /** The flat `data` object as JSON (FerretDB refuses some field names). */
    data_json: { type: String, default: '{}' },
    occurred_ms: { type: Number, default: null },
    /** `occurred_ms`, else the creation time: the assistant gets records newest first by it. */
    sort_ms: { type: Number, required: true },
    created: { type: Number, required: true },
    updated_ms: { type: Number, required: true },
  },
  base,
);
recordSchema.index({ contact_id: 1, external_key: 1 }, { unique: true });
recordSchema.index({ contact_id: 1, _id: -1 });
recordSchema.index({ contact_id: 1, sort_ms: -1, _id: -1 });
export const ContactRecord = mongoose.model('ContactRecord', recordSchema, 'records');

export type ContactDoc = InferSchemaType<typeof contactSchema>;
export type ContactRecordDoc = InferSchemaType<typeof recordSchema>;

/** The channels a person can opt out of: calls (`voice`) and each messaging channel. */
export const OPT_OUT_CHANNELS = ['voice', 'sms', 'whatsapp'] as const;
export type OptOutChannel = (typeof OPT_OUT_CHANNELS)[number];

/**
 * How an opt-out came: the assistant's `opt_out` tool on a call (the person asked not to be called
 * again), or a STOP word on SMS or WhatsApp (src/shared/conversations.ts `KEYWORDS`).
 */
export const OPT_OUT_SOURCES = ['opt_out_tool', 'sms_stop', 'whatsapp_stop'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

/** One opt-out as a contact stores it (`opt_out_<channel>`). */
export interface StoredOptOut {
  source: OptOutSource;
  /** Unix seconds. */
  created: number;
  /** The call it was asked on (`opt_out_tool`), else null. */
  call_id: string | null;
  /** The conversation the STOP came in (`sms_stop`, `whatsapp_stop`), else null. */
  conversation_id: string | null;
  /** The `contact.opted_out` event this opt-out emitted (one per opt-out, whatever the retries). */
  event_id: string;
}

/** An opt-out as the API shows it (the OpenAPI component `OptOut`). */
export const OptOutObject = apiObject(
  'OptOut',
  'The person asked not to be contacted on `channel`: calls (`voice`) or a messaging channel.',
  z.object({
    channel: z
      .enum(OPT_OUT_CHANNELS)
      .describe(
        '`voice`: no call is dialed to the number (the contact is `do_not_call` and the number is on the do-not-call list); `sms`/`whatsapp`: no message is sent on that channel until the person sends START.',
      ),
    source: z
      .enum(OPT_OUT_SOURCES)
      .describe('`opt_out_tool`: asked on a call; `sms_stop` / `whatsapp_stop`: a STOP word.'),
    created: unix,
    call_id: z.string().nullable().describe('The call it was asked on, else null.'),
    conversation_id: z.string().nullable().describe('The conversation the STOP came in, else null.'),
  }),
);
export type OptOutObject = z.output<typeof OptOutObject>;

/** The contact's opt-outs in force, in `OPT_OUT_CHANNELS` order. */
export function renderOptOuts(doc: Partial<Record<`opt_out_${OptOutChannel}`, unknown>>): OptOutObject[] {
  return OPT_OUT_CHANNELS.flatMap((channel) => {
    const o = doc[`opt_out_${channel}`] as StoredOptOut | null | undefined;
    return o
      ? [
          {
            channel,
            source: o.source,
            created: o.created,
            call_id: o.call_id ?? null,
            conversation_id: o.conversation_id ?? null,
          },
        ]
      : [];
  });
}

/** The `contact` object as the API answers it (the OpenAPI component `Contact`). */
export const ContactObject = apiObject(
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
    opt_outs: z
      .array(OptOutObject)
      .describe("The person's own opt-outs in force (asked on a call, or a STOP word), one per channel at most."),
    created: unix,
    updated: unix,
  }),
);
export type ContactObject = z.output<typeof ContactObject>;

/** A contact as `contact.opted_out` carries it: the contact, and the opt-out just recorded (`opt_out`). */
export const OptedOutContactObject = apiObject(
  'OptedOutContact',
  'A contact with the opt-out just recorded (`contact.opted_out`).',
  ContactObject.extend({ opt_out: OptOutObject }),
);

/** The `contact` object; `created` and `updated` in unix seconds. */
export function renderContact(doc: WithId<ContactDoc>): ContactObject {
  return {
    id: doc._id,
    object: 'contact' as const,
    livemode: doc.livemode,
    phone: doc.phone ?? null,
    name: doc.name ?? null,
    external_id: doc.external_id ?? null,
    do_not_call: doc.do_not_call,
    opt_outs: renderOptOuts(doc),
    created: doc.created,
    updated: seconds(doc.updated_ms)!,
  };
}

/** The `record` object as the API answers it (the OpenAPI component `Record`). */
export const RecordObject = apiObject(
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

/** The `record` object: `data` a flat object, `occurred_at` / `created` / `updated` in unix seconds. */
export function renderRecord(doc: WithId<ContactRecordDoc>): z.output<typeof RecordObject> {
  return {
    id: doc._id,
    object: 'record' as const,
    livemode: doc.livemode,
    contact_id: doc.contact_id,
    type: doc.type ?? null,
    title: doc.title ?? null,
    text: doc.text,
    data: JSON.parse(doc.data_json ?? '{}') as Record<string, string | number | boolean | null>,
    occurred_at: seconds(doc.occurred_ms),
    external_id: doc.external_id ?? null,
    created: doc.created,
    updated: seconds(doc.updated_ms)!,
  };
}
