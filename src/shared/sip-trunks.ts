/**
 * SIP trunks (bring your own carrier): the termination URI's rules, the SIP URI a call through a trunk
 * dials, and the number a SIP `To` names. Pure functions (the API, the dial activities and the Twilio
 * webhooks share them).
 *
 * Twilio's documents they follow:
 * - BYOC trunks and their Connection Policy targets (https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc,
 *   https://www.twilio.com/docs/voice/bring-your-own-carrier-byoc/api/connectionpolicytarget-resource):
 *   a target "must be a sip: schema. sips is NOT supported"; signalling over TLS is asked with
 *   `;transport=tls`, as for any SIP URI Twilio dials.
 * - Making SIP calls (https://www.twilio.com/docs/voice/api/sip-making-calls): a Calls create whose `To`
 *   is a SIP URI (under 255 characters; `;transport=udp|tcp|tls` picks the transport), with
 *   `SipAuthUsername`/`SipAuthPassword` when the far end challenges; the same as TwiML
 *   `<Dial><Sip username password>` (https://www.twilio.com/docs/voice/twiml/sip).
 */

/** The longest termination URI taken (Twilio: a SIP URI under 255 characters, the number put in front). */
export const TERMINATION_URI_MAX = 200;

/** A termination URI, taken apart: the carrier's host, its port (null: SIP's default) and its `;params`. */
export interface TerminationUri {
  host: string;
  port: number | null;
  /** `;name=value` parameters as written (`;transport=tls`), or ''. */
  params: string;
}

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = `(${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])`;
const PARAM = ";[A-Za-z0-9_.!~*'()%-]+(?:=[A-Za-z0-9_.!~*'()%+-]+)?";
const TERMINATION = new RegExp(`^sip:${HOST}(?::(\\d{1,5}))?((?:${PARAM})*)$`);

/**
 * Checks a trunk's `termination_uri`: `sip:` + the carrier's host (a domain name or an IP address),
 * an optional port (1–65535) and `;name=value` parameters, nothing else (no user part: the number dialed
 * goes there; no headers). `sips:` is refused as Twilio's BYOC targets refuse it (`;transport=tls` asks
 * for TLS instead).
 * @returns the URI taken apart, or why it is refused (a sentence for the API's error)
 */
export function parseTerminationUri(uri: string): TerminationUri | { error: string } {
  if (uri.length > TERMINATION_URI_MAX) return { error: `must be at most ${TERMINATION_URI_MAX} characters` };
  if (/^sips:/i.test(uri))
    return { error: "must use the sip: scheme (Twilio's BYOC trunks take no sips: URI; add ;transport=tls for TLS)" };
  if (!/^sip:/.test(uri)) return { error: 'must be a SIP URI: sip:<carrier host>[:port][;transport=udp|tcp|tls]' };
  if (uri.includes('@'))
    return { error: "must name the carrier's host only, without a user part (the number dialed goes there)" };
  const m = TERMINATION.exec(uri);
  if (!m) return { error: 'must be sip:<carrier host>[:port][;param=value…] with a host name or IP address' };
  const port = m[2] === undefined ? null : Number(m[2]);
  if (port !== null && (port < 1 || port > 65535)) return { error: 'must have a port from 1 to 65535' };
  return { host: m[1], port, params: m[3] ?? '' };
}

/** The SIP URI a call to `e164` through a trunk terminating at `t` dials: `sip:<e164>@<host>[:port][;params]`. */
export function trunkDialUri(e164: string, t: TerminationUri): string {
  return `sip:${e164}@${t.host}${t.port === null ? '' : `:${t.port}`}${t.params}`;
}

/**
 * The number a call's `To` names: a SIP URI whose user part is an E.164 number (`sip:+14155550100@…`,
 * as a call arriving through a BYOC trunk may name it) gives that number; anything else is answered as
 * it is.
 */
export function numberOfSipTo(to: string): string {
  const m = /^sips?:(\+[1-9]\d{1,14})@/i.exec(to);
  return m ? m[1] : to;
}
