/**
 * A browser voice call's start as a named step (`POST /v1/widget/voice`, src/api/widget.ts), which a route
 * or a test calls directly: `startVoiceRoomCall` places the call of a LiveKit room (or, without LiveKit in
 * test mode, of a simulated room) for a widget visitor.
 */
import crypto from 'node:crypto';
import type { Client } from '@temporalio/client';
import { aiDisclosureEnabled } from './ai-disclosure';
import { ApiError } from '../errors';
import { config } from '../config';
import type { AgentDoc } from '../models/agents';
import { Call, newCallDocument, type CallDoc } from '../models/calls';
import type { ConversationDoc } from '../models/conversations';
import { insertIfAbsent, type WithId } from '../models/store';
import { roomToken } from '../providers/livekit';
import { conversationAgent } from './agent-versions';
import { concurrencyLimited, tryAcquireCallSlot } from './call-slots';
import { newCallInput, startCallWorkflow } from './calls';
import { currentTraceId } from '../platform/tracing';

/** The LiveKit server the service is configured with, or null (no browser voice in live mode). */
export function livekitSettings(): { url: string; key: string; secret: string } | null {
  const cfg = config();
  return cfg.livekitUrl && cfg.livekitApiKey && cfg.livekitApiSecret
    ? { url: cfg.livekitUrl, key: cfg.livekitApiKey, secret: cfg.livekitApiSecret }
    : null;
}

/** A simulated room's token: opaque and random (nothing connects to a simulated room). */
const simulatedRoomToken = (room: string) => `simroom_${room}_${crypto.randomBytes(16).toString('base64url')}`;

/**
 * Places voice call `callId` for the widget session's visitor (`conv.customer_number`) with `agent` at
 * the conversation's version: one live room per visitor at a time (409 `call_in_progress`), a call slot
 * taken at once (429 `concurrency_limit` at `max_concurrent_calls`, nothing created), the room's token
 * (`ttlSeconds` to join; LiveKit's, or a simulated room's), then the call's workflow and its document.
 * @param livekit the LiveKit settings (`livekitSettings`), null for a simulated room (test mode)
 */
export async function startVoiceRoomCall(
  temporal: Client,
  session: { _id: string; org_id: string; livemode: boolean },
  callId: string,
  on: {
    agent: WithId<AgentDoc>;
    conv: WithId<ConversationDoc>;
    livekit: { url: string } | null;
    ttlSeconds?: number;
  },
): Promise<{ doc: WithId<CallDoc>; room: { url: string; token: string; simulated: boolean }; expiresAt: number }> {
  const { conv, livekit } = on;
  const ttl = on.ttlSeconds ?? 600;
  const tenant = { orgId: session.org_id, livemode: session.livemode };
  const visitor = conv.customer_number;
  if (livekit) {
    // One voice room per visitor at a time (a second tab, a double click): the first is still live.
    const live = await Call.findOne(
      {
        ...{ org_id: tenant.orgId, livemode: tenant.livemode },
        to: visitor,
        simulated: false,
        status: { $in: ['queued', 'ringing', 'in_progress'] },
      },
      { _id: 1 },
    ).lean();
    if (live)
      throw new ApiError(
        409,
        'invalid_request_error',
        'call_in_progress',
        `This visitor is already in voice call ${live._id}; end it (leave the room) before starting another.`,
      );
  }
  // The conversation's version of its agent (picked now for a visitor who has not written yet).
  const versioned = (await conversationAgent(on.agent, conv, { contactId: conv.contact_id, phone: visitor })).agent;
  // No dial gate: nobody is dialed (the visitor is in the browser), and `visitor:…` has no local time, so the
  // gate's calling hours would refuse the call under `CALLING_HOURS_ENFORCEMENT=enforce`.
  const { dial_gate: _noDial, ...input } = newCallInput(
    callId,
    { ...tenant, aiDisclosure: await aiDisclosureEnabled(tenant) },
    versioned,
    { to: visitor, metadata: { widget_session: session._id }, context: {} },
  );
  if (livekit) Object.assign(input, { simulation: null, room: { name: callId, participant: visitor } });
  // A voice room counts against max_concurrent_calls from now: asked once, 429 at the limit.
  const slot = await tryAcquireCallSlot(temporal, tenant, callId);
  if (!slot.granted) throw concurrencyLimited(slot.limit);
  Object.assign(input, { slot: 'held', queue_timeout_seconds: undefined });
  const expiresAt = Math.floor(Date.now() / 1000) + ttl;
  let room = { url: 'wss://simulated.invalid/rooms', token: simulatedRoomToken(callId), simulated: true };
  if (livekit)
    room = { url: livekit.url, token: await roomToken({ identity: visitor, ttl, room: callId }), simulated: false };
  await startCallWorkflow(temporal, input);
  const doc = newCallDocument(input, currentTraceId());
  await insertIfAbsent(Call, doc);
  return { doc, room, expiresAt };
}
