/**
 * A live realtime call's transfer, Twilio's side: the call's leg is `<Dial referUrl=…><Sip>` to the
 * OpenAI project (src/api/twilio/index.ts `dialRealtime`); when the workflow transfers the call by
 * `refer` (src/activities/realtime.ts `referRealtimeCall`), the Realtime API sends the leg a SIP REFER and
 * Twilio asks the `referUrl` what to do with it, naming the `Refer-To` in `ReferTransferTarget`
 * (https://www.twilio.com/docs/voice/api/refer-to-twilio; without a `referUrl` Twilio refuses the REFER,
 * error 13802). The answer dials the destination the workflow wrote on the call before asking for the
 * refer (`realtime_refer_to`), after the dial gate's checks and the agent's allow-list; any other target
 * (a REFER we did not ask for, another call's) is refused with `<Hangup/>`: a caller is never sent where
 * the organization did not allow.
 */
import type { Request, Response } from 'express';
import twilio from 'twilio';
import { logger } from '../../logger';
import { Call } from '../../models/calls';
import { dialTo } from '../../providers/twilio';
import { referTarget } from '../../shared/realtime';

/**
 * The `Refer-To` URI of Twilio's `ReferTransferTarget` (e.g. `<tel:+14155550111>` → `tel:+14155550111`): the
 * part inside the angle brackets, trimmed; the whole value when there are none.
 */
export function referredTarget(raw: string): string {
  const inBrackets = /<([^>]*)>/.exec(raw);
  return (inBrackets ? inBrackets[1] : raw).trim();
}

/**
 * True when `asked` (what Twilio names) is the SIP form of the call's `realtime_refer_to`: a `tel:` URI
 * exactly, a `sip:` URI without regard to case.
 */
function sameTarget(asked: string, referTo: string | null | undefined): boolean {
  const ours = referTo ? referTarget(referTo) : null;
  if (ours === null) return false;
  return ours.startsWith('tel:') ? asked === ours : asked.toLowerCase() === ours.toLowerCase();
}

/**
 * The handler of `POST /twilio/voice/{callId}/refer` (form: `CallSid`, `ReferTransferTarget`; the route is
 * declared in src/api/twilio/index.ts) → TwiML: `<Dial>` to the call's `realtime_refer_to` when Twilio's
 * target is that destination's SIP form (`tel:+E164` or the `sip:` URI) and the Call SID is the call's,
 * else `<Hangup/>` (logged). Signed by Twilio and checked like every callback (`twilioCallbackGuard`).
 */
export async function realtimeReferHandler(req: Request, res: Response): Promise<void> {
  const body = (req.body ?? {}) as Record<string, string>;
  const callId = String(req.params.callId);
  const asked = referredTarget(String(body.ReferTransferTarget ?? ''));
  const call = await Call.findOne(
    { _id: callId, livemode: true },
    { provider_call_sid: 1, realtime_refer_to: 1 },
  ).lean();
  const response = new twilio.twiml.VoiceResponse();
  if (call && call.provider_call_sid === body.CallSid && sameTarget(asked, call.realtime_refer_to)) {
    dialTo(response, call.realtime_refer_to!);
  } else {
    logger.warn('a REFER the call did not ask for was refused', { call: callId, target: asked });
    response.hangup();
  }
  res.type('text/xml').send(response.toString());
}
