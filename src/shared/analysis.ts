/**
 * The analysis domain's contract: what an agent or a call asks to know about a finished
 * conversation (`AnalysisPlan`: a summary, structured data in the customer's JSON Schema, a success
 * verdict), `callAnalysisWorkflow`'s type name, input, output and workflow id, and the JSON Schema of the
 * model's answer derived from a plan. Imported by the API, the activities and the workflow bundle alike;
 * imports nothing of the project.
 */

/** The scales of a success evaluation: a pass/fail verdict, or a score from 1 to 10 with its verdict. */
export const SUCCESS_SCALES = ['pass_fail', 'numeric_1_10'] as const;
export type SuccessScale = (typeof SUCCESS_SCALES)[number];

/**
 * What to learn from a finished call or conversation (Vapi's `analysisPlan`, Retell's post-call analysis);
 * each part optional, at least one given. Checked at write time (src/services/analysis.ts `checkAnalysisPlan`):
 * `structured_data.schema` is a JSON Schema of an object (draft 2020-12, or draft-07 when `$schema` names
 * it), at most 32 KB of JSON.
 */
export interface AnalysisPlan {
  /** A short summary; `{prompt}` says what it should dwell on. */
  summary?: true | { prompt: string };
  /** Values extracted from the transcript, valid against `schema`; `prompt` guides the extraction. */
  structured_data?: { schema: Record<string, unknown>; prompt?: string };
  /** Whether the conversation met `rubric`: `pass`/`fail`, and with `numeric_1_10` a score too. */
  success_evaluation?: { rubric: string; scale: SuccessScale };
}

/** What an analysis is about: a call (`call_…`) or a WhatsApp/SMS/web conversation (`conv_…`). */
export interface AnalysisSubject {
  kind: 'call' | 'conversation';
  id: string;
}

/** Argument of `callAnalysisWorkflow`: everything one analysis needs, fixed when it is started. */
export interface AnalysisWorkflowInput {
  /** `ana_…`, chosen by the starter (derived from the call's end, or the API request's idempotent id). */
  analysisId: string;
  subject: AnalysisSubject;
  orgId: string;
  livemode: boolean;
  plan: AnalysisPlan;
  /** The model to ask (the agent's); null for the configured default (`OPENAI_MODEL`). */
  model: string | null;
  /** A single call analysed for a form (`form_id` of `POST /v1/calls/{id}/analyze`): the form's id. */
  formId?: string;
}

/** The model's answer once it is valid: the parts the plan asked for. */
export interface AnalysisValues {
  summary?: string;
  structured_data?: unknown;
  success?: { verdict: 'pass' | 'fail'; score?: number; reason: string };
}

/**
 * What one request for an analysis (the `requestAnalysis` activity) found: a valid answer, or the
 * problems of an answer that is not (its text kept, cut, so a second request can show the model its answer).
 */
export type AnalysisAnswer =
  | { ok: true; values: AnalysisValues; model: string }
  | { ok: false; errors: string[]; text: string; model: string | null };

/** What `callAnalysisWorkflow` returns: the stored analysis's id and status. */
export interface AnalysisOutcome {
  analysisId: string;
  status: 'completed' | 'failed';
}

/** Workflow type name of one analysis (recorded histories depend on it). */
export const CALL_ANALYSIS_WORKFLOW = 'callAnalysisWorkflow';

/** Signature of `callAnalysisWorkflow`, for starters. */
export type CallAnalysisWorkflow = (input: AnalysisWorkflowInput) => Promise<AnalysisOutcome>;

/**
 * The workflow id of an analysis: `analysis:<call or conversation id>:<analysis id>`, so starting it twice
 * (a retried activity, a retried API request) is a no-op.
 */
export const analysisWorkflowId = (subjectId: string, analysisId: string): string =>
  `analysis:${subjectId}:${analysisId}`;

/** Characters of an invalid answer kept to show the model on the second request. */
export const MAX_ANSWER_TEXT = 8_000;

/** The JSON Schema of the `success` part of an answer on `scale`. */
export function successSchema(scale: SuccessScale): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      verdict: { type: 'string', enum: ['pass', 'fail'] },
      ...(scale === 'numeric_1_10' ? { score: { type: 'integer', minimum: 1, maximum: 10 } } : {}),
      reason: { type: 'string', minLength: 1 },
    },
    required: scale === 'numeric_1_10' ? ['verdict', 'score', 'reason'] : ['verdict', 'reason'],
    additionalProperties: false,
  };
}

/**
 * The JSON Schema of the model's whole answer for `plan`: an object with the parts asked for, each
 * required. `structuredData` is what to put under `structured_data`: the customer's schema as sent to the
 * model (without `$schema`, its `$defs`/`definitions` lifted to the root so `#/$defs/…` still resolves),
 * or `true` (any value) for the envelope the activity validates before checking the data with the
 * customer's own schema and dialect.
 */
export function analysisAnswerSchema(plan: AnalysisPlan, structuredData: 'customer' | 'any'): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const root: Record<string, unknown> = {};
  if (plan.summary) properties.summary = { type: 'string', minLength: 1 };
  if (plan.structured_data) {
    if (structuredData === 'any') properties.structured_data = true;
    else {
      const { $schema: _dialect, $defs, definitions, ...schema } = plan.structured_data.schema;
      properties.structured_data = schema;
      if ($defs !== undefined) root.$defs = $defs;
      if (definitions !== undefined) root.definitions = definitions;
    }
  }
  if (plan.success_evaluation) properties.success = successSchema(plan.success_evaluation.scale);
  return {
    type: 'object',
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
    ...root,
  };
}
