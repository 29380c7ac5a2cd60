/**
 * Analyses of finished calls and conversations: the rules, shared by the API (plans checked at
 * write time, re-runs started), the call activities (the analysis started when a call ends) and the
 * analysis activities (src/activities/analysis.ts: the model asked, the result stored).
 *
 * - A plan's `structured_data.schema` is a JSON Schema of an object, at most 32 KB of JSON, checked with Ajv
 *   as tools' `parameters` are (src/services/tools.ts `checkToolParameters`): 400 naming the place,
 *   `analysis.structured_data.schema.properties.date.type`.
 * - The model is asked once with structured output (`response_format: {type: "json_schema"}`, the
 *   answer's schema derived from the plan: src/shared/analysis.ts `analysisAnswerSchema`); a server that
 *   refuses `json_schema` (400 naming it) is asked in JSON mode (`json_object`) with the schema in the prompt.
 *   Either way the answer is validated here (the envelope, then the data against the customer's schema
 *   with its own dialect); an invalid answer is asked again once by the workflow, with its errors.
 * - Storing is insert-if-absent under the analysis id fixed at the start (a retry stores nothing new); the
 *   call's `analysis` becomes the newest stored one; one event (`call.analyzed` / `conversation.analyzed`)
 *   under an id derived from the analysis id.
 */
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import OpenAI from 'openai';
import { config } from '../config';
import { invalidParam } from '../errors';
import { Analysis, renderAnalysis, type AnalysisObject } from '../models/analyses';
import { Agent } from '../models/agents';
import { Call, CallTurn, renderCall } from '../models/calls';
import { Conversation, Message, renderConversation, type ConversationDoc } from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import { sumCostOfRows, UsageRecord } from '../models/usage';
import { openai } from '../providers/openai';
import { tracedChat } from '../platform/genai-tracing';
import {
  analysisAnswerSchema,
  analysisWorkflowId,
  CALL_ANALYSIS_WORKFLOW,
  MAX_ANSWER_TEXT,
  type AnalysisAnswer,
  type AnalysisPlan,
  type AnalysisValues,
  type AnalysisWorkflowInput,
  type CallAnalysisWorkflow,
} from '../shared/analysis';
import type { AgentSnapshot } from '../shared/calls';
import type { FormDefinition } from '../shared/forms';
import { derivedId, idTime } from '../shared/ids';
import { emitEvent } from './events';
import { callParties, redactorFor } from './redaction-policy';
import { argumentProblems, checkToolParameters } from './tools';
import { analysisUsage, recordUsage } from './usage';

/** The largest `structured_data.schema`, in bytes of its JSON (32 KB). */
export const MAX_ANALYSIS_SCHEMA_BYTES = 32 * 1024;

/**
 * Checks a plan the API was given (its shape already parsed by src/models/analyses.ts `AnalysisPlanObject`):
 * `structured_data.schema` a JSON Schema of an object, at most `MAX_ANALYSIS_SCHEMA_BYTES`.
 * @param root the request parameter the plan is (`analysis`, or `` for a body that is the plan)
 * @returns the plan, unchanged
 * @throws ApiError 400 `parameter_invalid` naming `<root>.structured_data.schema` or a place inside it
 */
export function checkAnalysisPlan(plan: AnalysisPlan, root: string): AnalysisPlan {
  if (!plan.structured_data) return plan;
  const param = `${root ? `${root}.` : ''}structured_data.schema`;
  if (Buffer.byteLength(JSON.stringify(plan.structured_data.schema)) > MAX_ANALYSIS_SCHEMA_BYTES)
    throw invalidParam(param, `Invalid ${param}: must be at most ${MAX_ANALYSIS_SCHEMA_BYTES} bytes of JSON.`);
  checkToolParameters(plan.structured_data.schema, param);
  return plan;
}

/**
 * The plan that fills a campaign form from a single call's transcript (`form_id` of `POST
 * /v1/calls/{id}/analyze`): structured data whose schema is derived from the form's fields (types, enum
 * options, dates `YYYY-MM-DD`, text of at most 1,000 characters, the required fields required), the
 * fields' descriptions as the prompt, on top of `base`'s summary and success evaluation.
 */
export function formAnalysisPlan(form: FormDefinition, base: AnalysisPlan = {}): AnalysisPlan {
  const property = (f: FormDefinition['fields'][number]): Record<string, unknown> => {
    const described = f.description ? { description: f.description } : {};
    switch (f.type) {
      case 'number':
        return { type: 'number', ...described };
      case 'boolean':
        return { type: 'boolean', ...described };
      case 'enum':
        return { type: 'string', enum: [...(f.options ?? [])], ...described };
      case 'date':
        return { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', ...described };
      default:
        return { type: 'string', minLength: 1, maxLength: 1000, ...described };
    }
  };
  return {
    ...(base.summary ? { summary: base.summary } : {}),
    ...(base.success_evaluation ? { success_evaluation: base.success_evaluation } : {}),
    structured_data: {
      schema: {
        type: 'object',
        properties: Object.fromEntries(form.fields.map((f) => [f.key, property(f)])),
        required: form.fields.filter((f) => f.required).map((f) => f.key),
        additionalProperties: false,
      },
      prompt: `Fill the form "${form.name}" from what the person said; leave out a field nobody gave a value for unless it is required.`,
    },
  };
}

/**
 * Starts the analysis's `callAnalysisWorkflow` (workflow id `analysis:<subject id>:<analysis id>`,
 * `REJECT_DUPLICATE`); one already started under that id (a retry) is fine.
 * @param taskQueue the queue of the workers that run it (the starter's own)
 */
export async function startAnalysis(
  temporal: Client,
  input: AnalysisWorkflowInput,
  taskQueue: string,
): Promise<string> {
  const workflowId = analysisWorkflowId(input.subject.id, input.analysisId);
  try {
    await temporal.workflow.start<CallAnalysisWorkflow>(CALL_ANALYSIS_WORKFLOW, {
      workflowId,
      taskQueue,
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      staticSummary: `Analysis of ${input.subject.kind} ${input.subject.id}`,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}

/**
 * The analysis that follows a call's end (src/activities/calls.ts `transitionCall`, after `call.ended`):
 * started when the call has a plan and at least one caller turn, under an id derived from the call and
 * the end's transition time `endedAtMs` (fixed in the call's history), so the activity's retries start it
 * once. The id's time is a millisecond after the transition's, so the analysis and its `call.analyzed`
 * sort after `call.ended`. Answers whether one was started.
 */
export async function startEndedCallAnalysis(
  temporal: Client,
  callId: string,
  endedAtMs: number,
  taskQueue: string,
): Promise<boolean> {
  const call = await Call.findById(callId).lean();
  if (!call?.analysis_plan_json || call.ended_ms == null) return false;
  if (!(await CallTurn.exists({ call_id: callId, role: 'caller' }))) return false;
  const agent = JSON.parse(call.agent_json ?? 'null') as AgentSnapshot | null;
  await startAnalysis(
    temporal,
    {
      analysisId: derivedId('ana', endedAtMs + 1, `${callId}:ended`),
      subject: { kind: 'call', id: callId },
      orgId: call.org_id,
      livemode: call.livemode,
      plan: JSON.parse(call.analysis_plan_json) as AnalysisPlan,
      model: agent?.model ?? null,
    },
    taskQueue,
  );
  return true;
}

/** A transcript as the model reads it: one line per turn, and whether the person said anything. */
export interface AnalysisTranscript {
  lines: string[];
  /** At least one turn of the caller (a call) or the customer (a conversation). */
  personSpoke: boolean;
}

/**
 * The transcript of a call (its turns, in order) or a conversation (its messages, oldest first). A squad
 * call's lines name the member that spoke (`Assistant [booking]: …`) and each hand-off is a line of its
 * own (`— reception handed the caller to booking (context: all) —`, a summary's text with it), so the
 * analysis sees the whole call and who said what (`callLines`).
 */
export async function analysisTranscript(subject: AnalysisWorkflowInput['subject']): Promise<AnalysisTranscript> {
  if (subject.kind === 'call') {
    const turns = await CallTurn.find({ call_id: subject.id }).sort({ seq: 1 }).lean();
    const squad = turns.some((t) => t.agent_id != null || t.role === 'handoff');
    const firstHandoff = turns.find((t) => t.role === 'handoff' && t.handoff_json);
    // The member that answered first: the first hand-off's `from`, else (none made) the call's member.
    const start = !squad
      ? null
      : firstHandoff
        ? (JSON.parse(firstHandoff.handoff_json!) as { from: string }).from
        : ((await Call.findById(subject.id, { squad_member: 1 }).lean())?.squad_member ?? null);
    return { lines: callLines(turns, start), personSpoke: turns.some((t) => t.role === 'caller') };
  }
  const messages = await Message.find({ conversation_id: subject.id }).sort({ _id: 1 }).lean();
  const who = {
    customer: 'Customer',
    assistant: 'Assistant',
    person: 'Staff',
    api: 'Business',
    handoff: 'Hand-off', // a squad's member handed the conversation to another
  } as const;
  return {
    lines: messages.map((m) => `${who[m.author]}: ${m.text}`),
    personSpoke: messages.some((m) => m.author === 'customer'),
  };
}

/**
 * The analysis lines of a call's turns. `start`: a squad call's first member (null: not a squad call), then
 * each `handoff` turn moves the speaking member to its `to`; assistant lines name the member speaking.
 */
export function callLines(
  turns: {
    role: string;
    text: string;
    tool_name?: string | null;
    tool_arguments_json?: string | null;
    handoff_json?: string | null;
  }[],
  start: string | null,
): string[] {
  let member = start;
  return turns.map((t) => {
    if (t.role === 'caller') return `Caller: ${t.text}`;
    if (t.role === 'assistant') return member ? `Assistant [${member}]: ${t.text}` : `Assistant: ${t.text}`;
    if (t.role === 'note') return `Supervisor note: ${t.text}`;
    if (t.role === 'handoff' && t.handoff_json) {
      const h = JSON.parse(t.handoff_json) as { from: string; to: string; context: string; summary?: string };
      member = h.to;
      const summary = h.summary ? `: ${h.summary}` : '';
      return `— ${h.from} handed the caller to ${h.to} (context: ${h.context}${summary}) —`;
    }
    return `Tool ${t.tool_name ?? 'unknown'}(${t.tool_arguments_json ?? '{}'}): ${t.text}`;
  });
}

/** What `askForAnalysis` is given besides the analysis's input. */
export interface AnalysisRequest {
  /** 1, or 2 for the second request that shows the model its invalid answer. */
  request: number;
  previous?: { text: string; errors: string[] };
  /** Aborts the model request (a cancelled activity). */
  signal?: AbortSignal;
}

/**
 * Asks the model for the analysis of `input.subject`'s stored transcript and validates its answer; meters
 * the request (`analysisUsage`, once per analysis and request). A server that refuses the `json_schema`
 * response format is asked again in JSON mode. The provider's errors are thrown (the activity retries).
 * @returns the valid values, or the answer's problems (each `<path>: <message>`)
 */
export async function askForAnalysis(input: AnalysisWorkflowInput, req: AnalysisRequest): Promise<AnalysisAnswer> {
  const transcript = await analysisTranscript(input.subject);
  const model = input.model ?? config().openaiModel;
  const messages = (jsonMode: boolean) =>
    transcriptQuestion(analysisInstructions(input, jsonMode), transcript.lines, req.previous);
  const schema = analysisAnswerSchema(input.plan, 'customer');
  const options = { signal: req.signal };
  let completion: OpenAI.Chat.Completions.ChatCompletion;
  try {
    completion = await tracedChat(
      model,
      () =>
        openai().chat.completions.create(
          {
            model,
            messages: messages(false),
            response_format: { type: 'json_schema', json_schema: { name: 'analysis', schema, strict: false } },
            user: input.subject.id,
          },
          options,
        ),
      { purpose: 'analysis' },
    );
  } catch (err) {
    if (!(err instanceof OpenAI.BadRequestError && /response_format|json_schema/i.test(err.message))) throw err;
    completion = await tracedChat(
      model,
      () =>
        openai().chat.completions.create(
          { model, messages: messages(true), response_format: { type: 'json_object' }, user: input.subject.id },
          options,
        ),
      { purpose: 'analysis' },
    );
  }
  await recordUsage(
    analysisUsage({
      orgId: input.orgId,
      livemode: input.livemode,
      analysisId: input.analysisId,
      request: req.request,
      subjectId: input.subject.id,
      model: completion.model,
      usage: completion.usage,
      occurredMs: Date.now(),
    }),
  );
  const text = completion.choices[0]?.message?.content ?? '';
  const problems = answerProblems(input.plan, text);
  if (problems.ok) return { ok: true, values: problems.values, model: completion.model };
  return { ok: false, errors: problems.errors, text: text.slice(0, MAX_ANSWER_TEXT), model: completion.model };
}

/**
 * The system message of an analysis request: what the transcript is, each part the plan asks for with its
 * prompt, and in JSON mode the answer's JSON Schema.
 */
export function analysisInstructions(input: AnalysisWorkflowInput, jsonMode: boolean): string {
  const { plan } = input;
  const what =
    input.subject.kind === 'call'
      ? 'phone call between an AI assistant and a caller'
      : 'text conversation between a business and a customer';
  const lines = [
    `You analyse a finished ${what}; the transcript follows. Answer with one JSON object and nothing else, with these keys:`,
  ];
  if (plan.summary)
    lines.push(
      `- "summary": a summary in two to four sentences.${typeof plan.summary === 'object' ? ` ${plan.summary.prompt}` : ''}`,
    );
  if (plan.structured_data)
    lines.push(
      `- "structured_data": values taken from the transcript, valid against the JSON Schema of the answer.${plan.structured_data.prompt ? ` ${plan.structured_data.prompt}` : ''}`,
    );
  if (plan.success_evaluation) {
    const numeric = plan.success_evaluation.scale === 'numeric_1_10';
    lines.push(
      `- "success": whether the conversation succeeded by this rubric: ${plan.success_evaluation.rubric}\n  As {"verdict": "pass" or "fail",${numeric ? ' "score": an integer from 1 (worst) to 10 (best),' : ''} "reason": one sentence}.`,
    );
  }
  if (jsonMode) lines.push(`The JSON Schema of the answer:\n${JSON.stringify(analysisAnswerSchema(plan, 'customer'))}`);
  return lines.join('\n');
}

/**
 * The problems of the model's answer `text` for `plan`: not JSON, the envelope (summary, success, no other
 * keys), then `structured_data` against the customer's schema (Ajv with the schema's own dialect, every
 * problem, as a tool's arguments are checked: src/services/tools.ts `argumentProblems`).
 */
export function answerProblems(
  plan: AnalysisPlan,
  text: string,
): { ok: true; values: AnalysisValues } | { ok: false; errors: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch (err) {
    return { ok: false, errors: [`the answer is not valid JSON (${(err as Error).message})`] };
  }
  const errors = argumentProblems(analysisAnswerSchema(plan, 'any'), value);
  if (errors.length === 0 && plan.structured_data) {
    const data = (value as { structured_data?: unknown }).structured_data;
    errors.push(
      ...argumentProblems(plan.structured_data.schema, data).map((e) =>
        /^[^\s:]+: /.test(e) ? `structured_data.${e}` : `structured_data: ${e}`,
      ),
    );
  }
  return errors.length ? { ok: false, errors } : { ok: true, values: value as AnalysisValues };
}

/**
 * The recorded cost of an analysis's model requests (its usage rows `ana:<id>:1` and `:2`, each priced
 * when its answer came), JSON (`CostObject`); null when none was recorded.
 */
async function analysisCostJson(analysisId: string): Promise<string | null> {
  // Two lookups by `_id` (a primary-key read on every store, where `_id: {$in}` is not one on the embedded store).
  const found = await Promise.all([1, 2].map((n) => UsageRecord.findById(`ana:${analysisId}:${n}`).lean()));
  const cost = sumCostOfRows(found.filter((r) => r !== null));
  return cost ? JSON.stringify(cost) : null;
}

/** What `saveAnalysis` stores: the final answer, or why none came (the model requests failed). */
export interface AnalysisResultInput {
  input: AnalysisWorkflowInput;
  answer: AnalysisAnswer;
  /** The requests failed (the provider unreachable, or refusing): the error's message. */
  failure?: string;
}

/**
 * Stores the analysis once (insert-if-absent under its id; `created` is the id's time), makes it the
 * subject's current analysis when none newer is (a call's `analysis`), and emits its one event
 * (`call.analyzed` / `conversation.analyzed`, id derived from the analysis id) with `data.object` the call
 * (or conversation) with `analysis` set to this one.
 * @returns the analysis as stored (the first attempt's, on a retry)
 * @throws Error when the subject has no document
 */
export async function saveAnalysis(temporal: Client, result: AnalysisResultInput): Promise<AnalysisObject> {
  const { input, answer } = result;
  const createdMs = idTime(input.analysisId);
  const values = answer.ok ? answer.values : null;
  const agent = await subjectAgent(input.subject);
  // The summary, the structured data's strings and the verdict's reason are stored
  // redacted when the organization's redaction is on (the subject's parties kept).
  const redactor = await redactorFor(
    { orgId: input.orgId, livemode: input.livemode },
    { keep: await subjectParties(input.subject) },
  );
  await insertIfAbsent(Analysis, {
    _id: input.analysisId,
    org_id: input.orgId,
    livemode: input.livemode,
    subject_kind: input.subject.kind,
    subject_id: input.subject.id,
    status: answer.ok ? 'completed' : 'failed',
    summary: redactor ? redactor.text(values?.summary ?? null) : (values?.summary ?? null),
    structured_data_json:
      values && 'structured_data' in values
        ? JSON.stringify(redactor ? redactor.value(values.structured_data) : values.structured_data)
        : null,
    success_json: values?.success ? JSON.stringify(redactor ? redactor.value(values.success) : values.success) : null,
    model: answer.model,
    error_message: answer.ok
      ? null
      : (result.failure ?? `The model's answer did not validate after a second request: ${answer.errors.join('; ')}`),
    validation_errors: answer.ok || result.failure ? [] : answer.errors,
    plan_json: JSON.stringify(input.plan),
    form_id: input.formId ?? null,
    agent_id: agent.agent_id,
    agent_version: agent.agent_version,
    redaction_json: redactor?.stored() ?? null,
    cost_json: await analysisCostJson(input.analysisId),
    created: Math.floor(createdMs / 1000),
  });
  const stored = await Analysis.findById(input.analysisId).lean();
  if (!stored) throw new Error(`analysis ${input.analysisId} was not stored`);
  const analysis = renderAnalysis(stored);
  let object: { id: string } & Record<string, unknown>;
  if (input.subject.kind === 'call') {
    // The newest analysis is the call's current one: an older run finishing late leaves it.
    await Call.updateOne(
      { _id: input.subject.id, $or: [{ analysis_id: null }, { analysis_id: { $lte: input.analysisId } }] },
      { $set: { analysis_id: input.analysisId, analysis_json: JSON.stringify(analysis) } },
    );
    const call = await Call.findById(input.subject.id).lean();
    if (!call) throw new Error(`call ${input.subject.id} has no document`);
    object = { ...renderCall(call), analysis };
  } else {
    const conversation = await Conversation.findById(input.subject.id).lean();
    if (!conversation) throw new Error(`conversation ${input.subject.id} has no document`);
    object = { ...renderConversation(conversation as WithId<ConversationDoc>), analysis };
  }
  await emitEvent(temporal, {
    id: derivedId('evt', createdMs, `${input.analysisId}:analyzed`),
    orgId: input.orgId,
    livemode: input.livemode,
    type: `${input.subject.kind}.analyzed`,
    createdMs,
    object,
  });
  return analysis;
}

/**
 * The agent and version the analysed call or conversation ran (analyses by version), read by
 * `_id`; nulls when unknown (a call made before versions, a conversation never answered by an agent).
 */
async function subjectAgent(subject: { kind: 'call' | 'conversation'; id: string }) {
  if (subject.kind === 'call') {
    const call = await Call.findById(subject.id, { agent_id: 1, agent_version: 1 }).lean();
    return { agent_id: call?.agent_id ?? null, agent_version: call?.agent_version ?? null };
  }
  const conv = await Conversation.findById(subject.id, { agent_id: 1, agent_version: 1, agent_version_of: 1 }).lean();
  return {
    agent_id: conv?.agent_id ?? null,
    agent_version: conv?.agent_id && conv.agent_version_of === conv.agent_id ? (conv.agent_version ?? null) : null,
  };
}

/**
 * The parties of an analysis's subject, whose numbers redaction keeps: a call's `from` and `to`, a
 * conversation's customer and service numbers. Read only when redaction is on.
 */
async function subjectParties(subject: AnalysisWorkflowInput['subject']): Promise<string[]> {
  if (subject.kind === 'call') return (await callParties(subject.id))?.keep ?? [];
  const conv = await Conversation.findById(subject.id, { customer_number: 1, service_number: 1 }).lean();
  return conv ? [conv.customer_number, conv.service_number] : [];
}

/** The model a conversation's analysis asks: its agent's, else null (the configured default). */
export async function conversationModel(conversation: { agent_id?: string | null }): Promise<string | null> {
  if (!conversation.agent_id) return null;
  const agent = await Agent.findById(conversation.agent_id, { model: 1 }).lean();
  return agent?.model ?? null;
}

/**
 * The messages of a structured answer about a transcript (an analysis; a test-suite
 * judge): the instructions, the transcript's lines, and, when an earlier answer did not validate, that
 * answer and why, asking once more for the corrected JSON object.
 */
export function transcriptQuestion(
  instructions: string,
  lines: string[],
  previous?: { text: string; errors: string[] } | null,
): OpenAI.Chat.Completions.ChatCompletionMessageParam[] {
  return [
    { role: 'system', content: instructions },
    { role: 'user', content: `Transcript:\n${lines.join('\n') || '(no turns)'}` },
    ...(previous
      ? [
          { role: 'assistant' as const, content: previous.text },
          {
            role: 'user' as const,
            content: `That answer is not valid: ${previous.errors.join('; ')}. Answer again with the corrected JSON object only.`,
          },
        ]
      : []),
  ];
}
