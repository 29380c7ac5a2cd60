/**
 * Numbers nobody may call: an organization's own do-not-call list (`dnc_…`, object `do_not_call_entry`,
 * written by src/services/do-not-call.ts for `POST /v1/do_not_call`, per organization and mode) and the
 * operator's copy of a national registry (`svcctl dnc load FILE`, the US National Do Not Call Registry's
 * full list), checked before a number is dialed.
 *
 * One entry per number per organization and mode is kept by a unique index, never by read-then-write
 * (DESIGN.md section 3): adding a listed number again is a duplicate the store refuses. A registry
 * number's `_id` is its E.164 form, so a lookup is a primary-key read; a load stamps every number with
 * its `generation` and then drops the numbers of earlier loads, so a number is never missing mid-load.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

/**
 * Where an entry came from: the API's `numbers`, its `csv`, a contact marked `do_not_call`, or the
 * person's own request on a call (`opt_out`: the assistant's `opt_out` tool, src/services/opt-outs.ts).
 */
export const DNC_SOURCES = ['api', 'csv', 'contact', 'opt_out'] as const;

const entrySchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** E.164. */
    phone: { type: String, required: true },
    source: { type: String, enum: DNC_SOURCES, required: true },
    created: { type: Number, required: true },
  },
  base,
);
entrySchema.index({ org_id: 1, livemode: 1, phone: 1 }, { unique: true });
entrySchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const DoNotCallEntry = mongoose.model('DoNotCallEntry', entrySchema, 'do_not_call_entries');
export type DoNotCallEntryDoc = InferSchemaType<typeof entrySchema>;

const registrySchema = new Schema(
  {
    /** The number in E.164 (`+1` and ten digits). */
    _id: { type: String, required: true },
    /** The load that last listed it (`svcctl dnc load`). */
    generation: { type: String, required: true },
  },
  base,
);
registrySchema.index({ generation: 1 });
export const NationalDncNumber = mongoose.model('NationalDncNumber', registrySchema, 'national_dnc_numbers');

/** The `do_not_call_entry` object as the API answers it (the OpenAPI component `DoNotCallEntry`). */
export const DoNotCallEntryObject = apiObject(
  'DoNotCallEntry',
  'A number of the organization’s do-not-call list: no call of its is ever dialed to it.',
  z.object({
    id: z.string(),
    object: z.literal('do_not_call_entry'),
    livemode: z.boolean(),
    phone: z.string().describe('The number, E.164.'),
    source: z
      .enum(DNC_SOURCES)
      .describe(
        'How it was listed: `numbers` (api) or `csv` of `POST /v1/do_not_call`, or `opt_out`: the person asked not to be called again on a call.',
      ),
    created: unix,
  }),
);
export type DoNotCallEntryObject = z.output<typeof DoNotCallEntryObject>;

/** The `do_not_call_entry` object; `created` in unix seconds. */
export function renderDoNotCallEntry(doc: WithId<DoNotCallEntryDoc>): DoNotCallEntryObject {
  return {
    id: doc._id,
    object: 'do_not_call_entry',
    livemode: doc.livemode,
    phone: doc.phone,
    source: doc.source,
    created: doc.created,
  };
}

/** What `POST /v1/do_not_call` answers (the OpenAPI component `DoNotCallImport`). */
export const DoNotCallImportObject = apiObject(
  'DoNotCallImport',
  'The numbers a `POST /v1/do_not_call` listed.',
  z.object({
    object: z.literal('do_not_call_import'),
    livemode: z.boolean(),
    received: z.number().int().describe('Numbers in the request, repeats counted once.'),
    added: z.number().int().describe('Numbers newly listed.'),
    already_listed: z.number().int().describe('Numbers that were listed already.'),
  }),
);
export type DoNotCallImportObject = z.output<typeof DoNotCallImportObject>;

/** What `DELETE /v1/do_not_call/{phone}` answers. */
export const DoNotCallDeletedObject = apiObject(
  'DoNotCallDeleted',
  'A number taken off the do-not-call list.',
  z.object({
    id: z.string(),
    object: z.literal('do_not_call_entry'),
    phone: z.string(),
    deleted: z.literal(true),
  }),
);
