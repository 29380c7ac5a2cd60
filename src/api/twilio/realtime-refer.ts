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
import twilio from 'twilio';
import { logger } from '../../logger';
import { Call } from '../../models/calls';
import { dialTo } from '../../providers/twilio';
import { referTarget } from '../../shared/realtime';
import { operation } from '../operations';

/**
 * The `Refer-To` of Twilio's `ReferTransferTarget` in the form `referTarget` writes: the angle brackets and
 * header parameters (`;…` after `>`) dropped; a `sip:` URI compared without case in its scheme and host.
 */
export function referredTarget(raw: string): string {
  const inBrackets = /<([^>]*)>/.exec(raw);
  return (inBrackets ? inBrackets[1] : raw).trim();
}

/** True when `asked` (what Twilio names) is the SIP form of the call's `realtime_refer_to`. */
function sameTarget(asked: string, referTo: string | null | undefined): boolean {
  const ours = referTo ? referTarget(referTo) : null;
  if (ours === null) return false;
  return ours.startsWith('tel:') ? asked === ours : asked.toLowerCase() === ours.toLowerCase();
}

/**
 * `POST /twilio/voice/{callId}/refer` (form: `CallSid`, `ReferTransferTarget`) → TwiML: `<Dial>` to the call's
 * `realtime_refer_to` when Twilio's target is that destination's SIP form (`tel:+E164` or the `sip:` URI),
 * else `<Hangup/>` (logged). Signed by Twilio and checked like every callback (`twilioCallbackGuard`).
 */
export const twilioRealtimeRefer = operation({
  method: 'post',
  path: '/twilio/voice/{callId}/refer',
  operationId: 'twilioRealtimeRefer',
  tag: 'Twilio callbacks',
  summary: "A realtime call's SIP REFER, as Twilio asks what to do with it",
  description:
    "The `referUrl` of a realtime call's `<Dial><Sip>` leg: `<Dial>` to the destination the call's transfer chose (after the allow-list and the dialing permissions), `<Hangup/>` for any other `ReferTransferTarget`.",
  twilioForm: {
    CallSid: "The call's SID at Twilio (CA…).",
    ReferTransferTarget: 'The `Refer-To` of the REFER, e.g. `<tel:+14155550111>` or `<sip:desk@example.com>`.',
  },
  content: { 'text/xml': { schema: { type: 'string' } } },
  handler: async (req, res) => {
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
  },
});
