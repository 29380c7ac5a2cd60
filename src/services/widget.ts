/**
 * The browser widget, node side (spec section 4 "Widget"; DESIGN.md section 10 `wses_`): each
 * organization's widget settings (allowed origins, required identity, the identity secret and its
 * rotation), identity verification, and session tokens. Used by the API (src/api/widget.ts) and `svcctl
 * widget …` (src/cli/svcctl.ts).
 *
 * Identity verification is Intercom's and Chatwoot's scheme made strict: the organization's server computes
 * `user_hash` = lowercase hex HMAC-SHA256(identity secret, user_id) and hands it to its page; we recompute it
 * and compare in constant time (`crypto.timingSafeEqual`). After a rotation the previous secret still
 * verifies for `PREVIOUS_SECRET_GRACE_MS`, so pages rendered before the rotation keep working.
 *
 * Session tokens follow Stripe's client secrets: `<session id>_secret_<32 random bytes, base64url>`. The
 * token is opaque to the browser; we store only its SHA-256, find the session by the id it starts with (a
 * point lookup) and compare the hashes in constant time.
 */
import crypto from 'node:crypto';
import { WidgetSession, WidgetSettings, type WidgetSessionDoc, type WidgetSettingsDoc } from '../models/widget';
import { Conversation } from '../models/conversations';
import type { WithId } from '../models/store';
import { openSecret, sealSecret } from '../secrets';
import { widgetCustomerAddress } from '../shared/conversations';
import { findConversation } from './conversations';
import { Squad } from '../models/squads';

/** How long a widget session (and its token) lasts: 24 hours. */
export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** How long the identity secret replaced by a rotation still verifies: 24 hours. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** The settings of an organization that never configured its widget. */
const DEFAULTS = { allowed_origins: [] as string[], require_identity: false };

/** An organization's widget settings as the API applies them. */
export interface WidgetPolicy {
  allowedOrigins: string[];
  requireIdentity: boolean;
  /** Identity secrets that verify now, newest first (none: no verified identity is possible). */
  secrets: string[];
  /** The squad answering new conversations of its mode (`svcctl widget configure --squad-id`); null: none. */
  squadId: string | null;
}

/** Reads an organization's widget settings (the defaults when it has none). */
export async function widgetPolicy(orgId: string, nowMs = Date.now()): Promise<WidgetPolicy> {
  const doc = (await WidgetSettings.findById(orgId).lean()) as WithId<WidgetSettingsDoc> | null;
  const secrets: string[] = [];
  const current = openSecret(doc?.identity_secret);
  if (current) secrets.push(current);
  const previous = openSecret(doc?.previous_identity_secret);
  if (previous && (doc?.previous_expires_ms ?? 0) > nowMs) secrets.push(previous);
  return {
    allowedOrigins: doc?.allowed_origins ?? DEFAULTS.allowed_origins,
    requireIdentity: doc?.require_identity ?? DEFAULTS.require_identity,
    squadId: doc?.squad_id ?? null,
    secrets,
  };
}

/**
 * True when a page of `origin` may call the widget endpoints: an origin in the organization's list; when
 * the list is empty, any origin in test mode and none in live mode (a live widget names its sites). A
 * request without `Origin` is not a cross-origin browser request and is not refused here.
 */
export function originAllowed(policy: WidgetPolicy, livemode: boolean, origin: string | undefined): boolean {
  if (origin === undefined) return true;
  if (policy.allowedOrigins.length === 0) return !livemode;
  return policy.allowedOrigins.includes(origin);
}

/** `user_hash` for `userId` under `secret`: lowercase hex HMAC-SHA256 (what the organization's server computes). */
export const identityHash = (secret: string, userId: string) =>
  crypto.createHmac('sha256', secret).update(userId, 'utf8').digest('hex');

/** True when `userHash` is the HMAC of `userId` under one of the secrets, compared in constant time. */
export function identityVerified(policy: WidgetPolicy, userId: string, userHash: string): boolean {
  const given = Buffer.from(userHash.toLowerCase(), 'utf8');
  let ok = false;
  for (const secret of policy.secrets) {
    const expected = Buffer.from(identityHash(secret, userId), 'utf8');
    // Every secret is checked (no early exit), and lengths are equal for any well-formed hash.
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) ok = true;
  }
  return ok;
}

const newIdentitySecret = () => `wsec_${crypto.randomBytes(32).toString('base64url')}`;

/**
 * Normalizes an allowed origin (`https://shop.example`, with a port if not the default).
 * @throws Error naming the value when it is not an http(s) origin (a path, a wildcard, a bare host)
 */
export function normalizeOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`not an origin: ${JSON.stringify(value)} (write it as https://host[:port])`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== value.trim().replace(/\/$/, ''))
    throw new Error(`not an origin: ${JSON.stringify(value)} (write it as https://host[:port], no path)`);
  return url.origin;
}

/** The settings as `svcctl` shows them; `identity_secret` only when it was just made (shown once). */
export function renderWidgetSettings(doc: WithId<WidgetSettingsDoc>, newSecret?: string) {
  return {
    object: 'widget_settings' as const,
    org_id: doc._id,
    allowed_origins: doc.allowed_origins,
    require_identity: doc.require_identity,
    squad_id: doc.squad_id ?? null,
    ...(newSecret ? { identity_secret: newSecret } : {}),
    previous_secret_expires_at:
      doc.previous_expires_ms != null && doc.previous_identity_secret
        ? Math.floor(doc.previous_expires_ms / 1000)
        : null,
    updated: Math.floor(doc.updated_ms / 1000),
  };
}

/**
 * `svcctl widget configure`: sets the allowed origins, whether identity is required and/or the squad
 * answering new widget conversations (`squadId`; null clears it) (what is not given is kept). The first
 * configuration makes the identity secret, returned once.
 * @throws Error when `squadId` is no live squad of the organization (in either mode)
 */
export async function configureWidget(
  orgId: string,
  changes: { allowedOrigins?: string[]; requireIdentity?: boolean; squadId?: string | null },
): Promise<ReturnType<typeof renderWidgetSettings>> {
  if (changes.squadId && !(await Squad.exists({ _id: changes.squadId, org_id: orgId, deleted_ms: null })))
    throw new Error(`No such squad in this organization: ${changes.squadId}`);
  const existing = await WidgetSettings.findById(orgId).lean();
  const secret = existing?.identity_secret ? undefined : newIdentitySecret();
  const doc = (await WidgetSettings.findOneAndUpdate(
    { _id: orgId },
    {
      $set: {
        ...(changes.allowedOrigins ? { allowed_origins: changes.allowedOrigins.map(normalizeOrigin) } : {}),
        ...(changes.requireIdentity !== undefined ? { require_identity: changes.requireIdentity } : {}),
        ...(changes.squadId !== undefined ? { squad_id: changes.squadId } : {}),
        ...(secret ? { identity_secret: sealSecret(secret) } : {}),
        updated_ms: Date.now(),
      },
    },
    { upsert: true, returnDocument: 'after' },
  ).lean()) as WithId<WidgetSettingsDoc>;
  return renderWidgetSettings(doc, secret);
}

/**
 * `svcctl widget rotate-secret`: a new identity secret (returned once); the one it replaces verifies for
 * `PREVIOUS_SECRET_GRACE_MS` more.
 */
export async function rotateWidgetSecret(orgId: string, nowMs = Date.now()) {
  const existing = await WidgetSettings.findById(orgId).lean();
  const secret = newIdentitySecret();
  const doc = (await WidgetSettings.findOneAndUpdate(
    { _id: orgId },
    {
      $set: {
        identity_secret: sealSecret(secret),
        previous_identity_secret: existing?.identity_secret ?? null,
        previous_expires_ms: existing?.identity_secret ? nowMs + PREVIOUS_SECRET_GRACE_MS : null,
        updated_ms: nowMs,
      },
    },
    { upsert: true, returnDocument: 'after' },
  ).lean()) as WithId<WidgetSettingsDoc>;
  return renderWidgetSettings(doc, secret);
}

/** SHA-256 hex of a session token (what is stored). */
export const hashSessionToken = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest('hex');

/** A new session token for `sessionId`. */
export const newSessionToken = (sessionId: string) =>
  `${sessionId}_secret_${crypto.randomBytes(32).toString('base64url')}`;

/** A session token's shape: `wses_…_secret_…`. */
const TOKEN = /^(wses_[A-Za-z0-9]+)_secret_[A-Za-z0-9_-]{43}$/;

/**
 * The live session a token opens, or null (malformed, unknown, altered or expired token). One `_id`
 * lookup, then a constant-time comparison of the hashes.
 * @param anyAge also an expired session's (a browser proving which conversation was its own)
 */
export async function sessionOfToken(
  token: string,
  nowMs = Date.now(),
  anyAge = false,
): Promise<WithId<WidgetSessionDoc> | null> {
  const m = TOKEN.exec(token);
  if (!m) return null;
  const doc = (await WidgetSession.findById(m[1]).lean()) as WithId<WidgetSessionDoc> | null;
  if (!doc || (!anyAge && doc.expires_ms <= nowMs)) return null;
  const a = Buffer.from(hashSessionToken(token), 'hex');
  const b = Buffer.from(doc.token_hash, 'hex');
  return a.length === b.length && crypto.timingSafeEqual(a, b) ? doc : null;
}

/**
 * The conversation address of an unverified visitor's new session. A `visitor_id` is not a secret (the
 * page chose it; scripts of the page, logs and staff see it), so knowing it never opens the conversation
 * that carries it: the session joins `visitor:<visitor_id>`'s conversation only when none exists yet or
 * when `previousToken` is the token of an earlier session of that visitor in it (expired or not: the
 * browser keeps its last token, web/widget.js); otherwise it starts a conversation of its own
 * (`visitor:<visitor_id>#<session id>`), so nothing said before, nor after, in the first reaches it. A
 * verified identity (`user_hash`) is proof enough and keeps its own rule (src/shared/conversations.ts
 * `widgetCustomerAddress`).
 */
export async function anonymousVisitorAddress(input: {
  orgId: string;
  livemode: boolean;
  visitorId: string;
  previousToken?: string;
  sessionId: string;
}): Promise<string> {
  const { orgId, livemode, visitorId } = input;
  if (input.previousToken) {
    const earlier = await sessionOfToken(input.previousToken, Date.now(), true);
    if (
      earlier &&
      earlier.org_id === orgId &&
      earlier.livemode === livemode &&
      earlier.user_id === null &&
      earlier.visitor_id === visitorId
    ) {
      const conv = await Conversation.findById(earlier.conversation_id, { customer_number: 1 }).lean();
      if (conv) return conv.customer_number;
    }
  }
  const address = widgetCustomerAddress({ userId: null, visitorId });
  const taken = await findConversation({ orgId, livemode, channel: 'web', customerNumber: address });
  return taken ? `${address}#${input.sessionId}` : address;
}
