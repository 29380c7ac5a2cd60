/**
 * The organization's do-not-call list (TCPA 47 CFR 64.1200(d): a seller keeps a list of the people who
 * asked not to be called, and honours it), per mode:
 *
 *   POST   /v1/do_not_call           `{numbers: [E.164…]}` or `{csv}`: lists the numbers (contacts:write, Idempotency-Key)
 *   GET    /v1/do_not_call           the entries, newest first; filter `phone` (contacts:read)
 *   GET    /v1/do_not_call/{phone}   the entry of a number, 404 when it is not listed (contacts:read)
 *   DELETE /v1/do_not_call/{phone}   takes the number off the list (contacts:write)
 *
 * A listed number is never dialed by a campaign (its row ends `do_not_call`); the check lives in
 * src/services/do-not-call.ts `blockedPhones`, with the contacts marked `do_not_call` and the operator's
 * national registry copy. Up to 100,000 numbers a request, so the body has its own 4 MB limit.
 */
import { Router } from 'express';
import { z } from 'zod';
import { ApiError, invalidParam, notFound } from '../errors';
import {
  DoNotCallDeletedObject,
  DoNotCallEntry,
  DoNotCallEntryObject,
  DoNotCallImportObject,
  renderDoNotCallEntry,
} from '../models/do-not-call';
import { listOf } from '../models/wire';
import {
  addDoNotCall,
  DncInputError,
  findDoNotCall,
  MAX_DNC_PER_REQUEST,
  parseDncCsv,
  removeDoNotCall,
} from '../services/do-not-call';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { authenticate, largeJsonBody, requireScope } from './middleware';
import { operation, operationsRouter } from './operations';
import { e164, isE164 } from './validation';

/** The body limit of `POST /v1/do_not_call`: 100,000 numbers of 16 characters, quoted, with room to spare. */
const DNC_BODY_LIMIT = '4mb';

const importSchema = z
  .strictObject({
    numbers: z
      .array(e164)
      .min(1, 'must have at least one number')
      .max(MAX_DNC_PER_REQUEST, `must have at most ${MAX_DNC_PER_REQUEST} numbers`)
      .optional()
      .describe('Numbers to list, E.164.'),
    csv: z
      .string()
      .min(1, 'must not be empty')
      .optional()
      .describe(
        'A CSV of numbers: a header row naming a `phone` (or `number`) column, else the first field of each row.',
      ),
  })
  .refine((b) => (b.numbers === undefined) !== (b.csv === undefined), {
    message: 'give exactly one of numbers or csv',
    path: ['numbers'],
  });

const tag = 'Do not call';

/** The E.164 number of the path's `{phone}` (URL-encoded `+` as `%2B`), or 400 naming `phone`. */
function pathPhone(raw: unknown): string {
  const phone = String(raw);
  if (!isE164(phone))
    throw invalidParam(
      'phone',
      'Invalid phone: must be a phone number in E.164 format, like +14155550123 (%2B14155550123 in a path).',
    );
  return phone;
}

/**
 * `POST /v1/do_not_call` `{numbers}` | `{csv}` → `do_not_call_import` `{received, added, already_listed}`.
 * Every number is checked before any is listed: 400 naming `numbers[3]`, or `csv` with the line, and
 * nothing listed. A number listed already is left as it was.
 */
const importNumbers = operation({
  method: 'post',
  path: '/v1/do_not_call',
  operationId: 'addDoNotCallNumbers',
  tag,
  summary: 'List numbers as do-not-call',
  description:
    'Lists up to 100,000 numbers (as `numbers`, or rows of `csv`); no call is ever dialed to a listed number, and a campaign skips it with `result: "do_not_call"`. All or nothing: a bad number is a 400 naming it and lists none.',
  scope: 'contacts:write',
  body: importSchema,
  example: { numbers: ['+14155550123', '+14155550124'] },
  response: DoNotCallImportObject,
  handler: async (req, res, { body }) => {
    let phones: string[];
    try {
      phones = body.numbers ?? parseDncCsv(body.csv!);
    } catch (err) {
      if (err instanceof DncInputError) throw invalidParam('csv', `Invalid csv: ${err.message}`);
      throw err;
    }
    if (phones.length > MAX_DNC_PER_REQUEST)
      throw invalidParam(
        'csv',
        `Invalid csv: it has ${phones.length} numbers; at most ${MAX_DNC_PER_REQUEST} a request.`,
      );
    if (phones.length === 0) throw invalidParam('csv', 'Invalid csv: it has no numbers.');
    await idempotent(req, res, 'dnci', async () => {
      const counts = await addDoNotCall(req.auth!, phones, body.numbers ? 'api' : 'csv');
      return { status: 200, body: { object: 'do_not_call_import', livemode: req.auth!.livemode, ...counts } };
    });
  },
});

/** `GET /v1/do_not_call` → list of `do_not_call_entry`, newest first; filter `phone` (E.164). */
const listNumbers = operation({
  method: 'get',
  path: '/v1/do_not_call',
  operationId: 'listDoNotCallNumbers',
  tag,
  summary: 'List do-not-call numbers',
  scope: 'contacts:read',
  list: true,
  query: [{ name: 'phone', description: 'Only the entry of this E.164 number.' }],
  response: listOf(DoNotCallEntryObject),
  handler: async (req, res) => {
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
    if (req.query.phone !== undefined) filter.phone = pathPhone(req.query.phone);
    res.json(await listPage(req, DoNotCallEntry, filter, renderDoNotCallEntry));
  },
});

/** `GET /v1/do_not_call/{phone}` → the `do_not_call_entry`; 404 `resource_missing` when not listed. */
const retrieveNumber = operation({
  method: 'get',
  path: '/v1/do_not_call/{phone}',
  operationId: 'retrieveDoNotCallNumber',
  tag,
  summary: 'Check a do-not-call number',
  description: 'The entry of a listed number (write `+` as `%2B`); 404 when the number is not listed.',
  scope: 'contacts:read',
  response: DoNotCallEntryObject,
  handler: async (req, res) => {
    const phone = pathPhone(req.params.phone);
    const entry = await findDoNotCall(req.auth!, phone);
    if (!entry) throw notFound('do-not-call number', phone, 'phone');
    res.json(renderDoNotCallEntry(entry));
  },
});

/** `DELETE /v1/do_not_call/{phone}` → `{id, object, phone, deleted: true}`; 404 when it was not listed. */
const deleteNumber = operation({
  method: 'delete',
  path: '/v1/do_not_call/{phone}',
  operationId: 'deleteDoNotCallNumber',
  tag,
  summary: 'Take a number off the do-not-call list',
  description:
    'Calls to the number are allowed again (unless a contact or the national registry lists it). Only for a person who asked to be called again.',
  scope: 'contacts:write',
  response: DoNotCallDeletedObject,
  handler: async (req, res) => {
    const phone = pathPhone(req.params.phone);
    const entry = await removeDoNotCall(req.auth!, phone);
    if (!entry) throw notFound('do-not-call number', phone, 'phone');
    res.json({ id: entry._id, object: 'do_not_call_entry', phone, deleted: true });
  },
});

/**
 * The import's own JSON parser (4 MB, 100,000 numbers), mounted before the API's 1 MB one: authenticated
 * and scoped first, so nobody without a key makes the API parse 4 MB.
 */
export function doNotCallBodyParser(): Router {
  const router = Router();
  const parse = largeJsonBody(
    DNC_BODY_LIMIT,
    () =>
      new ApiError(
        413,
        'invalid_request_error',
        'body_too_large',
        `The request body is larger than ${DNC_BODY_LIMIT.toUpperCase()} (at most ${MAX_DNC_PER_REQUEST} numbers).`,
      ),
  );
  router.post('/do_not_call', authenticate, requireScope('contacts:write'), parse);
  return router;
}

/** Routes under `/v1/do_not_call` (mounted there by src/api/app.ts). */
export function doNotCallRouter(): Router {
  return operationsRouter('/v1/do_not_call', [importNumbers, listNumbers, retrieveNumber, deleteNumber]);
}
