/**
 * Numbers for sale (beyond the specification; scope `phone_numbers:read`):
 *
 *   GET /v1/available_phone_numbers?country=US&area_code=415&contains=&type=local|mobile|toll_free&limit=
 *
 * Live keys: Twilio's AvailablePhoneNumbers resource, asked in the organization's account
 * (https://www.twilio.com/docs/phone-numbers/api/availablephonenumber-resource); a number listed can be
 * bought with `POST /v1/phone_numbers`. Test keys: a simulated list (`simulatedAvailable`), no Twilio.
 */
import type { Router } from 'express';
import { z } from 'zod';
import { invalidParam, TwilioRefusedError } from '../errors';
import { AvailablePhoneNumberObject } from '../models/caller-ids';
import { listOf } from '../models/wire';
import { listAvailableNumbers, twilioRefusal, type AvailableNumber } from '../providers/twilio-numbers';
import { requireTelephony } from '../services/call-requests';
import { orgTelephony } from '../services/number-provisioning';
import { AVAILABLE_NUMBER_TYPES, type AvailableNumberType } from '../shared/phone-numbers';
import { operation, operationsRouter } from './operations';

/** The parsed query of a search. */
interface NumberSearch {
  country: string;
  type: AvailableNumberType;
  areaCode?: number;
  contains?: string;
  limit: number;
}

/**
 * Parses and checks the query: `country` ISO 3166 alpha-2 (default `US`), `type` (default `local`),
 * `area_code` three digits (US and CA numbers only, as Twilio takes it), `contains` 1–16 of digits,
 * letters and `*` (Twilio's pattern), `limit` 1–50 (default 20).
 * @throws ApiError 400 `parameter_invalid` naming the parameter
 */
function parseSearch(q: Record<string, unknown>): NumberSearch {
  const str = (name: string) => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw invalidParam(name, `Invalid ${name}: give it once.`);
    return v;
  };
  const country = (str('country') ?? 'US').toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw invalidParam('country', 'Invalid country: an ISO 3166 alpha-2 code, like US.');
  const type = (str('type') ?? 'local') as AvailableNumberType;
  if (!AVAILABLE_NUMBER_TYPES.includes(type))
    throw invalidParam('type', `Invalid type: one of ${AVAILABLE_NUMBER_TYPES.join(', ')}.`);
  const area = str('area_code');
  if (area !== undefined && !/^[2-9]\d{2}$/.test(area))
    throw invalidParam('area_code', 'Invalid area_code: three digits, like 415.');
  if (area !== undefined && !['US', 'CA'].includes(country))
    throw invalidParam('area_code', 'area_code is only taken for US and CA numbers.');
  const contains = str('contains') || undefined;
  if (contains !== undefined && !/^[0-9A-Za-z*]{1,16}$/.test(contains))
    throw invalidParam('contains', 'Invalid contains: 1 to 16 digits, letters or * (any digit).');
  const limitText = str('limit');
  const limit = limitText === undefined ? 20 : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '20') || limit < 1 || limit > 50)
    throw invalidParam('limit', 'Invalid limit: must be an integer from 1 to 50.');
  return { country, type, ...(area ? { areaCode: Number(area) } : {}), ...(contains ? { contains } : {}), limit };
}

/**
 * The test-mode list: ten made-up numbers of the area code (default 415; 800 for `toll_free`):
 * `+1<area>55501<00–09>` local, `+1<area>55502<00–09>` mobile, those containing `contains` (its digits,
 * `*` any digit), at most `limit`. Any number may be added in test mode; these are for trying the flow.
 */
export function simulatedAvailable(s: NumberSearch): AvailableNumber[] {
  const area = s.type === 'toll_free' ? '800' : String(s.areaCode ?? 415);
  const block = s.type === 'mobile' ? '02' : '01';
  const pattern = s.contains ? new RegExp(s.contains.replace(/[^0-9*]/g, '').replace(/\*/g, '\\d')) : null;
  return Array.from({ length: 10 }, (_, i) => `+1${area}555${block}0${i}`)
    .filter((n) => !pattern || pattern.test(n.slice(2)))
    .slice(0, s.limit)
    .map((n) => ({
      phoneNumber: n,
      friendlyName: `(${n.slice(2, 5)}) ${n.slice(5, 8)}-${n.slice(8)}`,
      locality: null,
      region: null,
      isoCountry: s.country,
      capabilities: { voice: true, sms: true, mms: s.type !== 'toll_free' },
    }));
}

/** `GET /v1/available_phone_numbers` → a list of `available_phone_number` (one page: `has_more` false). */
const listAvailable = operation({
  method: 'get',
  path: '/v1/available_phone_numbers',
  operationId: 'listAvailablePhoneNumbers',
  errors: { '400': ['phone_number_search_failed'], '503': ['telephony_not_configured'] },
  tag: 'Messaging',
  summary: 'Search numbers for sale',
  description:
    "Live keys: Twilio's AvailablePhoneNumbers in the organization's account (Twilio's refusal is 400 `phone_number_search_failed` with `twilio_code`). Test keys: ten simulated numbers `+1<area>55501<00–09>` (local), `…55502…` (mobile), `+1800555010x` (toll_free).",
  scope: 'phone_numbers:read',
  query: [
    { name: 'country', description: 'ISO 3166 alpha-2 country (default US).', schema: z.string() },
    { name: 'type', description: 'local (default), mobile or toll_free.', schema: z.enum(AVAILABLE_NUMBER_TYPES) },
    { name: 'area_code', description: 'Three digits; US and CA only.', schema: z.string().regex(/^[2-9]\d{2}$/) },
    { name: 'contains', description: 'Digits, letters or * (any digit) the number contains.', schema: z.string() },
    { name: 'limit', description: 'How many, 1–50 (default 20).', schema: z.string().regex(/^\d+$/) },
  ],
  response: listOf(AvailablePhoneNumberObject),
  handler: async (req, res) => {
    const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
    const search = parseSearch(req.query as Record<string, unknown>);
    requireTelephony(tenant);
    let found: AvailableNumber[];
    if (!tenant.livemode) found = simulatedAvailable(search);
    else {
      try {
        found = await listAvailableNumbers((await orgTelephony(tenant.orgId)).client, search);
      } catch (err) {
        const refusal = twilioRefusal(err);
        if (!refusal) throw err;
        throw new TwilioRefusedError(
          400,
          'phone_number_search_failed',
          `Twilio refused the search${refusal.code ? ` (error ${refusal.code})` : ''}: ${refusal.message}`,
          refusal.status === 404 ? 'country' : 'type',
          refusal.code,
          refusal.message,
        );
      }
    }
    res.json({
      object: 'list',
      data: found.map((n) => ({
        object: 'available_phone_number' as const,
        number: n.phoneNumber,
        friendly_name: n.friendlyName,
        locality: n.locality,
        region: n.region,
        country: n.isoCountry,
        type: search.type,
        capabilities: n.capabilities,
      })),
      has_more: false,
      url: '/v1/available_phone_numbers',
    });
  },
});

/** Routes under `/v1/available_phone_numbers`. */
export function availablePhoneNumbersRouter(): Router {
  return operationsRouter('/v1/available_phone_numbers', [listAvailable]);
}
