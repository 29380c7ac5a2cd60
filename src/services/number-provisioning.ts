/**
 * Live numbers with proof: a number is the organization's only once its Twilio account holds it, bought
 * through the service or imported from what the account already held
 * (https://www.twilio.com/docs/phone-numbers/api/incomingphonenumber-resource).
 *
 * `POST /v1/phone_numbers` (live key) stores the number `pending` first: the row takes the number's
 * `route_key` (`live:<number>`, unique), so no other organization can take the number meanwhile and a
 * number another organization holds is refused before Twilio is asked. Then the number's provisioning
 * workflow (src/workflows/phone-numbers.ts) runs `provisionNumber` below, which:
 * 1. looks the number up in the organization's account (IncomingPhoneNumbers filtered by `PhoneNumber`):
 *    held → the number is the organization's (`imported`, its Voice/SMS URLs pointed at the service; or
 *    `bought` when the row says a purchase was asked: an earlier attempt bought it and died before
 *    storing);
 * 2. not held, and the account is the organization's own connected account → refused
 *    (`phone_number_not_owned`), the row deleted;
 * 3. not held, a platform subaccount → marks the row `buying`, then buys it (IncomingPhoneNumbers create,
 *    Voice/SMS URLs and status callback set to the service's webhooks under `PUBLIC_BASE_URL`); Twilio's
 *    refusal (no such number, region rules, address required) deletes the row and is answered with
 *    Twilio's code and message (`phone_number_purchase_failed`).
 * A retry after a crash at any point repeats the lookup first, so a number is bought at most once, and a
 * row stays only for a number the account holds.
 */
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { config } from '../config';
import { ApiError, TwilioRefusedError } from '../errors';
import { PhoneNumber, type PhoneNumberDoc } from '../models/conversations';
import { isDuplicateKey, type WithId } from '../models/store';
import type twilio from 'twilio';
import { clientWith } from '../providers/twilio';
import { accountCredentials } from './telephony-accounts';
import {
  buyNumber,
  findIncomingNumber,
  pointNumber,
  releaseNumber,
  twilioRefusal,
  type NumberUrls,
} from '../providers/twilio-numbers';
import { TELEPHONY_REJECTED } from '../shared/calls';
import {
  PHONE_NUMBER_PROVISION_WORKFLOW,
  provisionWorkflowId,
  type PhoneNumberProvisionWorkflow,
  type ProvisionNumberInput,
  type ProvisionOutcome,
  type ProvisionRefusal,
} from '../shared/phone-numbers';

/**
 * The organization's telephony account (src/services/telephony-accounts.ts): its REST client and whether
 * the account is its subaccount of the platform (numbers may be bought in it, the subaccount created on
 * first use) or the organization's own connected account (numbers only imported).
 * @throws like `accountCredentials` (`TelephonyRejected` when Twilio is not configured or refuses)
 */
export async function orgTelephony(
  orgId: string,
): Promise<{ client: twilio.Twilio; accountSid: string; mode: 'subaccount' | 'connected' }> {
  const creds = await accountCredentials(orgId);
  return { client: clientWith(creds), accountSid: creds.accountSid, mode: creds.mode };
}

/**
 * The service's webhooks a live number sends to (under `PUBLIC_BASE_URL`, the base every Twilio callback
 * of the service uses): inbound calls `/twilio/voice/inbound`, messages `/twilio/messaging`, inbound call
 * statuses `/twilio/status/inbound`.
 */
export function serviceNumberUrls(): NumberUrls {
  const base = config().publicBaseUrl;
  return {
    voiceUrl: `${base}/twilio/voice/inbound`,
    smsUrl: `${base}/twilio/messaging`,
    statusCallback: `${base}/twilio/status/inbound`,
  };
}

/** The refusal of a number the organization cannot have (connected account that does not hold it, or held elsewhere). */
export function notOwned(number: string): ProvisionRefusal {
  return {
    ok: false,
    code: 'phone_number_not_owned',
    message: `${number} is not a number your organization's Twilio account holds.`,
    twilioCode: null,
    twilioMessage: null,
  };
}

/**
 * Twilio's answer to buying a number that is not for sale (error 21422), as the service answers it: also
 * what a number another organization holds is answered with in a subaccount, so the answer never tells
 * that some tenant holds it.
 */
export function notAvailable(number: string): ProvisionRefusal {
  return purchaseRefused(number, { code: NOT_AVAILABLE, message: '' });
}

/** Twilio's error code for a number that cannot be bought (https://www.twilio.com/docs/api/errors/21422). */
const NOT_AVAILABLE = 21422;

/**
 * Twilio's refusal to sell `number`, as the API answers it. Error 21422 (not available) is answered with
 * one fixed message, whatever Twilio's wording, so that it cannot be told apart from `notAvailable`.
 */
function purchaseRefused(number: string, given: { code: number | null; message: string }): ProvisionRefusal {
  const refusal =
    given.code === NOT_AVAILABLE ? { code: NOT_AVAILABLE, message: `Phone number ${number} is not available.` } : given;
  return {
    ok: false,
    code: 'phone_number_purchase_failed',
    message: `Twilio refused to sell ${number}${refusal.code ? ` (error ${refusal.code})` : ''}: ${refusal.message}`,
    twilioCode: refusal.code,
    twilioMessage: refusal.message,
  };
}

/**
 * Completes pending number `input.phoneNumberId` as the module's comment says (the provisioning
 * workflow's one activity). Idempotent: a row no longer pending answers what it holds; a row gone (a
 * refusal already answered) answers the refusal again.
 * @throws Error for what a retry may cure (the store, Twilio's 5xx, timeouts); ApplicationFailure
 *   `TelephonyRejected` (not retried) when Twilio refuses the lookup itself (bad credentials)
 */
export async function provisionNumber(input: ProvisionNumberInput): Promise<ProvisionOutcome> {
  const row = await PhoneNumber.findById(input.phoneNumberId).lean();
  if (!row) return notOwned(input.number);
  if (!row.pending && row.twilio_sid)
    return { ok: true, source: row.source === 'bought' ? 'bought' : 'imported', twilioSid: row.twilio_sid };
  const account = await orgTelephony(input.orgId);
  const urls = serviceNumberUrls();
  const held = await refusedAsFailure(() => findIncomingNumber(account.client, input.number));
  if (held) {
    const source = row.buying ? 'bought' : 'imported';
    let previous: string | null = null;
    if (source === 'imported') {
      // Kept before the URLs change, so a retry after the change does not take the service's for the old ones.
      previous = row.previous_urls_json ?? JSON.stringify(pick(held));
      if (!row.previous_urls_json)
        await PhoneNumber.updateOne({ _id: row._id }, { $set: { previous_urls_json: previous } });
      await refusedAsFailure(() => pointNumber(account.client, held.sid, urls));
    }
    await storeProvisioned(row, {
      source,
      twilio_sid: held.sid,
      previous_urls_json: previous,
      account_sid: account.accountSid,
    });
    return { ok: true, source, twilioSid: held.sid };
  }
  if (account.mode === 'connected') {
    await PhoneNumber.deleteOne({ _id: row._id, pending: true });
    return notOwned(input.number);
  }
  await PhoneNumber.updateOne({ _id: row._id }, { $set: { buying: true } });
  let bought: { sid: string };
  try {
    bought = await buyNumber(account.client, input.number, urls, row._id);
  } catch (err) {
    const refusal = twilioRefusal(err);
    if (!refusal) throw err;
    await PhoneNumber.deleteOne({ _id: row._id, pending: true });
    return purchaseRefused(input.number, refusal);
  }
  await storeProvisioned(row, {
    source: 'bought',
    twilio_sid: bought.sid,
    previous_urls_json: null,
    account_sid: account.accountSid,
  });
  return { ok: true, source: 'bought', twilioSid: bought.sid };
}

const pick = (n: NumberUrls): NumberUrls => ({
  voiceUrl: n.voiceUrl,
  smsUrl: n.smsUrl,
  statusCallback: n.statusCallback,
});

async function storeProvisioned(
  row: WithId<PhoneNumberDoc>,
  set: { source: 'bought' | 'imported'; twilio_sid: string; previous_urls_json: string | null; account_sid: string },
): Promise<void> {
  await PhoneNumber.updateOne({ _id: row._id }, { $set: { ...set, pending: false, buying: false } });
}

/** Runs a Twilio request; its 4xx refusal becomes a non-retried `TelephonyRejected` failure. */
async function refusedAsFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const refusal = twilioRefusal(err);
    if (refusal)
      throw ApplicationFailure.nonRetryable(
        `Twilio refused the request (${refusal.status}${refusal.code ? `, error ${refusal.code}` : ''}): ${refusal.message}`,
        TELEPHONY_REJECTED,
      );
    throw err;
  }
}

/**
 * Gives a live number back as `DELETE /v1/phone_numbers/{id}` asks: a `bought` number is released at
 * Twilio (IncomingPhoneNumbers remove; the account stops paying), an `imported` one gets back the URLs
 * it had before it was imported (or keeps the service's, when none were recorded) and stays in the
 * account. Numbers of other sources are only detached by the caller.
 * @throws Twilio's errors (the caller keeps the row, so a retried DELETE finishes the work)
 */
export async function giveBackNumber(row: WithId<PhoneNumberDoc>): Promise<void> {
  if (!row.livemode || !row.twilio_sid) return;
  const account = await orgTelephony(row.org_id);
  if (row.source === 'bought') return await releaseNumber(account.client, row.twilio_sid);
  if (row.source === 'imported' && row.previous_urls_json) {
    try {
      await pointNumber(account.client, row.twilio_sid, JSON.parse(row.previous_urls_json) as NumberUrls);
    } catch (err) {
      // A number the account no longer holds has nothing to give back.
      if ((err as { status?: number }).status !== 404) throw err;
    }
  }
}

/**
 * Stores live number `doc` (a new row, `pending`) and runs its provisioning workflow to the end
 * (`POST /v1/phone_numbers` with a live key). The row takes the number's `route_key` first: a number this
 * organization already has is 409 `phone_number_already_connected`; a number another organization holds
 * is answered as if the account could not have it (`phone_number_not_owned` for a connected account,
 * Twilio's "not available" for a subaccount), so the answer never tells that a tenant holds it. A retry
 * of the same request (same id) finds its own row and waits for the same workflow.
 * @returns the stored number
 * @throws ApiError 409; TwilioRefusedError 400 `phone_number_not_owned` / `phone_number_purchase_failed`
 *   naming `number` (nothing stored)
 */
export async function provisionLiveNumber(
  temporal: Client,
  doc: WithId<PhoneNumberDoc>,
  taskQueue: string,
): Promise<WithId<PhoneNumberDoc>> {
  try {
    await PhoneNumber.collection.insertOne({ ...doc, pending: true, buying: false } as never);
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const holder = await PhoneNumber.findOne({ route_key: doc.route_key }).lean();
    if (holder && holder._id !== doc._id) {
      if (holder.org_id === doc.org_id)
        throw new ApiError(
          409,
          'invalid_request_error',
          'phone_number_already_connected',
          `${doc.number} is already one of your organization's numbers.`,
          'number',
        );
      const { mode } = await orgTelephony(doc.org_id);
      throw refusalError(mode === 'connected' ? notOwned(doc.number) : notAvailable(doc.number));
    }
  }
  const handle = await temporal.workflow.start<PhoneNumberProvisionWorkflow>(PHONE_NUMBER_PROVISION_WORKFLOW, {
    workflowId: provisionWorkflowId(doc._id),
    taskQueue,
    args: [{ phoneNumberId: doc._id, orgId: doc.org_id, number: doc.number }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: `Provision ${doc.number} for ${doc.org_id}`,
  });
  let outcome: ProvisionOutcome;
  try {
    outcome = await handle.result();
  } catch (err) {
    if (err instanceof WorkflowFailedError) {
      // Twilio refused the lookup itself (bad credentials, a suspended account): nothing is bought.
      await PhoneNumber.deleteOne({ _id: doc._id, pending: true });
      throw new ApiError(
        502,
        'api_error',
        'telephony_unavailable',
        `Twilio refused the number lookup: ${String((err.cause as Error | undefined)?.message ?? err.message)}`,
      );
    }
    throw err;
  }
  if (!outcome.ok) throw refusalError(outcome);
  const stored = await PhoneNumber.findById(doc._id).lean();
  if (!stored) throw refusalError(notOwned(doc.number));
  return stored;
}

/** The API error of a refusal: 400 naming `number`, Twilio's code and message carried. */
function refusalError(r: ProvisionRefusal): TwilioRefusedError {
  return new TwilioRefusedError(400, r.code, r.message, 'number', r.twilioCode, r.twilioMessage);
}
