/**
 * Search attributes that operators filter runs on in the Temporal Web UI (for example
 * `CallStatus = "completed" AND Livemode = false`, `CampaignId = "bulk_…"`). Registered at start
 * (`--search-attribute` on the dev server, the operator service elsewhere: src/platform/temporal.ts; the
 * docker-compose.yml `temporal-admin-tools` list must name the same). Bundle-safe: workflows upsert them.
 * SQL visibility (the dev server's SQLite included) has room for 10 Keyword and 3 Bool custom
 * attributes per namespace: add new ones sparingly.
 * https://docs.temporal.io/visibility#custom-search-attributes
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Typed search attribute keys: Keyword ones and `Livemode` (Bool). */
export const searchAttributeKeys = {
  /** A call's status (src/shared/calls.ts `CallStatus`), upserted at every transition. */
  CallStatus: defineSearchAttributeKey('CallStatus', SearchAttributeType.KEYWORD),
  /** The agent handling a call. */
  AgentId: defineSearchAttributeKey('AgentId', SearchAttributeType.KEYWORD),
  /** The organization a run belongs to. */
  OrgId: defineSearchAttributeKey('OrgId', SearchAttributeType.KEYWORD),
  /** True for live mode, false for test mode. */
  Livemode: defineSearchAttributeKey('Livemode', SearchAttributeType.BOOL),
  /** The conversation (`conv_…`) a run serves: its `conversationWorkflow`, or a call it placed. */
  ConversationId: defineSearchAttributeKey('ConversationId', SearchAttributeType.KEYWORD),
  /** The channel of a conversation or session: `voice`, `sms`, `whatsapp`, `widget`. */
  Channel: defineSearchAttributeKey('Channel', SearchAttributeType.KEYWORD),
  /** The campaign (bulk call, `bulk_…`) a run belongs to: its own workflow and each call it starts. */
  CampaignId: defineSearchAttributeKey('CampaignId', SearchAttributeType.KEYWORD),
};
