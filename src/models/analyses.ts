/**
 * Analyses (`ana_…`, object `analysis`): what the model made of a finished call or conversation
 * (a summary, structured data valid against the customer's schema, a success verdict), one immutable row
 * per run. Written only by the `storeAnalysis` activity (src/activities/analysis.ts) of the analysis's own
 * `callAnalysisWorkflow`, insert-if-absent under an id fixed when the workflow was started, so a retried or
 * crashed run stores it once. The newest is also copied onto its call or conversation (`analysis`); the
 * earlier ones stay here (`GET /v1/calls/{id}/analyses`, newest first).
 *
 * Also the plan's wire shape (`AnalysisPlanObject`): the `analysis` field of agents and of `POST /v1/calls`.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { SUCCESS_SCALES, type AnalysisPlan } from '../shared/analysis';
import { schemaOptions as base, type WithId } from './store';
import { apiObject, unix } from './wire';
import { redactionField, renderRedaction } from './redaction';
import { CostObject, type CostView } from './usage';

const analysisSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** `call` or `conversation`. */
    subject_kind: { type: String, enum: ['call', 'conversation'], required: true },
    /** The call (`call_…`) or conversation (`conv_…`) analysed. */
    subject_id: { type: String, required: true },
    status: { type: String, enum: ['completed', 'failed'], required: true },
    summary: { type: String, default: null },
    /** The structured data, JSON (valid against the plan's schema); null when not asked for or failed. */
    structured_data_json: { type: String, default: null },
    /** `{verdict, score?, reason}`, JSON; null when not asked for or failed. */
    success_json: { type: String, default: null },
    /** The model that answered (as the provider named it), or null when no answer came. */
    model: { type: String, default: null },
    /** A failed analysis: why (the last answer's validation errors, or the request's failure). */
    error_message: { type: String, default: null },
    validation_errors: { type: [String], default: [] },
    /** The plan it ran, JSON (src/shared/analysis.ts `AnalysisPlan`). */
    plan_json: { type: String, required: true },
    /** The agent and its version the subject ran (from the call or conversation); null when unknown. */
    agent_id: { type: String, default: null },
    agent_version: { type: Number, default: null },
    /** A single call analysed for a form (`form_id`): the form, else null. */
    form_id: { type: String, default: null },
    /** What was replaced in the summary, structured data and reason before they were stored, JSON `{card: n, …}`; null: nothing. */
    redaction_json: { type: String, default: null },
    /**
     * What its model requests cost (src/models/usage.ts `CostObject`), JSON: the sum of its usage rows'
     * costs (`ana:<id>:<request>`, each priced once when its answer came), written once with the analysis;
     * null when none was recorded (analyses stored before costs, no answer came).
     */
    cost_json: { type: String, default: null },
    created: { type: Number, required: true },
  },
  base,
);
analysisSchema.index({ subject_id: 1, _id: -1 });
/** Retention: a tenant's analyses by age (src/services/retention.ts). */
analysisSchema.index({ org_id: 1, livemode: 1, created: 1 });
/**
 * A call's or a conversation's analyses, newest first (`GET /v1/calls/{id}/analyses`, `{subject_id,
 * org_id, livemode}`): three equality keys, so that the embedded store picks it over the retention index
 * above (two), which would read the tenant's every analysis.
 */
analysisSchema.index({ org_id: 1, livemode: 1, subject_id: 1, _id: -1 });
export const Analysis = mongoose.model('Analysis', analysisSchema, 'analyses');
export type AnalysisDoc = InferSchemaType<typeof analysisSchema>;

/** A JSON Schema object, as a plan's `structured_data.schema` takes it (checked by src/services/analysis.ts). */
const jsonSchemaObject = z
  .record(z.string(), z.unknown())
  .describe(
    'A JSON Schema of an object (`type: "object"`; draft 2020-12, or draft-07 when `$schema` names it), at most 32 KB of JSON.',
  );

/** The plan's wire shape: the `analysis` of agents and of `POST /v1/calls`, and the body of the analyze routes. */
export const AnalysisPlanObject = z
  .strictObject({
    summary: z
      .union([z.literal(true), z.strictObject({ prompt: z.string().trim().min(1).max(4000) })])
      .optional()
      .describe('A short summary; `{"prompt"}` says what it should dwell on.'),
    structured_data: z
      .strictObject({ schema: jsonSchemaObject, prompt: z.string().trim().min(1).max(4000).optional() })
      .optional()
      .describe("Values extracted from the transcript; the answer is validated against `schema` before it's kept."),
    success_evaluation: z
      .strictObject({ rubric: z.string().trim().min(1).max(4000), scale: z.enum(SUCCESS_SCALES) })
      .optional()
      .describe('Whether the conversation met `rubric`: `pass`/`fail`, with `numeric_1_10` a score too.'),
  })
  .refine((p) => p.summary !== undefined || p.structured_data !== undefined || p.success_evaluation !== undefined, {
    message: 'must ask for at least one of summary, structured_data, success_evaluation',
  })
  .describe(
    'What to learn from a finished call: `summary`, `structured_data` (a JSON Schema), `success_evaluation`; each optional.',
  );

/** The `analysis` object as the API answers it (the OpenAPI component `Analysis`). */
export const AnalysisObject = apiObject(
  'Analysis',
  "What the model made of a finished call or conversation: a summary, structured data valid against the plan's schema, a success verdict.",
  z.object({
    id: z.string().meta({ examples: ['ana_01jd5x2v7c0000000000000000'] }),
    object: z.literal('analysis'),
    livemode: z.boolean(),
    call_id: z.string().nullable(),
    conversation_id: z.string().nullable(),
    status: z
      .enum(['completed', 'failed'])
      .describe('`failed`: no valid answer after one retry with the validation errors (see `error`).'),
    summary: z.string().nullable(),
    structured_data: z.unknown().describe("Valid against the plan's `structured_data.schema`; null when not asked."),
    success: z
      .object({
        verdict: z.enum(['pass', 'fail']),
        score: z.number().int().optional().describe('`numeric_1_10` only: 1 to 10.'),
        reason: z.string(),
      })
      .nullable(),
    model: z.string().nullable(),
    plan: AnalysisPlanObject,
    form_id: z.string().nullable().describe('A call analysed for a form (`form_id`): the form filled.'),
    agent_id: z.string().nullable().describe('The agent of the call or conversation analysed.'),
    agent_version: z
      .number()
      .int()
      .nullable()
      .describe('The version of the agent the call or conversation ran; null when unknown.'),
    ...redactionField,
    cost: CostObject.nullable().describe(
      'What the analysis\'s model requests cost, at the price table of when each answered (README "Costs"); null when none was recorded.',
    ),
    cost_incomplete: z
      .boolean()
      .describe('True when its model is missing from the price table: `cost.model_micros` is null.'),
    created: unix,
    error: z
      .object({ message: z.string(), validation_errors: z.array(z.string()) })
      .optional()
      .describe('A failed analysis: why, and the last answer’s validation errors.'),
  }),
);
export type AnalysisObject = z.output<typeof AnalysisObject>;

/** The analysis object of a stored row. */
export function renderAnalysis(doc: WithId<AnalysisDoc>): AnalysisObject {
  return {
    id: doc._id,
    object: 'analysis' as const,
    livemode: doc.livemode,
    call_id: doc.subject_kind === 'call' ? doc.subject_id : null,
    conversation_id: doc.subject_kind === 'conversation' ? doc.subject_id : null,
    status: doc.status,
    summary: doc.summary ?? null,
    structured_data: doc.structured_data_json ? JSON.parse(doc.structured_data_json) : null,
    success: doc.success_json ? JSON.parse(doc.success_json) : null,
    model: doc.model ?? null,
    plan: JSON.parse(doc.plan_json) as AnalysisPlan,
    form_id: doc.form_id ?? null,
    agent_id: doc.agent_id ?? null,
    agent_version: doc.agent_version ?? null,
    ...renderRedaction(doc.redaction_json),
    cost: doc.cost_json ? (JSON.parse(doc.cost_json) as CostView) : null,
    cost_incomplete: doc.cost_json ? (JSON.parse(doc.cost_json) as CostView).model_micros === null : false,
    created: doc.created,
    ...(doc.status === 'failed'
      ? { error: { message: doc.error_message ?? 'failed', validation_errors: [...(doc.validation_errors ?? [])] } }
      : {}),
  };
}
