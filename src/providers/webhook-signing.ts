/**
 * Webhook signatures (DESIGN.md section 5; Stripe's scheme, api-conventions.md section 1):
 *
 *   Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=<…>]
 *
 * One `v1` per valid secret of the endpoint: two during the 24 hours after a secret rotation, so a
 * receiver still holding the old secret keeps verifying. Receivers compare in constant time against
 * any `v1` and refuse a `t` older than their tolerance (5 minutes), which stops replays.
 */
import crypto from 'node:crypto';

/** Name of the signature header. */
export const SIGNATURE_HEADER = 'Svc-Signature';
/** Default tolerance of `verifySignature`, seconds (Stripe's 300). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new endpoint signing secret: `whsec_` + 32 random bytes in base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/** Hex HMAC-SHA256 of `<t>.<payload>` keyed with the whole secret string (prefix included). */
export function computeSignature(secret: string, timestamp: number, payload: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
}

/**
 * The `Svc-Signature` header value for `payload` (the exact raw body sent).
 * @param secrets the endpoint's valid secrets, current first (1 or 2)
 * @param timestamp unix seconds of the attempt
 */
export function signatureHeader(payload: string, secrets: string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, payload)}`)].join(',');
}

/**
 * Verifies a `Svc-Signature` header against `payload` (the raw body, byte for byte) and `secret`.
 * The reference receiver-side check (README "Verifying signatures"); the tests use their own copy.
 * @param nowSeconds current unix time (default now)
 * @returns true when some `v1` matches and `t` is within `toleranceSeconds` of now
 */
export function verifySignature(
  payload: string,
  header: string,
  secret: string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(computeSignature(secret, t, payload), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/.test(v ?? ''))
    .some(([, v]) => crypto.timingSafeEqual(Buffer.from(v, 'hex'), expected));
}
