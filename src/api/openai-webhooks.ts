/**
 * `POST /openai/realtime/webhook`: the OpenAI project's webhook for incoming SIP calls
 * (https://platform.openai.com/docs/guides/realtime-sip). A realtime call's Twilio leg dials the project's
 * SIP URI with our call id in a custom SIP header (src/shared/realtime.ts `realtimeSipUri`); OpenAI then
 * announces the call here (`realtime.call.incoming`, or the newer `live.transport.incoming`), and the
 * call's workflow accepts it with the agent's configuration (src/workflows/call-realtime.ts).
 *
 * - Verified with the `openai` package (`webhooks.unwrap`, `OPENAI_WEBHOOK_SECRET`) over the raw body:
 *   a bad, stale or missing signature is 401 `webhook_signature_invalid` and changes nothing.
 * - A call we do not know (no header, no such call, not a realtime call, no longer live, no run) is
 *   rejected on the Realtime side (`realtime.calls.reject`, SIP 404), then answered 200: OpenAI's
 *   delivery is done either way.
 * - A known one is signalled to its workflow (`realtimeIncoming`), 200.
 */
import express, { type Router } from 'express';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { ApiError } from '../errors';
import { logger } from '../logger';
import { Call } from '../models/calls';
import { apiObject } from '../models/wire';
import { realtimeClient, verifyRealtimeWebhook, type IncomingRealtimeCall } from '../providers/openai-realtime';
import { callWorkflowId } from '../shared/calls';
import { callIdOfSipHeaders, realtimeIncomingSignal } from '../shared/realtime';
import { operation, operationsRouter } from './operations';

/** The statuses in which a call's SIP leg can still be taken. */
const TAKING_STATUSES = ['queued', 'ringing', 'in_progress'];

/** Largest webhook body taken (an incoming-call event is a few hundred bytes). */
const WEBHOOK_BODY_LIMIT = '64kb';

/** The body, exactly as sent (the signature covers its bytes): any content type, as text. */
const rawBody = express.text({ type: () => true, limit: WEBHOOK_BODY_LIMIT });

/** Taken: `{"received": true}`. */
const ReceivedObject = apiObject(
  'OpenAIWebhookReceived',
  'The webhook was taken (whatever became of the call it announced).',
  z.object({ received: z.literal(true) }),
);

const realtimeWebhook = (temporal: Client) =>
  operation({
    method: 'post',
    path: '/openai/realtime/webhook',
    operationId: 'openaiRealtimeWebhook',
    tag: 'OpenAI callbacks',
    summary: "The OpenAI project's incoming SIP call webhook",
    description:
      "Configure it in the OpenAI project's webhooks (event `realtime.call.incoming`). Verified with `OPENAI_WEBHOOK_SECRET` (Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`); a call the service does not know is rejected on the Realtime side.",
    bodyDoc: z.object({
      id: z.string(),
      type: z.string().describe('`realtime.call.incoming` or `live.transport.incoming`; other types are ignored.'),
      data: z.object({
        call_id: z.string(),
        sip_headers: z.array(z.object({ name: z.string(), value: z.string() })),
      }),
    }),
    errors: { '401': ['webhook_signature_invalid'] },
    response: ReceivedObject,
    before: [rawBody],
    handler: async (req, res) => {
      let incoming: IncomingRealtimeCall | null;
      try {
        incoming = await verifyRealtimeWebhook(typeof req.body === 'string' ? req.body : '', req.headers);
      } catch (err) {
        logger.warn('realtime webhook refused', { reason: (err as Error).message });
        throw new ApiError(
          401,
          'authentication_error',
          'webhook_signature_invalid',
          'The webhook signature could not be verified.',
        );
      }
      if (incoming) await takeIncomingCall(temporal, incoming);
      res.json({ received: true as const });
    },
  });

/**
 * Hands an incoming SIP call to its call's workflow, or rejects it on the Realtime side when no live
 * realtime call of ours is named by its `REALTIME_CALL_HEADER`.
 */
async function takeIncomingCall(temporal: Client, incoming: IncomingRealtimeCall): Promise<void> {
  const callId = callIdOfSipHeaders(incoming.sipHeaders);
  const call = callId ? await Call.findById(callId).lean() : null;
  let taken = false;
  if (call && call.engine === 'realtime' && TAKING_STATUSES.includes(call.status)) {
    try {
      await temporal.workflow
        .getHandle(callWorkflowId(call._id))
        .signal(realtimeIncomingSignal, { openaiCallId: incoming.openaiCallId });
      taken = true;
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
  }
  logger.info('realtime incoming call', {
    event: incoming.eventId,
    openai_call: incoming.openaiCallId,
    call: callId ?? undefined,
    taken,
  });
  // SIP 404: no such call here. A failed reject is logged; OpenAI ends an unaccepted call on its own.
  if (!taken)
    await realtimeClient()
      .realtime.calls.reject(incoming.openaiCallId, { status_code: 404 })
      .catch((err: Error) =>
        logger.warn('realtime reject failed', { openai_call: incoming.openaiCallId, error: err.message }),
      );
}

/** Routes under `/openai` (mounted there by src/api/app.ts): OpenAI's callbacks, no API key. */
export function openaiWebhooksRouter(temporal: Client): Router {
  return operationsRouter('/openai', [realtimeWebhook(temporal)]);
}
