/**
 * SIP trunks (`trk_…`, object `sip_trunk`): an organization's own carrier, reached through a Twilio BYOC
 * trunk (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc). Written by
 * src/services/sip-trunks.ts only: inserted `pending` by `POST /v1/sip_trunks` while its numbers are
 * claimed and (live) its Connection Policy and BYOC trunk are made in the organization's Twilio account,
 * then completed; updated by `POST /v1/sip_trunks/{id}`; deleted by `DELETE /v1/sip_trunks/{id}`.
 *
 * The numbers a trunk carries are not stored here: each is a phone number row (src/models/conversations.ts,
 * `source: "sip_trunk"`, `sip_trunk_id` this trunk), so the rules of numbers hold for them unchanged (one
 * organization per live number, caller ID, inbound routing, the dialing permissions' countries).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

const sipTrunkSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, default: null },
    /** `sip:<carrier host>[:port][;params]` (src/shared/sip-trunks.ts `parseTerminationUri`). */
    termination_uri: { type: String, required: true },
    /** SIP digest credentials the carrier challenges with; the password sealed (src/secrets.ts), never shown. */
    username: { type: String, default: null },
    password: { type: String, default: null },
    /** The agent that answers calls arriving on the trunk's numbers (set on each number row), or null. */
    agent_id: { type: String, default: null },
    /** Or the squad that answers them (`sqd_…`, set on each number row instead of `agent_id`), or null. */
    squad_id: { type: String, default: null },
    /**
     * True until the trunk is complete: its numbers claimed and, live, its Twilio resources made. Not
     * listed, dials nothing; a retry of the same request (same id) finishes it, finding at Twilio what an
     * earlier attempt made by its FriendlyName.
     */
    pending: { type: Boolean, default: false },
    /** Twilio's Connection Policy (`NY…`), its target (`NE…`) and BYOC trunk (`BY…`); null in test mode. */
    connection_policy_sid: { type: String, default: null },
    target_sid: { type: String, default: null },
    byoc_trunk_sid: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
sipTrunkSchema.index({ org_id: 1, livemode: 1, _id: -1 });
/** An organization's SIP trunks (collection `sip_trunks`; src/services/sip-trunks.ts), listed newest first per tenant. */
export const SipTrunk = mongoose.model('SipTrunk', sipTrunkSchema, 'sip_trunks');
export type SipTrunkDoc = InferSchemaType<typeof sipTrunkSchema>;

/** The `sip_trunk` object as the API answers it (the OpenAPI component `SipTrunk`). */
export const SipTrunkObject = apiObject(
  'SipTrunk',
  "The organization's own carrier (bring your own carrier): calls from its numbers dial out through it, calls arriving from it are answered like calls to its numbers.",
  z.object({
    id: z.string(),
    object: z.literal('sip_trunk'),
    livemode: z.boolean(),
    name: z.string().nullable(),
    termination_uri: z
      .string()
      .describe(
        'Where calls from its numbers go: `sip:<carrier host>[:port][;transport=…]`, dialed as `sip:<E.164>@<host>`.',
      ),
    username: z.string().nullable().describe('The SIP username the carrier challenges for; null: none.'),
    password_set: z.boolean().describe('Whether a SIP password is stored (it is never shown).'),
    numbers: z
      .array(z.string())
      .describe('The E.164 numbers it carries, each one of the organization\'s phone numbers (`source: "sip_trunk"`).'),
    agent_id: z.string().nullable().describe('The agent that answers calls to its numbers (set on each number).'),
    squad_id: z
      .string()
      .nullable()
      .describe(
        'Or the squad that answers them (set on each number instead of `agent_id`): the calls start with its start member and hand off.',
      ),
    byoc_trunk_sid: z
      .string()
      .nullable()
      .describe("The BYOC trunk in the organization's Twilio account (`BY…`); null in test mode."),
    created: unix,
  }),
);

/** The SIP trunk object; `numbers` are the E.164 numbers of its phone number rows. */
export function renderSipTrunk(doc: WithId<SipTrunkDoc>, numbers: string[]): z.output<typeof SipTrunkObject> {
  return {
    id: doc._id,
    object: 'sip_trunk' as const,
    livemode: doc.livemode,
    name: doc.name ?? null,
    termination_uri: doc.termination_uri,
    username: doc.username ?? null,
    password_set: Boolean(doc.password),
    numbers,
    agent_id: doc.agent_id ?? null,
    squad_id: doc.squad_id ?? null,
    byoc_trunk_sid: doc.byoc_trunk_sid ?? null,
    created: doc.created,
  };
}
