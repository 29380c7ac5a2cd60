/**
 * Telephony accounts (src/services/telephony-accounts.ts), one document per organization (`_id` = the
 * organization's id), under the rules of src/models/store.ts. Two models live side by side:
 *
 * - the platform's Twilio subaccount of the organization (`subaccount_*`): claimed (`claim_ms`) by the
 *   first live use before it is created at Twilio, then its SID and auth token (sealed, src/secrets.ts),
 *   and the platform account it was created under (`parent_account_sid`);
 * - the organization's own Twilio account (`connected_*`), connected with an API key (its secret sealed)
 *   and the account's auth token (sealed), which only verifies the signatures of its webhooks (Twilio signs
 *   them with the account's auth token; no API key can). While connected, it is the account in use; once
 *   disconnected, the subaccount is again.
 *
 * Secrets are never logged nor returned by the API.
 */
import mongoose, { Schema, InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions } from './store';
import { apiObject, unix } from './wire';

const telephonyAccountSchema = new Schema(
  {
    /** The organization's id. */
    _id: { type: String, required: true },
    /** When a process claimed the subaccount's creation (ms); a claim older than the lease may be taken over. */
    claim_ms: { type: Number, default: null },
    /** The subaccount's SID (`AC…`), once created (or found by its FriendlyName). */
    subaccount_sid: { type: String, default: null },
    /** The subaccount's auth token, sealed. */
    subaccount_token: { type: String, default: null },
    /** The platform account the subaccount was created under (a record under another platform account is stale). */
    parent_account_sid: { type: String, default: null },
    subaccount_created_ms: { type: Number, default: null },
    /** The organization's own account (`AC…`), while connected. */
    connected_sid: { type: String, default: null },
    /** The API key the service acts with in it (`SK…`) and its secret (sealed). */
    connected_key_sid: { type: String, default: null },
    connected_key_secret: { type: String, default: null },
    /** The connected account's auth token (sealed), only to verify its webhooks' `X-Twilio-Signature`. */
    connected_auth_token: { type: String, default: null },
    connected_ms: { type: Number, default: null },
  },
  schemaOptions,
);
/** A webhook names its account (`AccountSid`): the organization it belongs to is found by either SID. */
telephonyAccountSchema.index({ subaccount_sid: 1 });
telephonyAccountSchema.index({ connected_sid: 1 });

export type TelephonyAccountDoc = InferSchemaType<typeof telephonyAccountSchema>;
export const TelephonyAccount = mongoose.model('TelephonyAccount', telephonyAccountSchema, 'telephony_accounts');

/** The `telephony_connection` API object (`GET /v1/telephony/connection`): never a secret. */
export const TelephonyConnectionObject = apiObject(
  'TelephonyConnection',
  "The Twilio account the organization's live calls and messages run in: its subaccount of the platform's account, or its own connected account.",
  z.object({
    object: z.literal('telephony_connection'),
    mode: z
      .enum(['subaccount', 'connected'])
      .describe("`subaccount`: the platform's subaccount of the organization; `connected`: its own Twilio account."),
    account_sid: z
      .string()
      .nullable()
      .describe('The account in use (`AC…`); null while the subaccount is not created yet (it is on first live use).'),
    created: unix.nullable().describe('When that account was created or connected; null likewise.'),
  }),
);
