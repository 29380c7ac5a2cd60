/**
 * Daily quota counters: one document per organization and UTC day (`<org id>:<YYYY-MM-DD>`) counting
 * what the organization's daily caps limit (src/services/limits.ts): LLM tokens (`llm_tokens`, added by
 * `recordUsage` when it stores an LLM or analysis usage row, src/services/usage.ts), test-suite runs and
 * analysis re-runs (`test_suite_runs`, `analysis_reruns`, taken by the API before it starts one).
 *
 * A counter, not a sum of usage rows: the check runs before every new call, conversation turn, run and
 * re-run, and must cost one `_id` read however busy the day was. The usage rows stay the record
 * (`GET /v1/usage`); a process killed between storing a usage row and adding its tokens here counts
 * those tokens in the report but not against the cap (under by one request, never over).
 * Written with `$inc` (upsert) only; a day's document is never read after its day (one small document
 * per organization and day).
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { schemaOptions } from './store';

const quotaCounterSchema = new Schema(
  {
    /** `<org id>:<YYYY-MM-DD>` (the UTC day). */
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    /** The UTC day, `YYYY-MM-DD`. */
    day: { type: String, required: true },
    llm_tokens: { type: Number, default: 0 },
    test_suite_runs: { type: Number, default: 0 },
    analysis_reruns: { type: Number, default: 0 },
  },
  schemaOptions,
);
export const QuotaCounter = mongoose.model('QuotaCounter', quotaCounterSchema, 'quota_counters');
export type QuotaCounterDoc = InferSchemaType<typeof quotaCounterSchema> & { _id: string };
