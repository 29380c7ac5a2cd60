/**
 * The `<Pay>` action callback of a card payment on a live call (`collect_payment`; src/activities/payments.ts
 * hands the caller to `<Pay>`, whose `action` is this route): `POST /twilio/pay/{call id}/{attempt}`,
 * signature-checked like every callback under `/twilio` (src/api/twilio/requests.ts `twilioCallbackGuard`).
 * Twilio posts it once `<Pay>` is over (https://www.twilio.com/docs/voice/twiml/pay#action) with the
 * outcome: `Result`, a masked `PaymentCardNumber`, `PaymentConfirmationCode`, …. Only the outcome is read
 * (src/services/payments.ts `payResultOf`: status, last four digits, confirmation code, long digit runs
 * removed), signalled to the call's workflow (`paymentResult`), never logged or stored whole; the answer
 * is TwiML bringing the caller back to the assistant: a new ConversationRelay session greeted with the outcome.
 *
 * Helpers only (no router, no operation here: src/api/twilio/index.ts declares the operation, giving the
 * handler its `<Connect><ConversationRelay>` builder).
 */
import twilio from 'twilio';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { Call, type CallDoc } from '../../models/calls';
import type { WithId } from '../../models/store';
import { payResultOf } from '../../services/payments';
import { callWorkflowId } from '../../shared/calls';
import { paymentResultSignal, type PaymentProgress } from '../../shared/payments';
import type { Request, Response } from 'express';
import { LIVE_STATUSES } from './requests';

/** Builds the comeback session of a caller back from `<Pay>` (src/api/twilio/index.ts `connectRelay`). */
export type PaymentComeback = (
  response: twilio.twiml.VoiceResponse,
  call: WithId<CallDoc>,
  callSid: string,
  payment: PaymentProgress,
) => void;

/**
 * The payment of `call` that `attempt` names: its latest (`payment_json`) when it has that attempt; null
 * otherwise (a stale or forged comeback).
 */
export function paymentOf(call: WithId<CallDoc> | null, attempt: string): PaymentProgress | null {
  const payment = JSON.parse(call?.payment_json ?? 'null') as PaymentProgress | null;
  return payment !== null && String(payment.attempt) === attempt ? payment : null;
}

/**
 * The handler of `POST /twilio/pay/{callId}/{attempt}` (form: `CallSid`, `Result`, `PaymentCardNumber`
 * masked, `PaymentConfirmationCode`) → TwiML; src/api/twilio/index.ts declares the operation. For the
 * call's own CallSid while it is live and the payment it names: the outcome signalled to the call's
 * workflow, and a new ConversationRelay session (`comeback`) greeted with it. Otherwise `<Hangup/>`,
 * nothing signalled.
 */
export const payResultHandler =
  (temporal: Client, comeback: PaymentComeback) =>
  async (req: Request, res: Response): Promise<void> => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const callSid = typeof body.CallSid === 'string' ? body.CallSid : '';
    const call = await Call.findOne({ _id: String(req.params.callId), livemode: true }).lean();
    const payment = paymentOf(call, String(req.params.attempt));
    const response = new twilio.twiml.VoiceResponse();
    if (!call || !payment || !LIVE_STATUSES.includes(call.status) || !callSid || call.provider_call_sid !== callSid) {
      response.hangup();
      return void res.type('text/xml').send(response.toString());
    }
    const result = payResultOf(body, { attempt: payment.attempt, providerCallSid: callSid });
    try {
      await temporal.workflow.getHandle(callWorkflowId(call._id)).signal(paymentResultSignal, result);
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    comeback(response, call, callSid, {
      ...payment,
      status: result.status,
      result: result.result,
      last4: result.last4,
      confirmation_code: result.confirmationCode,
    });
    res.type('text/xml').send(response.toString());
  };
