/**
 * Caller IDs (`cid_…`, object `caller_id`), and the `available_phone_number` object of the number search: numbers an organization may show as `from` on its live calls
 * besides its own voice numbers, once verified through Twilio's Outgoing Caller IDs flow
 * (https://www.twilio.com/docs/voice/api/outgoing-caller-ids). Written by src/services/caller-ids.ts only:
 * inserted `pending` by `POST /v1/caller_ids` (with the validation code Twilio's verification call asks
 * for), moved to `verified` once the organization's Twilio account lists the number among its
 * OutgoingCallerIds, deleted by `DELETE /v1/caller_ids/{id}`.
 *
 * One row per number per organization and mode (a unique index): two organizations may each verify the
 * same number, each in its own Twilio account.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

export const CALLER_ID_STATUSES = ['pending', 'verified'] as const;

const callerIdSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** E.164. */
    phone_number: { type: String, required: true },
    friendly_name: { type: String, default: null },
    status: { type: String, enum: CALLER_ID_STATUSES, required: true },
    /** The code the person enters on Twilio's verification call (ValidationRequests' `validation_code`); null once verified. */
    validation_code: { type: String, default: null },
    /** The SID of Twilio's verification call (`CA…`), or null. */
    validation_call_sid: { type: String, default: null },
    /** Twilio's OutgoingCallerId SID (`PN…`) once verified; null in test mode. */
    twilio_sid: { type: String, default: null },
    /**
     * The Twilio account the caller ID was verified in (`AC…`; an OutgoingCallerId belongs to one
     * account); null in test mode, and on rows verified before the account was recorded (taken to be of
     * the account in use).
     */
    account_sid: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
callerIdSchema.index({ org_id: 1, livemode: 1, phone_number: 1 }, { unique: true });
callerIdSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const CallerId = mongoose.model('CallerId', callerIdSchema, 'caller_ids');
export type CallerIdDoc = InferSchemaType<typeof callerIdSchema>;

/** The `caller_id` object as the API answers it (the OpenAPI component `CallerId`). */
export const CallerIdObject = apiObject(
  'CallerId',
  'A number the organization may call from once verified through Twilio’s Outgoing Caller IDs flow.',
  z.object({
    id: z.string(),
    object: z.literal('caller_id'),
    livemode: z.boolean(),
    phone_number: z.string().describe('E.164.'),
    friendly_name: z.string().nullable(),
    status: z
      .enum(CALLER_ID_STATUSES)
      .describe(
        '`pending` until the person answered Twilio’s verification call and entered `validation_code`; `verified`: live calls may use it as `from`.',
      ),
    validation_code: z
      .string()
      .nullable()
      .describe('The code to enter on Twilio’s verification call (show it to the person); null once verified.'),
    account_sid: z
      .string()
      .nullable()
      .describe(
        'The Twilio account the caller ID was verified in (`AC…`): your subaccount, or your connected own account; null in test mode.',
      ),
    active: z
      .boolean()
      .describe(
        'Whether live calls may show it as `from` now: verified, in the Twilio account your telephony runs in. A caller ID verified in another account (before you connected or disconnected your own Twilio account) is inactive until that account lists it too: verify it again (`POST /v1/caller_ids`).',
      ),
    created: unix,
  }),
);

/**
 * Whether caller ID `doc` belongs to the Twilio account in use `inUse` (src/services/telephony-accounts.ts
 * `accountInUse`): a test-mode one always, a live one recorded under that account or under none.
 */
export const inAccountInUse = (doc: Pick<CallerIdDoc, 'livemode' | 'account_sid'>, inUse: string | null): boolean =>
  !doc.livemode || !doc.account_sid || doc.account_sid === inUse;

/** The caller ID object; `inUse`: the SID of the organization's account in use (`active`). */
export function renderCallerId(doc: WithId<CallerIdDoc>, inUse: string | null): z.output<typeof CallerIdObject> {
  return {
    id: doc._id,
    object: 'caller_id' as const,
    livemode: doc.livemode,
    phone_number: doc.phone_number,
    friendly_name: doc.friendly_name ?? null,
    status: doc.status as (typeof CALLER_ID_STATUSES)[number],
    validation_code: doc.status === 'verified' ? null : (doc.validation_code ?? null),
    account_sid: doc.account_sid ?? null,
    active: doc.status === 'verified' && inAccountInUse(doc, inUse),
    created: doc.created,
  };
}

/**
 * A number for sale as `GET /v1/available_phone_numbers` lists it (the OpenAPI component
 * `AvailablePhoneNumber`; Twilio's AvailablePhoneNumbers resource, not stored).
 */
export const AvailablePhoneNumberObject = apiObject(
  'AvailablePhoneNumber',
  'A number for sale: `POST /v1/phone_numbers` with its `number` buys it.',
  z.object({
    object: z.literal('available_phone_number'),
    number: z.string().describe('E.164.'),
    friendly_name: z.string(),
    locality: z.string().nullable(),
    region: z.string().nullable(),
    country: z.string().describe('ISO 3166 alpha-2.'),
    type: z.enum(['local', 'mobile', 'toll_free']),
    capabilities: z.object({ voice: z.boolean(), sms: z.boolean(), mms: z.boolean() }),
  }),
);
