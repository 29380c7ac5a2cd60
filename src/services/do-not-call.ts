/**
 * Do-not-call: the organization's own list (`POST /v1/do_not_call`, src/api/do-not-call.ts), the contacts
 * it marks `do_not_call`, and the operator's copy of the US National Do Not Call Registry (`svcctl dnc
 * load FILE`). The TCPA (47 CFR 64.1200(c)(2) and (d)) forbids telemarketing calls to numbers on the
 * national registry and requires honouring a person's request not to be called; `blockedPhones` is the
 * one check every dial consults (campaigns today: src/activities/bulk-calls.ts).
 *
 * Listing never forgets a number by accident: entries are added with unordered inserts against a unique
 * index (a number listed twice stays one entry), and an erasure of a person leaves the entry in place
 * (keeping the number is what honours the request).
 */
import fs from 'node:fs';
import readline from 'node:readline';
import crypto from 'node:crypto';
import { parse as parseCsv } from 'csv-parse/sync';
import { isE164 } from '../phone-numbers';
import { Contact } from '../models/contacts';
import { DoNotCallEntry, NationalDncNumber, type DNC_SOURCES } from '../models/do-not-call';
import { bulkUpdate, insertManyIfAbsent } from '../models/store';
import { newId } from '../shared/ids';

/** Numbers one `POST /v1/do_not_call` may carry (as `numbers`, or rows of `csv`). */
export const MAX_DNC_PER_REQUEST = 100_000;
/** Numbers written to the store per round trip. */
const WRITE_BATCH = 1_000;

type Tenant = { orgId: string; livemode: boolean };

/** A number that is not a valid E.164 phone number, at a 1-based `line` of a CSV or index of `numbers`. */
export class DncInputError extends Error {
  constructor(
    message: string,
    /** The 1-based line of the CSV, or the 0-based index of `numbers`. */
    readonly at: number,
  ) {
    super(message);
  }
}

/**
 * The numbers of a CSV: a header row naming a `phone` (or `number`) column takes that column; otherwise
 * every row's first field is a number. Empty rows are skipped.
 * @throws DncInputError naming the 1-based line of the first value that is not E.164, or of a CSV error
 */
export function parseDncCsv(csv: string): string[] {
  let rows: string[][];
  try {
    rows = parseCsv(csv, { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true }) as string[][];
  } catch (err) {
    const line = (err as { lines?: number }).lines ?? 1;
    throw new DncInputError(`The CSV cannot be read at line ${line}: ${(err as Error).message}.`, line);
  }
  const header = (rows[0] ?? []).map((h) => h.toLowerCase());
  const column = Math.max(header.indexOf('phone'), header.indexOf('number'));
  const body = column >= 0 ? rows.slice(1) : rows;
  const at = (i: number) => i + 1 + (column >= 0 ? 1 : 0);
  return body.map((row, i) => {
    const value = row[Math.max(column, 0)] ?? '';
    if (!isE164(value))
      throw new DncInputError(
        `Line ${at(i)} of the CSV holds '${value.slice(0, 40)}', not a phone number in E.164 format like +14155550123.`,
        at(i),
      );
    return value;
  });
}

/**
 * Lists `phones` (E.164, checked by the caller) for the tenant; a number listed already stays as it was.
 * @returns how many were newly listed and how many were there already (repeats in `phones` counted once)
 */
export async function addDoNotCall(
  tenant: Tenant,
  phones: string[],
  source: (typeof DNC_SOURCES)[number],
): Promise<{ received: number; added: number; already_listed: number }> {
  const unique = [...new Set(phones)];
  let added = 0;
  const created = Math.floor(Date.now() / 1000);
  for (let i = 0; i < unique.length; i += WRITE_BATCH) {
    const docs = unique.slice(i, i + WRITE_BATCH).map((phone) => ({
      _id: newId('dnc'),
      org_id: tenant.orgId,
      livemode: tenant.livemode,
      phone,
      source,
      created,
    }));
    added += (await insertManyIfAbsent(DoNotCallEntry, docs)).filter(Boolean).length;
  }
  return { received: unique.length, added, already_listed: unique.length - added };
}

/** The tenant's entry for `phone`, or null when the number is not on its list. */
export function findDoNotCall(tenant: Tenant, phone: string) {
  return DoNotCallEntry.findOne({ org_id: tenant.orgId, livemode: tenant.livemode, phone }).lean();
}

/** Takes `phone` off the tenant's list; returns the entry removed, or null when it was not listed. */
export function removeDoNotCall(tenant: Tenant, phone: string) {
  return DoNotCallEntry.findOneAndDelete({ org_id: tenant.orgId, livemode: tenant.livemode, phone }).lean();
}

/**
 * The numbers among `phones` that must not be dialed for the tenant, with why: `organization` (its own
 * list), `contact` (a contact marked `do_not_call`), `national_registry` (the operator's registry copy;
 * US and Canadian numbers only, as the registry holds): two indexed reads, and one primary-key read per
 * +1 number, whatever the lists hold.
 */
export async function blockedPhones(
  tenant: Tenant,
  phones: string[],
): Promise<Map<string, 'organization' | 'contact' | 'national_registry'>> {
  const blocked = new Map<string, 'organization' | 'contact' | 'national_registry'>();
  const unique = [...new Set(phones)];
  if (unique.length === 0) return blocked;
  const scope = { org_id: tenant.orgId, livemode: tenant.livemode };
  const nanp = unique.filter((p) => p.startsWith('+1'));
  const [listed, contacts, national] = await Promise.all([
    DoNotCallEntry.find({ ...scope, phone: { $in: unique } }, { phone: 1 }).lean(),
    Contact.find({ ...scope, phone_key: { $in: unique }, do_not_call: true }, { phone: 1 }).lean(),
    // One primary-key read per number: the embedded store serves `_id` equality from its index, not `$in`,
    // and the registry copy may hold millions of numbers.
    Promise.all(nanp.map((id) => NationalDncNumber.findById(id, { _id: 1 }).lean())).then((rows) =>
      rows.filter((r) => r !== null),
    ),
  ]);
  for (const row of national) blocked.set(String(row._id), 'national_registry');
  for (const row of contacts) blocked.set(String(row.phone), 'contact');
  for (const row of listed) blocked.set(row.phone, 'organization');
  return blocked;
}

/** The registry numbers of `file`, in E.164, one per non-empty line (see `loadNationalRegistry`). */
async function* registryNumbers(file: string): AsyncGenerator<string> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const raw of lines) {
    line++;
    const text = raw.trim();
    if (!text) continue;
    const m = /^(\d{3}),?(\d{7})$/.exec(text);
    if (!m || !isE164(`+1${m[1]}${m[2]}`))
      throw new DncInputError(
        `Line ${line} is '${text.slice(0, 40)}', not a registry number (area code and number: 415,5550123).`,
        line,
      );
    yield `+1${m[1]}${m[2]}`;
  }
}

/**
 * Loads a full list of the US National Do Not Call Registry (the subscriber download's flat text file:
 * one number per line as `AAA,NNNNNNN`, area code and number, or ten digits) as the registry copy,
 * replacing the previous load. The file is read twice: first checked whole (a malformed file changes
 * nothing), then written, every number stamped with this load's generation, and only then the numbers
 * of earlier loads are dropped, so a number on both lists is never missing while it runs.
 * @throws DncInputError naming the 1-based line of the first malformed line (nothing is changed)
 * @returns how many numbers the registry copy now holds
 */
export async function loadNationalRegistry(file: string): Promise<{ numbers: number; generation: string }> {
  for await (const _ of registryNumbers(file)); // the first read only checks the file
  const generation = crypto.randomBytes(8).toString('hex');
  let batch: string[] = [];
  let numbers = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await bulkUpdate(
      NationalDncNumber.collection,
      batch.map((id) => ({ updateOne: { filter: { _id: id }, update: { $set: { generation } }, upsert: true } })),
    );
    numbers += batch.length;
    batch = [];
  };
  for await (const phone of registryNumbers(file)) {
    batch.push(phone);
    if (batch.length >= WRITE_BATCH) await flush();
  }
  await flush();
  await NationalDncNumber.deleteMany({ generation: { $ne: generation } });
  return { numbers, generation };
}
