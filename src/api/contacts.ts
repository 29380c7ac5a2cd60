/**
 * Contacts and records (spec section 4 "Contacts and records"; DESIGN.md section 10):
 *
 *   POST   /v1/contacts                `{phone?, external_id?, name?, do_not_call?}` create or update (contacts:write, Idempotency-Key)
 *   GET    /v1/contacts                list, newest first; filters `phone`, `external_id` (contacts:read)
 *   GET    /v1/contacts/{id}           the contact (contacts:read)
 *   DELETE /v1/contacts/{id}           deletes the contact and its records, starts an erasure (contacts:write)
 *   POST   /v1/contacts/erase          `{phone}` | `{external_id}`: erases a person (contacts:write, Idempotency-Key)
 *   GET    /v1/contacts/{id}/records   the contact's records, newest first (records:read)
 *   POST   /v1/records                 `{contact: {phone} | {external_id}, records: [...]}` (records:write, Idempotency-Key)
 *
 * A contact is found by `external_id` when given, else by `phone`; phone and external_id naming two
 * different contacts is 409 `contact_identity_conflict`. Records are shown to staff here and given to the
 * assistant on calls and conversations with the contact (src/services/contacts.ts `contactContext`).
 * Reading records takes `records:read` (a key that pushes records, `records:write`, may read them back).
 */
import type { Router } from 'express';
import { z } from 'zod';
import { invalidParam, missingParam, notFound } from '../errors';
import { Contact, ContactObject, ContactRecord, RecordObject, renderContact, renderRecord } from '../models/contacts';
import type { Client } from '@temporalio/client';
import { ErasureObject, renderErasure } from '../models/erasures';
import { ContactDeletedObject } from '../models/erasures';
import { listOf } from '../models/wire';
import { findContact, upsertContact, upsertRecords } from '../services/contacts';
import { startErasure } from '../services/erasure';
import { newId } from '../shared/ids';
import type { ErasureSubject } from '../shared/privacy';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { e164, isE164 } from './validation';

/** Records a `POST /v1/records` may carry. */
export const MAX_RECORDS_PER_REQUEST = 100;
/** Characters of a record's `text`. */
export const MAX_RECORD_TEXT = 10_000;

const externalId = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');

export const contactSchema = z.strictObject({
  phone: e164.optional(),
  external_id: externalId.optional(),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').nullable().optional(),
  do_not_call: z.boolean().optional(),
});

const flatValue = z.union(
  [z.string().max(500, 'values must be at most 500 characters'), z.number(), z.boolean(), z.null()],
  {
    error: 'must be a string, number, boolean or null (data is a flat object)',
  },
);

const recordSchema = z.strictObject({
  type: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters').nullable().optional(),
  title: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').nullable().optional(),
  text: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_RECORD_TEXT, `must be at most ${MAX_RECORD_TEXT} characters`),
  data: z
    .record(z.string().min(1, 'keys must not be empty').max(40, 'keys must be at most 40 characters'), flatValue)
    .refine((d) => Object.keys(d).length <= 50, { message: 'must have at most 50 keys' })
    .optional(),
  occurred_at: z.number().int('must be an integer (unix seconds)').min(0).max(253_402_300_799).nullable().optional(),
  external_id: externalId.nullable().optional(),
});

export const recordsSchema = z.strictObject({
  contact: z.strictObject({ phone: e164.optional(), external_id: externalId.optional() }),
  records: z
    .array(recordSchema)
    .min(1, 'must have at least one record')
    .max(MAX_RECORDS_PER_REQUEST, `must have at most ${MAX_RECORDS_PER_REQUEST} records`),
});

const tag = 'Contacts';

/**
 * `POST /v1/contacts` body `{phone?, external_id?, name?, do_not_call?}` (a phone or an external_id is
 * required) → the `contact` (`cont_…`, `phone`, `name`, `external_id`, `do_not_call`, `created`,
 * `updated`, `livemode`), the same id on every update. Found by `external_id` when given, else by
 * `phone`; a phone given with an external_id is set on that contact. Fields not given are kept; `name:
 * null` clears the name. 409 `contact_identity_conflict` when phone and external_id name two contacts.
 */
const createContact = operation({
  method: 'post',
  path: '/v1/contacts',
  operationId: 'createContact',
  errors: { '409': ['contact_identity_conflict', 'resource_conflict'] },
  tag,
  summary: 'Create or update a contact',
  description: 'A contact with the same `external_id` or `phone` is updated rather than duplicated.',
  scope: 'contacts:write',
  body: contactSchema,
  example: { phone: '+14155550123', name: 'Ada Lovelace', external_id: 'crm-42' },
  response: ContactObject,
  handler: async (req, res, { body }) => {
    if (body.phone === undefined && body.external_id === undefined) {
      throw missingParam('phone', 'Missing required param: phone (or external_id): a contact needs one of them.');
    }
    await idempotent(req, res, 'cont', async (id) => {
      const { contact } = await upsertContact(req.auth!, id, body);
      return { status: 200, body: renderContact(contact) };
    });
  },
});

/** `GET /v1/contacts` → list of contacts, newest first; filters `phone` (E.164), `external_id`. */
const listContacts = operation({
  method: 'get',
  path: '/v1/contacts',
  operationId: 'listContacts',
  tag,
  summary: 'List contacts',
  scope: 'contacts:read',
  list: true,
  query: [
    { name: 'phone', description: 'Only the contact with this E.164 number.' },
    { name: 'external_id', description: 'Only the contact with this id of yours.' },
  ],
  response: listOf(ContactObject),
  handler: async (req, res) => {
    const filter: Record<string, unknown> = { org_id: req.auth!.orgId, livemode: req.auth!.livemode };
    const { phone, external_id } = req.query;
    if (phone !== undefined) {
      if (typeof phone !== 'string' || !isE164(phone))
        throw invalidParam('phone', 'Invalid phone: must be a phone number in E.164 format, like +14155550123.');
      filter.phone_key = phone;
    }
    if (external_id !== undefined) {
      if (typeof external_id !== 'string' || !external_id)
        throw invalidParam('external_id', 'Invalid external_id: must be a non-empty string.');
      filter.external_key = external_id;
    }
    res.json(await listPage(req, Contact, filter, renderContact));
  },
});

/** `GET /v1/contacts/{id}` → the contact; 404 `resource_missing`. */
const retrieveContact = operation({
  method: 'get',
  path: '/v1/contacts/{id}',
  operationId: 'retrieveContact',
  tag,
  summary: 'Retrieve a contact',
  scope: 'contacts:read',
  response: ContactObject,
  handler: async (req, res) => {
    const contact = await findContact(req.auth!, { id: String(req.params.id) });
    if (!contact) throw notFound('contact', String(req.params.id), 'id');
    res.json(renderContact(contact));
  },
});

/**
 * `DELETE /v1/contacts/{id}` → `{id, object: "contact", deleted: true, erasure: "ers_…"}`: the contact and
 * its records are deleted at once, and an erasure reaches every other copy of the person
 * (calls, conversations, recordings, analyses, campaign rows, events, idempotency caches): follow it with
 * `GET /v1/erasures/{id}`. 404 `resource_missing` for an unknown contact.
 */
const deleteContactOperation = (temporal: Client) =>
  operation({
    method: 'delete',
    path: '/v1/contacts/{id}',
    operationId: 'deleteContact',
    tag,
    summary: 'Delete a contact and erase the person',
    description:
      'Deletes the contact and its records at once, and starts an erasure of every copy of the person (`erasure`: follow it with `GET /v1/erasures/{id}`).',
    scope: 'contacts:write',
    response: ContactDeletedObject,
    handler: async (req, res) => {
      const id = String(req.params.id);
      if (!(await findContact(req.auth!, { id }))) throw notFound('contact', id, 'id');
      const erasure = await startErasure(temporal, req.auth!, newId('ers'), { type: 'contact', contactId: id });
      res.json({ id, object: 'contact' as const, deleted: true as const, erasure: erasure._id });
    },
  });

/** `POST /v1/contacts/erase` body: exactly one of `phone` (E.164) or `external_id`. */
export const eraseSchema = z.strictObject({ phone: e164.optional(), external_id: externalId.optional() });

/**
 * `POST /v1/contacts/erase` body `{phone}` or `{external_id}` (exactly one; else 400) → the `erasure`
 * (`ers_…`, `running`), for a person who may never have become a contact. An unknown
 * person is erased all the same: the erasure completes with zero counts (no oracle of who exists). With an
 * Idempotency-Key, a retry answers the same erasure.
 */
const eraseContactOperation = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/contacts/erase',
    operationId: 'eraseContact',
    tag,
    summary: 'Erase a person by phone or external id',
    description:
      'Removes or irreversibly redacts every copy of the person: contact, records, calls and transcripts, conversations, recordings, analyses, campaign rows, event payloads, idempotency caches. Answers the `erasure` at once; follow it with `GET /v1/erasures/{id}`.',
    scope: 'contacts:write',
    body: eraseSchema,
    example: { phone: '+14155550123' },
    response: ErasureObject,
    handler: async (req, res, { body }) => {
      if (body.phone === undefined && body.external_id === undefined)
        throw missingParam('phone', 'Missing required param: phone (or external_id): whom to erase.');
      if (body.phone !== undefined && body.external_id !== undefined)
        throw invalidParam('external_id', 'Invalid external_id: give exactly one of phone or external_id, not both.');
      const subject: ErasureSubject =
        body.phone !== undefined
          ? { type: 'phone', phone: body.phone }
          : { type: 'external_id', externalId: body.external_id! };
      await idempotent(req, res, 'ers', async (id) => {
        const erasure = await startErasure(temporal, req.auth!, id, subject);
        return { status: 200, body: renderErasure(erasure) };
      });
    },
  });

/** `GET /v1/contacts/{id}/records` (`records:read`) → the contact's records, newest first (list conventions). */
const listContactRecords = operation({
  method: 'get',
  path: '/v1/contacts/{id}/records',
  operationId: 'listContactRecords',
  tag,
  summary: "List a contact's records",
  scope: 'records:read',
  list: true,
  response: listOf(RecordObject),
  handler: async (req, res) => {
    const contact = await findContact(req.auth!, { id: String(req.params.id) });
    if (!contact) throw notFound('contact', String(req.params.id), 'id');
    res.json(
      await listPage(
        req,
        ContactRecord,
        { org_id: req.auth!.orgId, livemode: req.auth!.livemode, contact_id: contact._id },
        renderRecord,
      ),
    );
  },
});

/** Routes under `/v1/contacts` (mounted there by src/api/app.ts). */
export function contactsRouter(temporal: Client): Router {
  return operationsRouter('/v1/contacts', [
    createContact,
    eraseContactOperation(temporal),
    listContacts,
    retrieveContact,
    deleteContactOperation(temporal),
    listContactRecords,
  ]);
}

/**
 * `POST /v1/records` body `{contact: {phone} | {external_id}, records: [{type?, title?, text, data?,
 * occurred_at?, external_id?}, …]}` (1–100 records; `text` up to 10,000 characters; `data` a flat object;
 * `occurred_at` unix seconds) → a list of the stored `record` objects, in request order. A record whose
 * `external_id` the contact already has is updated (same id), not duplicated. 404 naming `contact` for
 * an unknown contact.
 */
const upsertRecordsOperation = operation({
  method: 'post',
  path: '/v1/records',
  operationId: 'upsertRecords',
  errors: { '409': ['contact_identity_conflict', 'resource_conflict'] },
  tag,
  summary: 'Create or update records',
  description: 'Records with an `external_id` already stored are replaced.',
  scope: 'records:write',
  body: recordsSchema,
  response: listOf(RecordObject),
  handler: async (req, res, { body }) => {
    const by = body.contact;
    if ((by.phone === undefined) === (by.external_id === undefined)) {
      throw invalidParam('contact', 'Invalid contact: give exactly one of phone or external_id.');
    }
    const seen = new Set<string>();
    for (const [i, r] of body.records.entries()) {
      if (r.external_id == null) continue;
      if (seen.has(r.external_id))
        throw invalidParam(
          `records.${i}.external_id`,
          `Invalid records.${i}.external_id: '${r.external_id}' appears twice in this request.`,
        );
      seen.add(r.external_id);
    }
    const contact = await findContact(req.auth!, by);
    if (!contact) throw notFound('contact', by.phone ?? by.external_id!, 'contact');
    await idempotent(req, res, 'rec', async (requestId) => {
      const stored = await upsertRecords(req.auth!, contact._id, requestId, body.records);
      return {
        status: 200,
        body: { object: 'list', data: stored.map(renderRecord), has_more: false, url: '/v1/records' },
      };
    });
  },
});

/** Routes under `/v1/records` (mounted there by src/api/app.ts). */
export function recordsRouter(): Router {
  return operationsRouter('/v1/records', [upsertRecordsOperation]);
}
