/**
 * Analyses of finished calls and conversations:
 *
 *   POST /v1/calls/{id}/analyze                 run the analysis again on the stored transcript
 *   GET  /v1/calls/{id}/analyses                every analysis of the call, newest first
 *   POST /v1/conversations/{id}/analyze         the same for a conversation, from its stored messages
 *   GET  /v1/conversations/{id}/analyses
 *
 * A re-run takes the plan in the body (`analysis`), else the call's (or, for a conversation, its agent's);
 * a single call may take `form_id` (a campaign form: its fields become the structured data's schema,
 * src/services/analysis.ts `formAnalysisPlan`). It runs `callAnalysisWorkflow` under the request's
 * idempotent id and answers the stored analysis, which becomes the call's current `analysis`; earlier
 * ones are kept. Each stored analysis emits one `call.analyzed` (`conversation.analyzed`).
 */
import type { Request, Router } from 'express';
import type { Client } from '@temporalio/client';
import { z } from 'zod';
import { config } from '../config';
import { ApiError, invalidParam, missingParam, notFound } from '../errors';
import { Analysis, AnalysisObject, AnalysisPlanObject, renderAnalysis } from '../models/analyses';
import { Agent } from '../models/agents';
import { Conversation, type ConversationDoc } from '../models/conversations';
import { Form, formDefinition } from '../models/forms';
import type { WithId } from '../models/store';
import { listOf } from '../models/wire';
import {
  analysisTranscript,
  checkAnalysisPlan,
  conversationModel,
  formAnalysisPlan,
  startAnalysis,
} from '../services/analysis';
import type { AgentSnapshot } from '../shared/calls';
import { TERMINAL_STATUSES } from '../shared/calls';
import type { AnalysisPlan, AnalysisWorkflowInput } from '../shared/analysis';
import { findCall } from '../services/call-requests';
import { idempotent } from './idempotency';
import { checkLlmQuota, takeQuota } from '../services/quotas';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';

export const analyzeCallSchema = z.strictObject({
  analysis: AnalysisPlanObject.optional().describe("The plan to run; absent: the call's own."),
  form_id: z
    .string()
    .min(1)
    .optional()
    .describe("A form (`form_…`) to fill from the transcript: its fields are the structured data's schema."),
});

export const analyzeConversationSchema = z.strictObject({
  analysis: AnalysisPlanObject.optional().describe("The plan to run; absent: the conversation's agent's."),
});

const EXAMPLE = {
  analysis: {
    summary: true,
    structured_data: {
      schema: {
        type: 'object',
        properties: { appointment_date: { type: 'string' }, confirmed: { type: 'boolean' } },
        required: ['confirmed'],
      },
    },
    success_evaluation: { rubric: 'The caller confirmed or moved the appointment.', scale: 'pass_fail' },
  },
};

/** 409 `transcript_empty`: nothing the person said to analyse. */
const nothingSaid = (what: string) =>
  new ApiError(
    409,
    'invalid_request_error',
    'transcript_empty',
    `The ${what} has no turn from the ${what === 'call' ? 'caller' : 'customer'}; there is nothing to analyse.`,
  );

/**
 * Runs the analysis under the request's idempotent id and answers it once stored (a retried request
 * waits for the same workflow).
 */
async function runAnalysis(
  temporal: Client,
  req: Parameters<typeof idempotent>[0],
  res: Parameters<typeof idempotent>[1],
  input: Omit<AnalysisWorkflowInput, 'analysisId'>,
): Promise<void> {
  await idempotent(req, res, 'ana', async (analysisId) => {
    // Once per Idempotency-Key: the day's tokens first (a read), then one of the day's re-runs.
    await checkLlmQuota(input.orgId);
    await takeQuota(input.orgId, 'analysis_reruns_per_day');
    const workflowId = await startAnalysis(temporal, { ...input, analysisId }, config().taskQueue);
    await temporal.workflow.getHandle(workflowId).result();
    const stored = await Analysis.findById(analysisId).lean();
    if (!stored) throw new Error(`analysis ${analysisId} finished without its row`);
    return { status: 200, body: renderAnalysis(stored) };
  });
}

/**
 * `POST /v1/calls/{id}/analyze` body `{analysis?, form_id?}` → the new analysis (`completed` or `failed`),
 * now the call's `analysis`. 409 `call_not_ended` while the call lasts, `transcript_empty` without a
 * caller turn; 400 `analysis` when neither the body nor the call has a plan, `form_id` unknown (404) or
 * given with `analysis.structured_data`.
 */
const analyzeCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/calls/{id}/analyze',
    operationId: 'analyzeCall',
    errors: { '409': ['call_not_ended', 'transcript_empty'], '429': ['quota_exceeded'] },
    tag: 'Calls',
    summary: "Analyse a call's transcript again",
    description:
      "Runs the plan given (else the call's) on the stored transcript and answers the analysis once stored; it becomes the call's `analysis`, earlier ones stay in `GET /v1/calls/{id}/analyses`. Emits `call.analyzed`.",
    scope: 'calls:write',
    body: analyzeCallSchema,
    example: EXAMPLE,
    response: AnalysisObject,
    handler: async (req, res, { body }) => {
      const call = await findCall(req.auth!, String(req.params.id));
      if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
      if (!(TERMINAL_STATUSES as readonly string[]).includes(call.status))
        throw new ApiError(
          409,
          'invalid_request_error',
          'call_not_ended',
          `The call is ${call.status}; it can be analysed once it has ended.`,
        );
      let plan: AnalysisPlan | null =
        body.analysis ?? (call.analysis_plan_json ? (JSON.parse(call.analysis_plan_json) as AnalysisPlan) : null);
      if (body.form_id) {
        if (body.analysis?.structured_data)
          throw invalidParam('form_id', 'Invalid form_id: give either form_id or analysis.structured_data, not both.');
        const form = await Form.findOne({ _id: body.form_id, org_id: call.org_id, livemode: call.livemode }).lean();
        if (!form) throw notFound('form', body.form_id, 'form_id');
        plan = formAnalysisPlan(formDefinition(form), plan ?? {});
      }
      if (!plan) throw missingParam('analysis', 'Missing required param: analysis (the call has no analysis plan).');
      if (!(await analysisTranscript({ kind: 'call', id: call._id })).personSpoke) throw nothingSaid('call');
      const agent = JSON.parse(call.agent_json ?? 'null') as AgentSnapshot | null;
      await runAnalysis(temporal, req, res, {
        subject: { kind: 'call', id: call._id },
        orgId: call.org_id,
        livemode: call.livemode,
        plan,
        model: agent?.model ?? null,
        ...(body.form_id ? { formId: body.form_id } : {}),
      });
    },
  });

/** `GET /v1/calls/{id}/analyses` → the call's analyses, newest first. */
const listCallAnalyses = operation({
  method: 'get',
  path: '/v1/calls/{id}/analyses',
  operationId: 'listCallAnalyses',
  tag: 'Calls',
  summary: "List a call's analyses",
  scope: 'calls:read',
  list: true,
  response: listOf(AnalysisObject),
  handler: async (req, res) => {
    const call = await findCall(req.auth!, String(req.params.id));
    res.json(
      await listPage(
        req,
        Analysis,
        { subject_id: call._id, org_id: call.org_id, livemode: call.livemode },
        renderAnalysis,
      ),
    );
  },
});

async function findConversation(req: Request): Promise<WithId<ConversationDoc>> {
  const id = String(req.params.id);
  const doc = await Conversation.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
  if (!doc) throw notFound('conversation', id, 'id');
  return doc as WithId<ConversationDoc>;
}

/**
 * `POST /v1/conversations/{id}/analyze` body `{analysis?}` → the analysis of the stored messages (plan:
 * the body's, else the conversation's agent's; 400 `analysis` when neither). 409 `transcript_empty`
 * without a customer message. Emits `conversation.analyzed`.
 */
const analyzeConversation = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/conversations/{id}/analyze',
    operationId: 'analyzeConversation',
    errors: { '409': ['transcript_empty'], '429': ['quota_exceeded'] },
    tag: 'Messaging',
    summary: 'Analyse a conversation',
    description:
      "Runs the plan given (else the agent's) on the stored messages and answers the analysis once stored; earlier ones stay in `GET /v1/conversations/{id}/analyses`. Emits `conversation.analyzed`.",
    scope: 'messages:write',
    body: analyzeConversationSchema,
    example: EXAMPLE,
    response: AnalysisObject,
    handler: async (req, res, { body }) => {
      const conversation = await findConversation(req);
      if (body.analysis) checkAnalysisPlan(body.analysis, 'analysis');
      let plan: AnalysisPlan | null = body.analysis ?? null;
      if (!plan && conversation.agent_id) {
        const agent = await Agent.findById(conversation.agent_id, { analysis_json: 1 }).lean();
        plan = agent?.analysis_json ? (JSON.parse(agent.analysis_json) as AnalysisPlan) : null;
      }
      if (!plan)
        throw missingParam('analysis', "Missing required param: analysis (the conversation's agent has no plan).");
      if (!(await analysisTranscript({ kind: 'conversation', id: conversation._id })).personSpoke)
        throw nothingSaid('conversation');
      await runAnalysis(temporal, req, res, {
        subject: { kind: 'conversation', id: conversation._id },
        orgId: conversation.org_id,
        livemode: conversation.livemode,
        plan,
        model: await conversationModel(conversation),
      });
    },
  });

/** `GET /v1/conversations/{id}/analyses` → the conversation's analyses, newest first. */
const listConversationAnalyses = operation({
  method: 'get',
  path: '/v1/conversations/{id}/analyses',
  operationId: 'listConversationAnalyses',
  tag: 'Messaging',
  summary: "List a conversation's analyses",
  scope: 'messages:read',
  list: true,
  response: listOf(AnalysisObject),
  handler: async (req, res) => {
    const conversation = await findConversation(req);
    res.json(
      await listPage(
        req,
        Analysis,
        { subject_id: conversation._id, org_id: conversation.org_id, livemode: conversation.livemode },
        renderAnalysis,
      ),
    );
  },
});

/** The analysis routes (mounted at `/v1` by src/api/app.ts: they sit under calls and conversations). */
export function analysesRouter(temporal: Client): Router {
  return operationsRouter('/v1', [
    analyzeCall(temporal),
    listCallAnalyses,
    analyzeConversation(temporal),
    listConversationAnalyses,
  ]);
}
