/**
 * Test helpers (test-mode keys only):
 *
 *   POST   /v1/test_helpers/inbound_messages   play the customer: `{channel, from, text, to?, received_at?}`
 *                                              (scope `messages:write`)
 *   POST   /v1/test_helpers/inbound_calls      play a caller: `{from, to?, simulation?}` (scope `calls:write`)
 *   POST   /v1/test_helpers/calls/{id}/advance_clock   move a scheduled call's clock: `{to?}` (scope `calls:write`)
 *
 * Live inbound messages and calls come from Twilio (src/api/twilio/); these routes let a test key play
 * the customer's side, down the same path.
 */
import type { Router } from 'express';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import { ApiError, invalidParam } from '../errors';
import { conversationAnswerer, ensureConversation, updateConversation } from '../services/conversations';
import {
  Message,
  MessageObject,
  numberRouteKey,
  PhoneNumber,
  renderMessage,
  type MessageDoc,
  type PhoneNumberDoc,
} from '../models/conversations';
import { CallObject, renderCall } from '../models/calls';
import { SIMULATED_VOICE_NUMBER, startInboundCall } from '../services/inbound-calls';
import type { WithId } from '../models/store';
import { MESSAGING_CHANNELS, receiveUpdate, SIMULATED_NUMBER } from '../shared/conversations';
import { advanceClockUpdate, CALL_NOT_SCHEDULED, callWorkflowId } from '../shared/calls';
import { findCall, runCallUpdate } from '../services/call-requests';
import { idempotent } from './idempotency';
import { operation, operationsRouter } from './operations';
import { e164, MAX_TEXT, parseBody } from './validation';

/** How far in the past the test helper's `received_at` may be (seconds). */
const MAX_RECEIVED_AGE_S = 366 * 24 * 60 * 60;

export const inboundMessageSchema = z.strictObject({
  channel: z.enum(MESSAGING_CHANNELS),
  from: e164,
  text: z.string().min(1, 'must not be empty').max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`),
  to: e164.optional(),
  received_at: z.number().int('must be an integer (unix seconds)').optional(),
});

/**
 * `POST /v1/test_helpers/inbound_messages` `{channel, from, text, to?, received_at?}` (test keys only,
 * `messages:write`, Idempotency-Key) → the stored inbound message: the customer `from` writes to the
 * simulated number (or `to`, a test-mode number of the organization). `received_at` (unix seconds, in
 * the past) backdates it, which moves the WhatsApp window. The message takes the same path as a live
 * one: stored by the conversation's workflow (`message.received`), then answered by the assistant.
 * A live key is 403 `test_mode_only` before its body is read.
 */
function simulateInboundMessage(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/test_helpers/inbound_messages',
    operationId: 'simulateInboundMessage',
    errors: { '403': ['test_mode_only'] },
    tag: 'Messaging',
    summary: 'Simulate an inbound message (test mode)',
    description: 'As if a customer had written to a service number; the assistant answers as it would live.',
    scope: 'messages:write',
    bodyDoc: inboundMessageSchema,
    response: MessageObject,
    handler: async (req, res) => {
      const { orgId, livemode } = req.auth!;
      refuseLiveKey(livemode, 'messages');
      const body = parseBody(inboundMessageSchema, req.body);
      const nowS = Math.floor(Date.now() / 1000);
      if (
        body.received_at !== undefined &&
        (body.received_at > nowS + 5 || body.received_at < nowS - MAX_RECEIVED_AGE_S)
      ) {
        throw invalidParam(
          'received_at',
          'Invalid received_at: must be a unix time in seconds, not in the future and at most a year ago.',
        );
      }
      let assigned: { agentId: string | null; squadId: string | null } = { agentId: null, squadId: null };
      const to = body.to ?? SIMULATED_NUMBER;
      if (to !== SIMULATED_NUMBER) {
        const number = await PhoneNumber.findOne({ route_key: numberRouteKey(orgId, false, to) }).lean();
        if (!number || !number.channels.includes(body.channel))
          throw invalidParam(
            'to',
            `Invalid to: must be the simulated number ${SIMULATED_NUMBER} or a test-mode number of this organization connected for ${body.channel}.`,
          );
        assigned = { agentId: number.agent_id ?? null, squadId: number.squad_id ?? null };
      }
      await idempotent(req, res, 'msg', async (messageId) => {
        const conv = await ensureConversation(
          { orgId, livemode, channel: body.channel, customerNumber: body.from },
          async () => ({ serviceNumber: to, ...(await conversationAnswerer({ orgId, livemode }, assigned)) }),
        );
        const receivedMs = body.received_at !== undefined ? body.received_at * 1000 : Date.now();
        const result = await updateConversation(temporal, conv, receiveUpdate, messageId, {
          messageId,
          dedupeKey: `msg:${messageId}`,
          from: body.from,
          to,
          text: body.text,
          receivedMs,
          providerSid: null,
        });
        const doc = await Message.findById(result.messageId).lean();
        if (!doc) throw new Error(`inbound message ${result.messageId} not found after it was stored`);
        return { status: 200, body: renderMessage(doc as WithId<MessageDoc>) };
      });
    },
  });
}

export const inboundCallSchema = z.strictObject({
  from: e164,
  to: e164.optional(),
  simulation: z
    .strictObject({
      caller: z
        .array(z.string().trim().min(1, 'lines must not be empty').max(2000))
        .max(1000, 'must have at most 1000 lines')
        .optional(),
      pause_seconds: z.number().min(0).max(60).optional(),
    })
    .optional(),
});

/** 403 `test_mode_only` for a live key (before its body is read). */
function refuseLiveKey(livemode: boolean, what: string, why = `live inbound ${what} come from Twilio`): void {
  if (livemode)
    throw new ApiError(
      403,
      'permission_error',
      'test_mode_only',
      `Test helpers work only with test-mode keys; ${why}.`,
    );
}

/**
 * `POST /v1/test_helpers/inbound_calls` `{from, to?, simulation?: {caller?, pause_seconds?}}` (test keys
 * only, `calls:write`, Idempotency-Key) → the call (`direction: "inbound"`): `from` calls the simulated
 * number `+15005550006` (answered by the default agent) or `to`, a test-mode number of the organization
 * connected with `voice` (its agent, its inbound webhook, its `overflow_to`), down the same path as a live
 * call (src/services/inbound-calls.ts): the same workflow, events and call slots; the scripted caller
 * says `simulation.caller` (default two lines) and hangs up. 400 naming `to` for another number; 409
 * `agent_missing` when no agent answers; a live key is 403 `test_mode_only`.
 */
function simulateInboundCall(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/test_helpers/inbound_calls',
    operationId: 'simulateInboundCall',
    errors: { '403': ['test_mode_only'], '409': ['agent_missing'] },
    tag: 'Calls',
    summary: 'Simulate an inbound call (test mode)',
    description:
      "As if `from` had called a service number: the assistant answers as it would live (the number's agent or inbound webhook, the concurrency limit); the response is the call.",
    scope: 'calls:write',
    bodyDoc: inboundCallSchema,
    response: CallObject,
    handler: async (req, res) => {
      const { orgId, livemode } = req.auth!;
      refuseLiveKey(livemode, 'calls');
      const body = parseBody(inboundCallSchema, req.body);
      const to = body.to ?? SIMULATED_VOICE_NUMBER;
      let number: WithId<PhoneNumberDoc> | null = null;
      if (to !== SIMULATED_VOICE_NUMBER) {
        number = await PhoneNumber.findOne({ route_key: numberRouteKey(orgId, false, to) }).lean();
        if (!number || !number.channels.includes('voice'))
          throw invalidParam(
            'to',
            `Invalid to: must be the simulated number ${SIMULATED_VOICE_NUMBER} or a test-mode number of this organization connected for voice.`,
          );
      }
      await idempotent(req, res, 'call', async (callId) => {
        const call = await startInboundCall(temporal, {
          tenant: { orgId, livemode },
          callId,
          from: body.from,
          to,
          number,
          providerCallSid: null,
          simulation: body.simulation ?? null,
        });
        if (!call)
          throw new ApiError(
            409,
            'invalid_request_error',
            'agent_missing',
            'No assistant answers this number: give it an agent_id, or mark an agent default (POST /v1/agents/{id} with default: true).',
            'to',
          );
        return { status: 200, body: renderCall(call) };
      });
    },
  });
}

export const advanceClockSchema = z.strictObject({
  to: z
    .number()
    .int('must be an integer (unix seconds)')
    .optional()
    .describe("The time the call's clock moves to, unix seconds (default: the call's `scheduled_at`)."),
});

/**
 * `POST /v1/test_helpers/calls/{id}/advance_clock` `{to?}` (test keys only, `calls:write`, Idempotency-Key)
 * → the call: like Stripe's test clocks, moves a scheduled test-mode call's clock to `to` (default its
 * `scheduled_at`), so an integration sees the call dialed at its time without waiting for it. At
 * or past `scheduled_at` it answers once the call has left `scheduled` (`queued`, or further). The durable
 * timer itself is untouched: a call not advanced is dialed at its real time. 409 `call_not_scheduled` when
 * the call is not (or no longer) scheduled; 404 for another tenant's call; a live key is 403 `test_mode_only`.
 */
function advanceCallClock(temporal: Client) {
  return operation({
    method: 'post',
    path: '/v1/test_helpers/calls/{id}/advance_clock',
    operationId: 'advanceCallClock',
    errors: { '403': ['test_mode_only'], '409': ['call_not_scheduled', 'call_not_live'] },
    tag: 'Calls',
    summary: "Advance a scheduled call's clock (test mode)",
    description:
      "Moves a scheduled test-mode call's clock to `to` (default its `scheduled_at`); at its time the call is dialed as it would be then. 409 `call_not_scheduled` otherwise.",
    scope: 'calls:write',
    bodyDoc: advanceClockSchema,
    response: CallObject,
    handler: async (req, res) => {
      refuseLiveKey(req.auth!.livemode, 'calls', 'a live call is dialed at its real time');
      const body = parseBody(advanceClockSchema, req.body ?? {});
      await idempotent(req, res, 'req', async (updateId) => {
        const call = await findCall(req.auth!, String(req.params.id));
        const to = body.to ?? call.scheduled_at;
        if (call.status !== 'scheduled' || to == null)
          throw new ApiError(
            409,
            'invalid_request_error',
            CALL_NOT_SCHEDULED,
            `The call is ${call.status}; only a scheduled call's clock can be advanced.`,
          );
        await runCallUpdate(temporal, call, () =>
          temporal.workflow
            .getHandle(callWorkflowId(call._id))
            .executeUpdate(advanceClockUpdate, { args: [{ to }], updateId }),
        );
        return { status: 200, body: renderCall(await findCall(req.auth!, String(req.params.id))) };
      });
    },
  });
}

/** Routes under `/v1/test_helpers`; `temporal` reaches the conversations' and calls' workflows. */
export function testHelpersRouter(temporal: Client): Router {
  return operationsRouter('/v1/test_helpers', [
    simulateInboundMessage(temporal),
    simulateInboundCall(temporal),
    advanceCallClock(temporal),
  ]);
}
