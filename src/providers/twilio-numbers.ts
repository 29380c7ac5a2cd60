/**
 * Twilio's number resources through the `twilio` package, each on the REST client of the account it acts
 * in (the caller passes it):
 * - AvailablePhoneNumbers (`Local`, `Mobile`, `TollFree` lists of a country):
 *   https://www.twilio.com/docs/phone-numbers/api/availablephonenumber-resource
 * - IncomingPhoneNumbers (the account's numbers: list filtered by `PhoneNumber`, create = buy, update,
 *   remove = release): https://www.twilio.com/docs/phone-numbers/api/incomingphonenumber-resource
 * - OutgoingCallerIds (verified caller IDs: list filtered by `PhoneNumber`, remove) and ValidationRequests
 *   (start a verification call): https://www.twilio.com/docs/voice/api/outgoing-caller-ids
 */
import type twilio from 'twilio';
import type { AvailableNumberType } from '../shared/phone-numbers';

type TwilioClient = twilio.Twilio;

/** Twilio's refusal of a request (an HTTP 4xx other than 429): its error code and message. */
export interface TwilioRefusal {
  status: number;
  code: number | null;
  message: string;
}

/**
 * The refusal `err` carries when it is Twilio's 4xx answer (the package's RestException: `status`,
 * `code`, `message`), else null (a 5xx, 429, timeout or network error: worth a retry).
 */
export function twilioRefusal(err: unknown): TwilioRefusal | null {
  const e = err as { status?: number; code?: number; message?: string };
  if (!e || typeof e.status !== 'number' || e.status < 400 || e.status >= 500 || e.status === 429) return null;
  return { status: e.status, code: typeof e.code === 'number' ? e.code : null, message: String(e.message ?? '') };
}

/** A number Twilio offers for purchase. */
export interface AvailableNumber {
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
  region: string | null;
  isoCountry: string;
  capabilities: { voice: boolean; sms: boolean; mms: boolean };
}

/**
 * Up to `limit` numbers of `type` in `country` (ISO 3166 alpha-2) Twilio offers, filtered by `areaCode`
 * (US/CA) and `contains` (digits, letters or `*` wildcards, as Twilio takes it).
 */
export async function listAvailableNumbers(
  client: TwilioClient,
  q: { country: string; type: AvailableNumberType; areaCode?: number; contains?: string; limit: number },
): Promise<AvailableNumber[]> {
  const country = client.availablePhoneNumbers(q.country);
  const opts = {
    ...(q.areaCode !== undefined ? { areaCode: q.areaCode } : {}),
    ...(q.contains ? { contains: q.contains } : {}),
    limit: q.limit,
  };
  const list =
    q.type === 'local'
      ? await country.local.list(opts)
      : q.type === 'mobile'
        ? await country.mobile.list(opts)
        : await country.tollFree.list(opts);
  return list.map((n) => {
    // The package passes the payload's `capabilities` through, whose keys Twilio spells `voice`, `SMS`, `MMS`.
    const c = (n.capabilities ?? {}) as unknown as Record<string, unknown>;
    return {
      phoneNumber: n.phoneNumber,
      friendlyName: n.friendlyName,
      locality: n.locality || null,
      region: n.region || null,
      isoCountry: n.isoCountry,
      capabilities: { voice: Boolean(c.voice), sms: Boolean(c.SMS ?? c.sms), mms: Boolean(c.MMS ?? c.mms) },
    };
  });
}

/** The URLs an IncomingPhoneNumber sends its calls, messages and call statuses to. */
export interface NumberUrls {
  voiceUrl: string;
  smsUrl: string;
  statusCallback: string;
}

/** The account's IncomingPhoneNumber for `number` (E.164), or null when the account does not hold it. */
export async function findIncomingNumber(
  client: TwilioClient,
  number: string,
): Promise<({ sid: string } & NumberUrls) | null> {
  const [found] = (await client.incomingPhoneNumbers.list({ phoneNumber: number, limit: 20 })).filter(
    (n) => n.phoneNumber === number,
  );
  return found
    ? { sid: found.sid, voiceUrl: found.voiceUrl, smsUrl: found.smsUrl, statusCallback: found.statusCallback }
    : null;
}

/** Buys `number` into the account, its calls and messages sent to `urls` (POST, Twilio's default). */
export async function buyNumber(
  client: TwilioClient,
  number: string,
  urls: NumberUrls,
  friendlyName: string,
): Promise<{ sid: string }> {
  const bought = await client.incomingPhoneNumbers.create({
    phoneNumber: number,
    friendlyName,
    voiceUrl: urls.voiceUrl,
    voiceMethod: 'POST',
    smsUrl: urls.smsUrl,
    smsMethod: 'POST',
    statusCallback: urls.statusCallback,
    statusCallbackMethod: 'POST',
  });
  return { sid: bought.sid };
}

/** Points an IncomingPhoneNumber's calls, messages and call statuses at `urls`. */
export async function pointNumber(client: TwilioClient, sid: string, urls: NumberUrls): Promise<void> {
  await client.incomingPhoneNumbers(sid).update({
    voiceUrl: urls.voiceUrl,
    voiceMethod: 'POST',
    smsUrl: urls.smsUrl,
    smsMethod: 'POST',
    statusCallback: urls.statusCallback,
    statusCallbackMethod: 'POST',
  });
}

/** Releases an IncomingPhoneNumber (the account stops paying for it); one already gone (404) is no error. */
export async function releaseNumber(client: TwilioClient, sid: string): Promise<void> {
  try {
    await client.incomingPhoneNumbers(sid).remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}

/** The account's verified caller ID (OutgoingCallerId SID) for `number`, or null. */
export async function findOutgoingCallerId(client: TwilioClient, number: string): Promise<string | null> {
  const [found] = (await client.outgoingCallerIds.list({ phoneNumber: number, limit: 20 })).filter(
    (c) => c.phoneNumber === number,
  );
  return found?.sid ?? null;
}

/**
 * Starts Twilio's verification of `number` as a caller ID: Twilio calls it and asks for the code answered
 * here (ValidationRequests create).
 */
export async function requestValidation(
  client: TwilioClient,
  number: string,
  friendlyName: string | null,
): Promise<{ validationCode: string; callSid: string | null }> {
  const v = await client.validationRequests.create({
    phoneNumber: number,
    ...(friendlyName ? { friendlyName } : {}),
  });
  return { validationCode: String(v.validationCode), callSid: v.callSid ?? null };
}

/** Removes a verified caller ID from the account; one already gone (404) is no error. */
export async function removeOutgoingCallerId(client: TwilioClient, sid: string): Promise<void> {
  try {
    await client.outgoingCallerIds(sid).remove();
  } catch (err) {
    if ((err as { status?: number }).status !== 404) throw err;
  }
}
