/**
 * Bulk call campaigns (spec section 4 `POST /v1/bulk-calls`; DESIGN.md sections 1 and 10), scopes
 * `calls:write` / `calls:read`:
 *
 *   POST /v1/bulk-calls                   start a campaign (Idempotency-Key): `agent_id` (or `squad_id`), `form_id`, `contacts`,
 *                                         and `name`, `from`, `max_concurrency`, `max_duration_seconds`,
 *                                         `schedule`, `retry`, `metadata`, test keys: `simulation`
 *   GET  /v1/bulk-calls                   list, newest first (filter `status`)
 *   GET  /v1/bulk-calls/{id}              the campaign: `status`, `counts`, its settings
 *   GET  /v1/bulk-calls/{id}/results      one `bulk_call_result` per contact, in contact order (filter
 *                                         `status`); `Accept: text/csv` → every result as CSV
 *   POST /v1/bulk-calls/{id}/pause|resume|cancel   Workflow Updates; 409 `bulk_call_ended` once over
 *
 * Creating one writes a `pending` result row per contact (duplicates by number removed and counted),
 * starts `bulkCallWorkflow` (workflow id = campaign id), then writes the campaign's document; reads come
 * from the documents the workflow's activities keep. The calls are ordinary calls (`GET
 * /v1/calls?bulk_call_id=`).
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { stringify } from 'csv-stringify';
import { ApiError, invalidParam, notFound } from '../errors';
import { checkAnswering } from '../services/squads';
import {
  BulkCall,
  BulkCallObject,
  BulkCallResult,
  BulkCallResultObject,
  effectiveResultStatus,
  renderBulkCall,
  renderBulkCallResult,
  resultStatusFilter,
  rowContact,
  type BulkCallResultDoc,
  type CampaignContact,
} from '../models/bulk-calls';
import { Form, formFields } from '../models/forms';
import { type WithId } from '../models/store';
import { listOf } from '../models/wire';
import { secondsOfDay } from '../services/bulk-calls';
import { CONCURRENCY, prepareBulkCall, startBulkCall } from '../services/bulk-call-requests';
import { MAX_DURATION } from '../services/calls';
import {
  BULK_CALL_ENDED,
  BULK_CALL_STATUSES,
  bulkCallWorkflowId,
  cancelUpdate,
  pauseUpdate,
  REDIAL_OUTCOMES,
  RESULT_STATUSES,
  type ResultStatus,
  resumeUpdate,
  type BulkCallProgress,
} from '../shared/bulk-calls';
import { authenticate, largeJsonBody, requireScope } from './middleware';
import { idempotent } from './idempotency';
import { listPage } from './lists';
import { operation, operationsRouter } from './operations';
import { checkLlmQuota } from '../services/quotas';
import {
  e164,
  isE164,
  localTime,
  metadata,
  parseIndexed,
  queryFilters,
  simulationSchema,
  timeZone,
  windowDays,
} from './validation';

/** Contacts one request may carry. */
export const MAX_CONTACTS = 10_000;
/** Body limit of `POST /v1/bulk-calls` (the shared limit of other routes is 1 MB). */
export const BULK_BODY_LIMIT = '20mb';
/** Bytes of JSON a contact's `context` may take. */
const MAX_CONTACT_CONTEXT_BYTES = 4096;

const scheduleSchema = z.strictObject({
  window: z.strictObject({ start: localTime, end: localTime }),
  days: windowDays.optional(),
  timezone: timeZone.optional(),
  ends_at: z.number().int('must be an integer (unix seconds)').optional(),
});

const retrySchema = z.strictObject({
  max_attempts: z.number().int().min(1).max(10).optional(),
  on: z
    .array(z.enum(REDIAL_OUTCOMES))
    .max(REDIAL_OUTCOMES.length)
    .optional()
    .describe('Outcomes redialed: `busy`, `no_answer`, `failed`, `voicemail` (a machine answered).'),
  interval_seconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
});

export const createBulkCallSchema = z.strictObject({
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe('The agent that answers each call; required unless `squad_id` is given (one of the two).'),
  squad_id: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A squad (`sqd_…`) instead of one agent: each call starts as a squad call (its `start` member answers, the members hand off); the campaign's `agent_id` is the start member's.",
    ),
  form_id: z.string().min(1),
  contacts: z
    .array(z.unknown())
    .min(1, 'must have at least one contact')
    .max(MAX_CONTACTS, `must have at most ${MAX_CONTACTS} contacts`),
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  from: e164.optional(),
  max_concurrency: z.number().int().min(1).max(CONCURRENCY.max).optional(),
  max_duration_seconds: z.number().int().min(MAX_DURATION.min).max(MAX_DURATION.max).optional(),
  schedule: scheduleSchema.optional(),
  retry: retrySchema.optional(),
  metadata: metadata.optional(),
  simulation: simulationSchema.optional(),
});

export const bulkContactSchema = z.strictObject({
  phone: e164,
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  external_id: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  metadata: metadata.optional(),
  simulation: simulationSchema.optional(),
});

/**
 * The body parser of `POST /v1/bulk-calls`, mounted on `/v1` before the shared 1 MB JSON parser (which
 * then finds the body read and steps aside): 10,000 contacts with their context need more. It
 * authenticates and checks the scope first, so no one without `calls:write` makes the API read 20 MB.
 */
export function bulkCallBodyParser(): Router {
  const router = Router();
  const parseLarge = largeJsonBody(
    BULK_BODY_LIMIT,
    () =>
      new ApiError(
        413,
        'invalid_request_error',
        'body_too_large',
        `The request body is larger than ${BULK_BODY_LIMIT.toUpperCase()} (at most ${MAX_CONTACTS} contacts).`,
      ),
  );
  router.post('/bulk-calls', authenticate, requireScope('calls:write'), parseLarge);
  return router;
}

/** Parses and checks the contacts: each an E.164 string or an object; 400 naming the row (`contacts[17].phone`). */
function parseContacts(
  raw: unknown[],
  campaignMetadata: Record<string, string>,
  livemode: boolean,
): { contacts: CampaignContact[]; given: unknown[]; duplicates: number } {
  const seen = new Set<string>();
  const contacts: CampaignContact[] = [];
  const given: unknown[] = [];
  let duplicates = 0;
  raw.forEach((item, i) => {
    const at = `contacts[${i}]`;
    let contact: CampaignContact;
    if (typeof item === 'string') {
      if (!isE164(item))
        throw invalidParam(
          at,
          `Invalid ${at}: must be a phone number in E.164 format, like +14155550123, or an object with phone.`,
        );
      contact = { phone: item };
    } else if (item && typeof item === 'object' && !Array.isArray(item)) {
      contact = parseIndexed(bulkContactSchema, item, at);
      if (contact.context && Buffer.byteLength(JSON.stringify(contact.context)) > MAX_CONTACT_CONTEXT_BYTES) {
        throw invalidParam(
          `${at}.context`,
          `Invalid ${at}.context: must be at most ${MAX_CONTACT_CONTEXT_BYTES} bytes of JSON.`,
        );
      }
      if (contact.metadata && Object.keys({ ...campaignMetadata, ...contact.metadata }).length > 50) {
        throw invalidParam(
          `${at}.metadata`,
          `Invalid ${at}.metadata: with the campaign's metadata, a call has at most 50 keys.`,
        );
      }
      if (livemode && contact.simulation)
        throw invalidParam(
          `${at}.simulation`,
          'simulation is only accepted with a test-mode key; live calls ring real phones.',
        );
    } else {
      throw invalidParam(at, `Invalid ${at}: must be an E.164 string or an object with phone.`);
    }
    if (seen.has(contact.phone)) {
      duplicates++;
      return;
    }
    seen.add(contact.phone);
    contacts.push(contact);
    given.push(item);
  });
  return { contacts, given, duplicates };
}

const tag = 'Bulk calls';

/** The campaign body as documented: each contact an E.164 string or a contact object (`parseContacts`). */
const bulkCallBody = createBulkCallSchema.extend({
  contacts: z
    .array(z.union([e164, bulkContactSchema]))
    .min(1)
    .max(MAX_CONTACTS),
});

/**
 * `POST /v1/bulk-calls` → the `bulk_call`, `running`. Contacts: up to 10,000 E.164 strings or
 * `{phone, name?, external_id?, context?, metadata?, simulation?}`; a number given twice is called once
 * (`duplicates_removed`). Live keys: Twilio must be configured (else 503), no `simulation`; `from` must
 * be the organization's voice number or verified caller ID (400 `from_not_owned`; absent: the agent's
 * number, else the organization's first voice number). Exactly one of `agent_id` and `squad_id` (400
 * `parameter_missing` naming `agent_id`, 400 naming `squad_id` when both). 404 naming `agent_id` /
 * `squad_id` / `form_id` when unknown (a deleted agent or squad is unknown).
 */
const createBulkCall = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/v1/bulk-calls',
    operationId: 'createBulkCall',
    errors: {
      '400': ['from_not_owned'],
      '404': ['resource_missing'],
      '429': ['quota_exceeded'],
      '503': ['telephony_not_configured'],
    },
    tag,
    summary: 'Start a bulk call campaign',
    description: `Up to ${MAX_CONTACTS} contacts; a bad row is a 400 naming it (\`contacts[17].phone\`); duplicate numbers are dialed once. Calling windows are local to each contact.`,
    scope: 'calls:write',
    bodyDoc: bulkCallBody, // parsed by the handler (`parseIndexed`), so that a bad row is named `contacts[17].phone`
    example: {
      agent_id: 'agent_01jd5x2v7c0000000000000000',
      form_id: 'form_01jd5x2v7c0000000000000000',
      contacts: ['+14155550123', { phone: '+14155550124', name: 'Ada' }],
      schedule: { window: { start: '09:00', end: '18:00' }, days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
      retry: { max_attempts: 3, on: ['busy', 'no_answer'], interval_seconds: 3600 },
    },
    response: BulkCallObject,
    handler: async (req, res) => {
      const body = parseIndexed(createBulkCallSchema, req.body);
      const tenant = { orgId: req.auth!.orgId, livemode: req.auth!.livemode };
      checkBulkCallRequest(tenant.livemode, body);
      await checkLlmQuota(tenant.orgId); // its calls' assistant spends tokens: not past the day's cap
      const parsed = parseContacts(body.contacts, body.metadata ?? {}, tenant.livemode);
      const prepared = await prepareBulkCall(tenant, { ...body, ...parsed });
      await idempotent(req, res, 'bulk', async (bulkCallId) => {
        const stored = await startBulkCall(temporal, tenant, bulkCallId, prepared);
        return { status: 200, body: renderBulkCall(stored) };
      });
    },
  });

/**
 * The checks of a campaign's body that need no read: no `simulation` with a live key (its `from` is
 * checked with the reads: src/services/bulk-call-requests.ts `prepareBulkCall`), a window that ends after it starts, an `ends_at` in the future.
 * @throws ApiError 400 naming the field
 */
function checkBulkCallRequest(livemode: boolean, body: z.output<typeof createBulkCallSchema>): void {
  checkAnswering(body);
  if (livemode && body.simulation)
    throw invalidParam('simulation', 'simulation is only accepted with a test-mode key; live calls ring real phones.');
  if (body.schedule && secondsOfDay(body.schedule.window.end) <= secondsOfDay(body.schedule.window.start)) {
    throw invalidParam(
      'schedule.window.end',
      'Invalid schedule.window.end: must be after schedule.window.start (same day, local time).',
    );
  }
  if (body.schedule?.ends_at !== undefined && body.schedule.ends_at * 1000 <= Date.now()) {
    throw invalidParam('schedule.ends_at', 'Invalid schedule.ends_at: must be in the future (unix seconds).');
  }
}

/** `GET /v1/bulk-calls` → campaigns, newest first; optional filter `status`. */
const listBulkCalls = operation({
  method: 'get',
  path: '/v1/bulk-calls',
  operationId: 'listBulkCalls',
  tag,
  summary: 'List campaigns',
  scope: 'calls:read',
  list: true,
  query: [{ name: 'status', description: 'Only campaigns in this status.', schema: BulkCallObject.shape.status }],
  response: listOf(BulkCallObject),
  handler: async (req, res) => {
    const filter = {
      org_id: req.auth!.orgId,
      livemode: req.auth!.livemode,
      ...queryFilters(req.query, { status: BULK_CALL_STATUSES }),
    };
    res.json(await listPage(req, BulkCall, filter, renderBulkCall));
  },
});

/** `GET /v1/bulk-calls/{id}` → the campaign; 404 `resource_missing`. */
const retrieveBulkCall = operation({
  method: 'get',
  path: '/v1/bulk-calls/{id}',
  operationId: 'retrieveBulkCall',
  tag,
  summary: 'Retrieve a campaign',
  scope: 'calls:read',
  response: BulkCallObject,
  handler: async (req, res) => {
    res.json(renderBulkCall(await findBulkCall(req)));
  },
});

/**
 * `GET /v1/bulk-calls/{id}/results` → one `bulk_call_result` per contact, in contact order (`limit`,
 * `starting_after`, `ending_before` take result ids; filter `status`). With `Accept: text/csv`: every
 * result (of that status) as CSV, one row per contact, one `form.<key>` column per form field.
 */
const listBulkCallResults = operation({
  method: 'get',
  path: '/v1/bulk-calls/{id}/results',
  operationId: 'listBulkCallResults',
  tag,
  summary: "List a campaign's results",
  description: 'One result per contact, in the order given. With `Accept: text/csv`, the same rows as CSV.',
  scope: 'calls:read',
  list: true,
  query: [{ name: 'status', description: 'Only results in this status.', schema: z.enum(RESULT_STATUSES) }],
  response: listOf(BulkCallResultObject),
  content: { 'text/csv': { schema: { type: 'string' } } },
  handler: async (req, res) => {
    const campaign = await findBulkCall(req);
    const filter: Record<string, unknown> = { bulk_call_id: campaign._id };
    const status = req.query.status;
    if (status !== undefined) {
      if (typeof status !== 'string' || !(RESULT_STATUSES as readonly string[]).includes(status)) {
        throw invalidParam('status', `Invalid status: must be one of ${RESULT_STATUSES.join(', ')}.`);
      }
      filter.status = resultStatusFilter(status as ResultStatus, campaign.pending_ended_as);
    }
    if (req.accepts(['application/json', 'text/csv']) === 'text/csv') {
      const form = await Form.findById(campaign.form_id).lean();
      return void (await sendCsv(
        res,
        campaign._id,
        campaign.pending_ended_as ?? null,
        filter,
        form ? formFields(form).map((f) => f.key) : [],
      ));
    }
    res.json(await resultsPage(req, campaign._id, campaign.pending_ended_as ?? null, filter));
  },
});

/**
 * `POST /v1/bulk-calls/{id}/{pause|resume|cancel}` (no body, Idempotency-Key) → the campaign once the
 * store shows the change. Pause stops new dials at once (calls in flight finish); cancel ends every
 * pending contact `canceled`. 409 `bulk_call_ended` when the campaign is over (a canceled campaign
 * may be canceled again: it is returned as it is).
 */
const campaignAction = (
  temporal: Client,
  action: 'pause' | 'resume' | 'cancel',
  update: typeof pauseUpdate | typeof resumeUpdate | typeof cancelUpdate,
) =>
  operation({
    method: 'post',
    path: `/v1/bulk-calls/{id}/${action}`,
    operationId: `${action}BulkCall`,
    errors: { '409': ['bulk_call_ended'] },
    tag,
    summary: `${action[0].toUpperCase()}${action.slice(1)} a campaign`,
    description: {
      pause: 'No new dials from now; calls in flight finish.',
      resume: 'Dials again where it stopped.',
      cancel: 'Every pending contact ends `canceled`; calls in flight finish.',
    }[action],
    scope: 'calls:write',
    body: null,
    response: BulkCallObject,
    handler: async (req, res) => {
      const campaign = await findBulkCall(req);
      await idempotent(req, res, 'req', async (updateId) => {
        if (action === 'cancel' && campaign.status === 'canceled')
          return { status: 200, body: renderBulkCall(campaign) };
        if (campaign.status === 'completed' || campaign.status === 'canceled') throw campaignEnded(campaign.status);
        try {
          await temporal.workflow
            .getHandle<() => Promise<BulkCallProgress>>(bulkCallWorkflowId(campaign._id))
            .executeUpdate(update, { updateId });
        } catch (err) {
          if (
            err instanceof WorkflowUpdateFailedError &&
            err.cause instanceof ApplicationFailure &&
            err.cause.type === BULK_CALL_ENDED
          ) {
            const [s] = err.cause.details ?? [];
            if (action === 'cancel' && s === 'canceled')
              return { status: 200, body: renderBulkCall(await findBulkCall(req)) };
            throw campaignEnded(typeof s === 'string' ? s : 'over');
          }
          if (
            err instanceof WorkflowNotFoundError ||
            /workflow execution already completed/i.test((err as Error).message)
          ) {
            const now = await findBulkCall(req);
            if (action === 'cancel' && now.status === 'canceled') return { status: 200, body: renderBulkCall(now) };
            throw campaignEnded(now.status);
          }
          throw err;
        }
        return { status: 200, body: renderBulkCall(await findBulkCall(req)) };
      });
    },
  });

/** Routes under `/v1/bulk-calls` (mounted there by src/api/app.ts); `temporal` starts and updates campaign workflows. */
export function bulkCallsRouter(temporal: Client): Router {
  return operationsRouter('/v1/bulk-calls', [
    createBulkCall(temporal),
    listBulkCalls,
    retrieveBulkCall,
    listBulkCallResults,
    campaignAction(temporal, 'pause', pauseUpdate),
    campaignAction(temporal, 'resume', resumeUpdate),
    campaignAction(temporal, 'cancel', cancelUpdate),
  ]);
}

const campaignEnded = (status: string) =>
  new ApiError(
    409,
    'invalid_request_error',
    BULK_CALL_ENDED,
    `The campaign is ${status}; it can no longer be paused, resumed or canceled.`,
  );

async function findBulkCall(req: Request) {
  const id = String(req.params.id);
  const doc = await BulkCall.findOne({ _id: id, org_id: req.auth!.orgId, livemode: req.auth!.livemode }).lean();
  if (!doc) throw notFound('bulk call', id, 'id');
  return doc;
}

/** A page of results in contact order (result ids are `<bulk id>:<index>`, sorting in that order). */
async function resultsPage(
  req: Request,
  bulkCallId: string,
  pendingEndedAs: string | null,
  filter: Record<string, unknown>,
) {
  const render = (row: WithId<BulkCallResultDoc>) => renderBulkCallResult(row, pendingEndedAs);
  const q = req.query as Record<string, unknown>;
  let limit = 20;
  if (q.limit !== undefined) {
    if (typeof q.limit !== 'string' || !/^\d+$/.test(q.limit) || Number(q.limit) < 1 || Number(q.limit) > 100)
      throw invalidParam('limit', 'Invalid limit: must be an integer from 1 to 100.');
    limit = Number(q.limit);
  }
  const cursor = (name: string) => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !v.startsWith(`${bulkCallId}:`) || !/:\d{6}$/.test(v))
      throw invalidParam(name, `Invalid ${name}: must be a result id of this campaign from a previous page.`);
    return v;
  };
  const after = cursor('starting_after');
  const before = cursor('ending_before');
  if (after && before) throw invalidParam('ending_before', 'Use starting_after or ending_before, not both.');
  const url = req.baseUrl + req.path.replace(/\/$/, '');
  if (before) {
    const docs = await BulkCallResult.find({ ...filter, _id: { $lt: before } })
      .sort({ _id: -1 })
      .limit(limit + 1)
      .lean();
    return {
      object: 'list' as const,
      data: docs.slice(0, limit).reverse().map(render),
      has_more: docs.length > limit,
      url,
    };
  }
  const docs = await BulkCallResult.find({ ...filter, ...(after ? { _id: { $gt: after } } : {}) })
    .sort({ _id: 1 })
    .limit(limit + 1)
    .lean();
  return {
    object: 'list' as const,
    data: docs.slice(0, limit).map(render),
    has_more: docs.length > limit,
    url,
  };
}

/** Streams every matching result as CSV (csv-stringify), in contact order. */
async function sendCsv(
  res: Response,
  bulkCallId: string,
  pendingEndedAs: string | null,
  filter: Record<string, unknown>,
  formKeys: string[],
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${bulkCallId}-results.csv"`);
  const columns = [
    'index',
    'phone',
    'name',
    'external_id',
    'status',
    'attempts',
    'call_ids',
    ...formKeys.map((k) => `form.${k}`),
    'metadata',
  ];
  const csv = stringify({ header: true, columns });
  csv.pipe(res);
  for await (const row of BulkCallResult.find(filter).sort({ _id: 1 }).lean().cursor()) {
    const contact = rowContact(row);
    const form = row.form_json ? (JSON.parse(row.form_json) as Record<string, unknown>) : {};
    const line = [
      row.index,
      row.phone,
      contact.name ?? '',
      contact.external_id ?? '',
      effectiveResultStatus(row.status, pendingEndedAs),
      row.attempts,
      (row.call_ids ?? []).join(' '),
      ...formKeys.map((k) => (k in form ? String(form[k]) : '')),
      contact.metadata ? JSON.stringify(contact.metadata) : '',
    ];
    if (!csv.write(line)) await new Promise((resolve) => csv.once('drain', resolve));
  }
  csv.end();
  await new Promise((resolve) => res.once('finish', resolve));
}
