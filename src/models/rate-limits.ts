/**
 * Rate-limit slots (src/platform/rate-limit.ts is their only writer): a request admitted in a bucket's window
 * holds one slot, `_id` = `<bucket>:<window start ms>:<n>` with n from 1 to the limit. Slots are taken by
 * inserting against the unique `_id`, so every API process shares one exact count even on a store whose
 * read-modify-write updates are not atomic (FerretDB 1.x loses concurrent `$inc`s). Old slots are pruned
 * by that module (FerretDB has no TTL indexes).
 */
import mongoose, { Schema } from 'mongoose';
import { schemaOptions as base } from './store';

const rateLimitSlotSchema = new Schema(
  {
    /** `<bucket>:<window start, ms since the epoch>:<slot number>`, e.g. `key:3fa…:1795000000000:17`. */
    _id: { type: String, required: true },
    /** When the window ends (ms); pruned after it. */
    expires_ms: { type: Number, required: true },
  },
  base,
);
/** The prune of ended windows (a range: MongoDB serves it from this index; the table holds live windows only). */
rateLimitSlotSchema.index({ expires_ms: 1 });
export const RateLimitSlot = mongoose.model('RateLimitSlot', rateLimitSlotSchema, 'rate_limit_slots');
