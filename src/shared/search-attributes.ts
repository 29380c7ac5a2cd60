/**
 * Search attributes that operators filter runs on in the Temporal Web UI (for example
 * `CallStatus = "completed" AND Livemode = false`). Registered at start (`--search-attribute` on the dev
 * server, the operator service elsewhere: src/lib/temporal.ts). Bundle-safe: workflows upsert them.
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
};
