/**
 * The browser widget (spec section 4 "Widget"): sessions (`wses_…`) and each organization's widget
 * settings.
 *
 * Who writes what (DESIGN.md section 3, one writer per document):
 * - widget sessions: the API inserts one per `POST /v1/widget/session`; never changed afterwards (a session
 *   ends when `expires_ms` passes). The token itself is never stored: `token_hash` is its SHA-256.
 * - widget settings (`_id` = the organization id): `svcctl widget configure` and `svcctl widget
 *   rotate-secret` only. The identity secrets are sealed with `SECRETS_KEY` (src/secrets.ts), because the
 *   API must compute HMACs with them.
 * - widget stream leases (`wstr_…`): the API process serving an open stream inserts one when the stream
 *   opens and deletes it when the stream ends (src/services/widget-streams.ts); they are what the caps on
 *   open streams count, across API processes.
 * - widget stream holders (`_id` = an API process's holder id): that process only, renewing its
 *   `expires_ms` while it serves streams; a lease whose holder expired (a killed process) counts for nothing
 *   and is deleted by the next count that meets it.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { schemaOptions as base, seconds, type WithId } from './store';
import { CallObject } from './calls';
import { apiObject, unix } from './wire';

const widgetSessionSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    /** SHA-256 hex of the session token (`<id>_secret_<random>`). */
    token_hash: { type: String, required: true },
    visitor_id: { type: String, required: true },
    /** The verified `identity.user_id`, or null for an anonymous visitor. */
    user_id: { type: String, default: null },
    conversation_id: { type: String, required: true },
    /** The IP address that opened the session (for the per-address rate limit and audits). */
    ip: { type: String, default: null },
    expires_ms: { type: Number, required: true },
    created: { type: Number, required: true },
  },
  base,
);
export const WidgetSession = mongoose.model('WidgetSession', widgetSessionSchema, 'widget_sessions');
export type WidgetSessionDoc = InferSchemaType<typeof widgetSessionSchema>;

const widgetSettingsSchema = new Schema(
  {
    /** The organization's id. */
    _id: { type: String, required: true },
    /** Origins (`https://shop.example`) whose pages may call the widget endpoints; empty: see src/services/widget.ts. */
    allowed_origins: { type: [String], default: [] },
    /** When true, a session without a valid `identity` is refused. */
    require_identity: { type: Boolean, default: false },
    /** The identity secret (sealed): `user_hash` = HMAC-SHA256(secret, user_id), lowercase hex. */
    identity_secret: { type: String, default: null },
    /** The secret before the last rotation (sealed), valid until `previous_expires_ms`. */
    previous_identity_secret: { type: String, default: null },
    previous_expires_ms: { type: Number, default: null },
    /**
     * The squad (`sqd_…`) answering the widget's new conversations in its mode (a squad is a test or a live
     * one), instead of the organization's default agent; null: the default agent.
     */
    squad_id: { type: String, default: null },
    updated_ms: { type: Number, required: true },
  },
  base,
);
export const WidgetSettings = mongoose.model('WidgetSettings', widgetSettingsSchema, 'widget_settings');
export type WidgetSettingsDoc = InferSchemaType<typeof widgetSettingsSchema>;

/**
 * One open widget stream, counted by the caps per session, per organization and IP address and per
 * organization. Every count is an equality on an indexed key (`session_id`, `ip_key`, `org_id`).
 */
const widgetStreamLeaseSchema = new Schema(
  {
    _id: { type: String, required: true },
    /** The holder id of the API process serving the stream (`widget_stream_holders`). */
    holder: { type: String, required: true },
    session_id: { type: String, required: true },
    /** `<org id>:<client IP address>`: the per-address cap counts per organization. */
    ip_key: { type: String, required: true },
    org_id: { type: String, required: true },
    created_ms: { type: Number, required: true },
  },
  base,
);
widgetStreamLeaseSchema.index({ session_id: 1 });
widgetStreamLeaseSchema.index({ ip_key: 1 });
widgetStreamLeaseSchema.index({ org_id: 1 });
widgetStreamLeaseSchema.index({ holder: 1 });
export const WidgetStreamLease = mongoose.model('WidgetStreamLease', widgetStreamLeaseSchema, 'widget_stream_leases');
export type WidgetStreamLeaseDoc = InferSchemaType<typeof widgetStreamLeaseSchema>;

/** An API process that serves widget streams: alive while `expires_ms` is ahead (renewed by the process). */
const widgetStreamHolderSchema = new Schema(
  {
    _id: { type: String, required: true },
    expires_ms: { type: Number, required: true },
  },
  base,
);
export const WidgetStreamHolder = mongoose.model(
  'WidgetStreamHolder',
  widgetStreamHolderSchema,
  'widget_stream_holders',
);

/** The `widget_session` object as the API answers it (the OpenAPI component `WidgetSession`). */
export const WidgetSessionObject = apiObject(
  'WidgetSession',
  "A browser widget's session: its `token` (only in the answer that opens it; valid 24 hours) authenticates the widget's messages, stream and voice.",
  z.object({
    id: z.string(),
    object: z.literal('widget_session'),
    livemode: z.boolean(),
    token: z.string().optional().describe('`wses_…_secret_…`; shown once, stored hashed.'),
    expires_at: unix,
    visitor_id: z.string(),
    verified: z.boolean().describe('True when `identity` verified: the session carries `user_id`.'),
    user_id: z.string().nullable(),
    conversation_id: z.string().describe("The `web` conversation: the user's (verified) or this visitor's."),
    greeting: z
      .string()
      .nullable()
      .describe(
        "The answering agent's `first_message`, which the widget shows when its panel opens (no model request); null when the agent has none, or no agent answers.",
      ),
    created: unix,
  }),
);

/**
 * The `widget_session` object (its token is added only in the response that creates it): `expires_at`
 * unix seconds; `verified` true when the session carries a verified `user_id`; `greeting` the answering
 * agent's `first_message` (null when none).
 */
export function renderWidgetSession(
  doc: WithId<WidgetSessionDoc>,
  token?: string,
  greeting: string | null = null,
): z.output<typeof WidgetSessionObject> {
  return {
    id: doc._id,
    object: 'widget_session' as const,
    livemode: doc.livemode,
    ...(token !== undefined ? { token } : {}),
    expires_at: seconds(doc.expires_ms)!,
    visitor_id: doc.visitor_id,
    verified: doc.user_id != null,
    user_id: doc.user_id ?? null,
    conversation_id: doc.conversation_id,
    greeting,
    created: doc.created,
  };
}

/**
 * The `widget_voice` object `POST /v1/widget/voice` answers (the OpenAPI component `WidgetVoice`): the
 * media room to join and the call it is (src/api/widget.ts).
 */
export const WidgetVoiceObject = apiObject(
  'WidgetVoice',
  'A browser voice call: the media room to join with `token` (valid at most 10 minutes), and the call it is.',
  z.object({
    object: z.literal('widget_voice'),
    url: z.string().describe('The LiveKit server URL (`wss://…`); a `.invalid` address for a simulated room.'),
    room: z.string(),
    token: z.string().describe('A LiveKit access token (JWT) for this room and visitor; opaque for a simulated room.'),
    expires_at: unix,
    call_id: z.string(),
    simulated: z.boolean(),
    call: CallObject,
  }),
);
