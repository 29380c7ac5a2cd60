/**
 * Contacts and their records (DESIGN.md section 10: upsert by `external_id`, else `phone`), shared by the
 * API (`/v1/contacts`, `/v1/records`), call starters (the contact of a call) and the assistant's context
 * (the LLM activity; conversations look contacts up by phone the same way).
 *
 * Identity rules: a contact is found by `external_id` when one is given, else by `phone`; a request whose
 * phone and external_id point at two different contacts is 409 `contact_identity_conflict`, never merged.
 * Uniqueness comes from the unique indexes of src/models/contacts.ts: every upsert inserts first and, on a
 * duplicate key, finds the contact that holds the identity and updates it, so fifty concurrent upserts of
 * one phone make one contact.
 */
import crypto from 'node:crypto';
import { ApiError, notFound } from '../errors';
import { Contact, ContactRecord, type ContactDoc, type ContactRecordDoc } from '../models/contacts';
import { isDuplicateKey, type WithId } from '../models/store';
import { idTime } from '../shared/ids';

/** An organization and mode: contacts of one never meet the other's. */
export interface Tenant {
  orgId: string;
  livemode: boolean;
}

/** What `POST /v1/contacts` may set (validated by the API). */
export interface ContactInput {
  phone?: string;
  external_id?: string;
  /** null clears the name. */
  name?: string | null;
  do_not_call?: boolean;
}

/** A record as `POST /v1/records` takes it (validated by the API). */
export interface RecordInput {
  type?: string | null;
  title?: string | null;
  text: string;
  data?: Record<string, string | number | boolean | null>;
  /** Unix seconds. */
  occurred_at?: number | null;
  external_id?: string | null;
}

/** How many characters of records the assistant is given, newest first (about 4,000). */
export const RECORDS_CONTEXT_BUDGET = 4_000;

const identityConflict = (message: string) =>
  new ApiError(409, 'invalid_request_error', 'contact_identity_conflict', message);

/**
 * True for a write refused by a unique index: MongoDB's E11000 (also FerretDB's on insert); FerretDB 1.x
 * reports an update that breaks a unique index as an internal error naming the constraint.
 */
export function isUniqueViolation(err: unknown): boolean {
  return (
    isDuplicateKey(err) ||
    /E11000|UNIQUE constraint failed/i.test(String((err as { message?: unknown })?.message ?? ''))
  );
}

const tenantFilter = (t: Tenant) => ({ org_id: t.orgId, livemode: t.livemode });

/** The tenant's contact by id, phone or external_id (exactly one given); null when none. */
export async function findContact(
  t: Tenant,
  by: { id?: string; phone?: string; external_id?: string },
): Promise<WithId<ContactDoc> | null> {
  const filter: Record<string, unknown> = tenantFilter(t);
  if (by.id !== undefined) filter._id = by.id;
  else if (by.phone !== undefined) filter.phone_key = by.phone;
  else if (by.external_id !== undefined) filter.external_key = by.external_id;
  else return null;
  return (await Contact.findOne(filter).lean()) as WithId<ContactDoc> | null;
}

/**
 * Creates or updates a contact (`POST /v1/contacts`): found by `external_id` when given, else by `phone`;
 * fields not given are kept. A new contact gets `id` (the idempotency record's), so a retried request
 * finds the contact it made.
 * @returns the contact as stored, and whether this call created it
 * @throws ApiError 409 `contact_identity_conflict` when `phone` belongs to another contact than the one
 *   `external_id` names (or that phone's contact already has another external_id)
 */
export async function upsertContact(
  t: Tenant,
  id: string,
  input: ContactInput,
): Promise<{ contact: WithId<ContactDoc>; created: boolean }> {
  if (input.phone === undefined && input.external_id === undefined)
    throw new Error('upsertContact needs a phone or an external_id');
  for (let attempt = 0; attempt < 10; attempt++) {
    const now = Date.now();
    const fresh = {
      _id: id,
      ...tenantFilter(t),
      phone: input.phone ?? null,
      external_id: input.external_id ?? null,
      phone_key: input.phone ?? `~${id}`,
      external_key: input.external_id ?? `~${id}`,
      name: input.name ?? null,
      do_not_call: input.do_not_call ?? false,
      created: Math.floor(idTime(id) / 1000),
      updated_ms: now,
    };
    try {
      await Contact.collection.insertOne(fresh as never);
      return { contact: fresh, created: true };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    // Someone holds this identity (or this id, on a retried request): find them and update.
    const byExternal =
      input.external_id !== undefined ? await findContact(t, { external_id: input.external_id }) : null;
    const byPhone = input.phone !== undefined ? await findContact(t, { phone: input.phone }) : null;
    let target: WithId<ContactDoc> | null;
    if (byExternal) {
      if (byPhone && byPhone._id !== byExternal._id) {
        throw identityConflict(
          `The phone ${input.phone} belongs to contact ${byPhone._id}, but external_id '${input.external_id}' is contact ${byExternal._id}. Change or delete one of them first.`,
        );
      }
      target = byExternal;
    } else if (byPhone) {
      if (input.external_id !== undefined && byPhone.external_id != null && byPhone.external_id !== input.external_id) {
        throw identityConflict(
          `The phone ${input.phone} belongs to contact ${byPhone._id}, whose external_id is '${byPhone.external_id}', not '${input.external_id}'.`,
        );
      }
      target = byPhone;
    } else {
      target = await findContact(t, { id });
      if (!target) continue; // the holder was deleted meanwhile: insert again
    }
    const set: Record<string, unknown> = { updated_ms: now };
    if (input.name !== undefined) set.name = input.name;
    if (input.do_not_call !== undefined) set.do_not_call = input.do_not_call;
    // Calling the person again is the organization's decision to make: the opt-out they asked on a call goes with the flag.
    if (input.do_not_call === false) set.opt_out_voice = null;
    if (input.phone !== undefined && target.phone !== input.phone)
      Object.assign(set, { phone: input.phone, phone_key: input.phone });
    if (input.external_id !== undefined && target.external_id !== input.external_id)
      Object.assign(set, { external_id: input.external_id, external_key: input.external_id });
    try {
      const updated = (await Contact.findOneAndUpdate(
        { _id: target._id, ...tenantFilter(t) },
        { $set: set },
        { returnDocument: 'after' },
      ).lean()) as WithId<ContactDoc> | null;
      if (updated) return { contact: updated, created: false };
    } catch (err) {
      // Another request took the phone or external_id we were adding: look again (a conflict now).
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new ApiError(
    409,
    'invalid_request_error',
    'resource_conflict',
    'The contact was changed by other requests at the same time; retry.',
  );
}

/**
 * Erases a contact and all its records (`DELETE /v1/contacts/{id}`). The records are deleted even when
 * the contact is already gone, so a retry after a crash finishes the erasure.
 * @returns false when there was no such contact
 */
export async function deleteContact(t: Tenant, id: string): Promise<boolean> {
  const result = await Contact.deleteOne({ _id: id, ...tenantFilter(t) });
  await ContactRecord.deleteMany({ contact_id: id, ...tenantFilter(t) });
  return result.deletedCount > 0;
}

/**
 * The contact of a new call: `contactId` when given (404 naming `contact_id` when it is not the tenant's),
 * else the contact whose phone is `to`, else null.
 */
export async function resolveCallContact(
  t: Tenant,
  call: { to: string; contactId?: string | null },
): Promise<string | null> {
  if (call.contactId) {
    const contact = await findContact(t, { id: call.contactId });
    if (!contact) throw notFound('contact', call.contactId, 'contact_id');
    return contact._id;
  }
  return (await findContact(t, { phone: call.to }))?._id ?? null;
}

const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The id of the `index`-th record of a request: the request id's time, then the index (so a batch lists
 * in order), then bits of a hash of the request id. A retried request makes the same ids.
 */
export function recordId(requestId: string, index: number): string {
  const ulid = requestId.slice(requestId.indexOf('_') + 1);
  const hash = crypto.createHash('sha256').update(requestId).digest();
  let tail = '';
  for (let i = 0; i < 13; i++) tail += ID_ALPHABET[hash[i] % 32];
  const idx = [Math.floor(index / 1024) % 32, Math.floor(index / 32) % 32, index % 32]
    .map((d) => ID_ALPHABET[d])
    .join('');
  return `rec_${ulid.slice(0, 10)}${idx}${tail}`;
}

/**
 * Stores records about a contact (`POST /v1/records`): each record is inserted under `recordId(requestId,
 * i)`; one whose `external_id` the contact already has updates that record instead (same id). If the
 * contact is deleted meanwhile, what was written is erased and the call fails with 404 naming `contact`.
 * @returns the stored records, in request order
 */
export async function upsertRecords(
  t: Tenant,
  contactId: string,
  requestId: string,
  records: RecordInput[],
): Promise<WithId<ContactRecordDoc>[]> {
  const stored: WithId<ContactRecordDoc>[] = [];
  const createdMs = idTime(requestId);
  for (const [i, r] of records.entries()) {
    const id = recordId(requestId, i);
    const fields = {
      type: r.type ?? null,
      title: r.title ?? null,
      text: r.text,
      data_json: JSON.stringify(r.data ?? {}),
      occurred_ms: r.occurred_at != null ? r.occurred_at * 1000 : null,
      updated_ms: Date.now(),
    };
    const doc = {
      _id: id,
      ...tenantFilter(t),
      contact_id: contactId,
      external_id: r.external_id ?? null,
      external_key: r.external_id ?? `~${id}`,
      ...fields,
      sort_ms: fields.occurred_ms ?? createdMs,
      created: Math.floor(createdMs / 1000),
    };
    try {
      await ContactRecord.collection.insertOne(doc as never);
      stored.push(doc);
      continue;
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
    // Already there: this request's own record (a retry), or the contact's record with this external_id.
    const existing = (await ContactRecord.findOne(
      r.external_id != null ? { contact_id: contactId, external_key: r.external_id } : { _id: id },
    ).lean()) as WithId<ContactRecordDoc> | null;
    if (!existing)
      throw new ApiError(
        409,
        'invalid_request_error',
        'resource_conflict',
        'A record was changed by another request at the same time; retry.',
      );
    const updated = (await ContactRecord.findOneAndUpdate(
      { _id: existing._id },
      { $set: { ...fields, sort_ms: fields.occurred_ms ?? existing.created * 1000 } },
      { returnDocument: 'after' },
    ).lean()) as WithId<ContactRecordDoc>;
    stored.push(updated ?? existing);
  }
  if (!(await findContact(t, { id: contactId }))) {
    await ContactRecord.deleteMany({ contact_id: contactId, ...tenantFilter(t) });
    throw notFound('contact', contactId, 'contact');
  }
  return stored;
}

/** One record as the assistant reads it: date, type, title, text, data. */
function recordLine(r: WithId<ContactRecordDoc>): string {
  const date = new Date(r.sort_ms).toISOString().slice(0, 10);
  const head = [date, r.type, r.title].filter(Boolean).join(' · ');
  const data = Object.entries(JSON.parse(r.data_json ?? '{}') as Record<string, unknown>)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(', ');
  return `- ${head}: ${r.text.replace(/\s+/g, ' ').trim()}${data ? ` (${data})` : ''}`;
}

/**
 * What the assistant is told about the person it talks with: the contact's name and phone and its most
 * recent records, newest first (by `occurred_at`, else creation), whole records within `budget`
 * characters (the newest one cut to fit if it alone is longer), and how many older ones were left out.
 * @param who the contact's id, or a phone to find it by (conversations)
 * @returns null when there is no such contact
 */
export async function contactContext(
  t: Tenant,
  who: { contactId?: string | null; phone?: string | null },
  budget = RECORDS_CONTEXT_BUDGET,
): Promise<{ contactId: string; text: string } | null> {
  const contact = who.contactId
    ? await findContact(t, { id: who.contactId })
    : who.phone
      ? await findContact(t, { phone: who.phone })
      : null;
  if (!contact) return null;
  const records = (await ContactRecord.find({ contact_id: contact._id, ...tenantFilter(t) })
    .sort({ sort_ms: -1, _id: -1 })
    .limit(100)
    .lean()) as WithId<ContactRecordDoc>[];
  const lines: string[] = [];
  let used = 0;
  for (const r of records) {
    let line = recordLine(r);
    if (used + line.length > budget) {
      if (lines.length > 0) break;
      line = `${line.slice(0, Math.max(0, budget - 1))}…`;
    }
    lines.push(line);
    used += line.length + 1;
  }
  const parts = [
    "The person in this conversation, from the organization's contact records (use these facts; do not read them out):",
    `Name: ${contact.name ?? 'unknown'}`,
  ];
  if (contact.phone) parts.push(`Phone: ${contact.phone}`);
  if (lines.length) {
    parts.push('Records, newest first:', ...lines);
    const total = await ContactRecord.countDocuments({ contact_id: contact._id, ...tenantFilter(t) });
    if (total > lines.length) parts.push(`(${total - lines.length} older records not shown)`);
  }
  return { contactId: contact._id, text: parts.join('\n') };
}
