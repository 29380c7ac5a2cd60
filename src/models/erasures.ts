/**
 * Erasures (`ers_…`, object `erasure`): one per `DELETE /v1/contacts/{id}` or
 * `POST /v1/contacts/erase`, inserted by the API (insert-if-absent by `_id`, so a retry with the same
 * Idempotency-Key finds the same one), then written only by its own `erasureWorkflow`'s activities
 * (counts after each batch, `completed` at the end). The subject is stored masked (`+1415•••0123`) with a
 * keyed hash, never in clear: the raw number exists only in the workflow's input.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { ERASURE_KINDS, noErasureCounts, type ErasureCounts } from '../shared/privacy';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';

const erasureSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** `contact`, `phone` or `external_id`. */
    subject_type: { type: String, required: true },
    /** The subject as shown: a contact id, a masked number or a masked external id. */
    subject_masked: { type: String, required: true },
    /** HMAC-SHA256 of the subject (src/secrets.ts `secretsMac`): tells two erasures of one person apart without the value. */
    subject_hash: { type: String, required: true },
    status: { type: String, enum: ['running', 'completed'], required: true },
    /** The counts so far, JSON (`ErasureCounts`). */
    counts_json: { type: String, required: true },
    created_ms: { type: Number, required: true },
    completed_ms: { type: Number, default: null },
  },
  base,
);
erasureSchema.index({ org_id: 1, livemode: 1, _id: -1 });
export const Erasure = mongoose.model('Erasure', erasureSchema, 'erasures');
export type ErasureDoc = InferSchemaType<typeof erasureSchema>;

/**
 * The result of one erasure batch, stored before the batch acts (src/services/erasure.ts `erasureBatch`):
 * `_id` is the activity's `<workflow id>:<run id>:<activity id>`, the same on a retry. Holds counts and a
 * scan position (an event id or an idempotency record's hash), no personal data.
 */
const erasureBatchSchema = new Schema(
  {
    _id: { type: String, required: true },
    result_json: { type: String, required: true },
    created_ms: { type: Number, required: true },
  },
  base,
);
export const ErasureBatch = mongoose.model('ErasureBatch', erasureBatchSchema, 'erasure_batches');

const countsShape = Object.fromEntries(
  Object.keys(noErasureCounts()).map((k) => [
    k,
    z
      .number()
      .int()
      .describe(`How many ${k.replace(/_/g, ' ')} were erased.`),
  ]),
) as Record<keyof ErasureCounts, z.ZodNumber>;

/** The `erasure` object as the API answers it (the OpenAPI component `Erasure`). */
export const ErasureObject = apiObject(
  'Erasure',
  "A person's erasure: what it removed or irreversibly redacted, by kind. The subject is shown masked.",
  z.object({
    id: z.string().describe('`ers_…`'),
    object: z.literal('erasure'),
    livemode: z.boolean(),
    status: z.enum(['running', 'completed']),
    subject: z.object({
      type: z.enum(['contact', 'phone', 'external_id']),
      contact: z.string().optional().describe('The erased contact (`cont_…`), for `type: contact`.'),
      phone: z.string().optional().describe('The number, masked (`+1415•••0123`), for `type: phone`.'),
      external_id: z.string().optional().describe('The external id, masked, for `type: external_id`.'),
    }),
    counts: z
      .object(countsShape)
      .describe(`Documents erased by kind (the kinds worked, in order: ${ERASURE_KINDS.join(', ')}).`),
    created: unix,
    completed_at: unix.nullable(),
  }),
);

/** The `erasure` object of a stored erasure. */
export function renderErasure(doc: WithId<ErasureDoc>): z.output<typeof ErasureObject> {
  const type = doc.subject_type as 'contact' | 'phone' | 'external_id';
  return {
    id: doc._id,
    object: 'erasure',
    livemode: doc.livemode,
    status: doc.status as 'running' | 'completed',
    subject: { type, [type]: doc.subject_masked },
    counts: { ...noErasureCounts(), ...(JSON.parse(doc.counts_json) as Partial<ErasureCounts>) },
    created: Math.floor(doc.created_ms / 1000),
    completed_at: doc.completed_ms == null ? null : Math.floor(doc.completed_ms / 1000),
  };
}

/** What `DELETE /v1/contacts/{id}` answers: the deleted contact and the erasure it started. */
export const ContactDeletedObject = apiObject(
  'ContactDeleted',
  'A deleted contact: its id, `deleted: true`, and the erasure that reaches every other copy of the person.',
  z.object({
    id: z.string(),
    object: z.literal('contact'),
    deleted: z.literal(true),
    erasure: z.string().describe('The erasure (`ers_…`): `GET /v1/erasures/{id}`.'),
  }),
);
