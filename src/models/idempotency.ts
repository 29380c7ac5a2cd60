/**
 * Idempotency records (DESIGN.md section 5), written only by src/api/idempotency.ts: inserted against
 * the unique `_id` (a hash of organization, mode and key), then completed by the request that holds
 * the lease. Expired records are swept (FerretDB has no TTL indexes).
 */
import mongoose, { Schema } from 'mongoose';
import { schemaOptions as base } from './store';

const idempotencySchema = new Schema(
  {
    /** sha256 hex of `<org>|<livemode>|<Idempotency-Key>`. */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    key_id: { type: String, required: true },
    method: { type: String, required: true },
    path: { type: String, required: true },
    /** sha256 hex of method, path and the canonical JSON body. */
    fingerprint: { type: String, required: true },
    /** The id the first execution chose for what it creates; a retry reuses it (no second call). */
    resource_id: { type: String, required: true },
    state: { type: String, enum: ['in_progress', 'completed'], required: true },
    /** While `in_progress`, the time (ms) until which the executing request holds the record. */
    locked_until_ms: { type: Number, required: true },
    /** Random token of the request holding the lease; its renewals and its final write name it. */
    lease_token: { type: String, default: null },
    status_code: { type: Number, default: null },
    response_json: { type: String, default: null },
    created_ms: { type: Number, required: true },
    expires_ms: { type: Number, required: true, index: true },
  },
  base,
);
/** Erasure: a tenant's records, scanned by `_id` (src/services/erasure.ts). */
idempotencySchema.index({ org_id: 1, livemode: 1, _id: 1 });
export const IdempotencyRecord = mongoose.model('IdempotencyRecord', idempotencySchema, 'idempotency_keys');
