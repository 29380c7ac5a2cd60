/**
 * Assistants (`agt_…`, object `agent`). Written only by the API (`POST /v1/agents`, `POST` and `DELETE
 * /v1/agents/{id}`; `DELETE /v1/tools/{id}` pulls the deleted tool out of `tool_ids`, see
 * src/services/tools.ts `deleteTool`, and `DELETE /v1/connector_installations/{id}` the deleted installation out of
 * `connector_installation_ids`, see src/services/connector-installations.ts `deleteInstallation`); a call keeps a snapshot of its agent (src/shared/calls.ts `AgentSnapshot`), so later
 * edits never change a running call. Deletion is soft (`deleted_ms`): a deleted agent is missing for
 * every read and new call, and its row stays for the calls that name it.
 */
import mongoose, { Schema, type InferSchemaType } from 'mongoose';
import { z } from 'zod';
import { TRANSFER_MODES, VOICEMAIL_ACTIONS, type VoicemailSetting } from '../shared/calls';
import { findByIdShared, schemaOptions as base, type WithId } from './store';
import { apiObject, callingWindowObject, metadataObject, recordingSettingsObject, unix } from './wire';
import { TransferDestinationObject } from './dialing';
import type { TransferDestination } from '../shared/dialing';
import type { RecordingSettings } from '../shared/recordings';
import { RECORDING_CONSENT_MODES, type RecordingConsentMode } from '../shared/recording-consent';
import { ENGINES } from '../shared/realtime';

/** An agent's `recording_consent` as the API takes and shows it. */
export const recordingConsentField = z.enum(RECORDING_CONSENT_MODES);
import { AnalysisPlanObject } from './analyses';
import {
  INTERRUPTIBLE_MODES,
  TRANSCRIPTION_PROVIDERS,
  TTS_PROVIDERS,
  type AgentTranscription,
  type AgentVoice,
  type SpeechSettings,
} from '../shared/speech';
import type { TurnTaking } from '../shared/turn-taking';
import { TurnTakingObject } from './turn-taking';

const agentSchema = new Schema(
  {
    _id: { type: String, required: true },
    org_id: { type: String, required: true },
    livemode: { type: Boolean, required: true },
    name: { type: String, required: true },
    instructions: { type: String, required: true },
    first_message: { type: String, default: null },
    model: { type: String, default: null },
    transfer_to: { type: String, default: null },
    /** How `transfer_call` transfers (src/shared/calls.ts `TRANSFER_MODES`): `cold` or `warm`. */
    transfer_mode: { type: String, default: 'cold' },
    /**
     * The places `transfer_call` may name (src/shared/dialing.ts `TransferDestination[]`), JSON; null: none.
     */
    transfer_destinations_json: { type: String, default: null },
    /** The custom tools (`tool_…`, ./tools.ts) offered besides the built-in ones; a deleted tool is pulled out. */
    tool_ids: { type: [String], default: [] },
    /** The connector installations (`cinst_…`) whose tools are offered too; a deleted one is pulled out. */
    connector_installation_ids: { type: [String], default: [] },
    /** Optional built-in tools it offers (src/shared/tools.ts `OPTIONAL_TOOLS`: `schedule_callback`, `send_dtmf`). */
    enabled_tools: { type: [String], default: [] },
    /** False: the built-in `opt_out` tool is not offered on its calls; null (or absent): offered. */
    opt_out_tool: { type: Boolean, default: null },
    /** Whether the assistant is asked to cite the knowledge it answers from (src/services/assistant-context.ts); null: no. */
    knowledge_citations: { type: Boolean, default: null },
    /** Its calling window (scheduled calls and promised callbacks ring only then), JSON; null: none. */
    calling_window_json: { type: String, default: null },
    /** The `voicemail` setting (src/shared/calls.ts `VoicemailSetting`) as JSON; null: no answering-machine detection. */
    voicemail_json: { type: String, default: null },
    metadata_json: { type: String, default: '{}' },
    /** Recording of its calls, JSON `{enabled, notice?}`; null: not recorded. */
    recording_json: { type: String, default: null },
    /**
     * Recording consent (src/shared/recording-consent.ts `RECORDING_CONSENT_MODES`: `announce`, `ask`,
     * `off`); null: the default by jurisdiction (src/services/recording-consent.ts).
     */
    recording_consent: { type: String, default: null },
    /** Its analysis plan (src/shared/analysis.ts `AnalysisPlan`), JSON; null: calls are not analysed. */
    analysis_json: { type: String, default: null },
    /**
     * What its replays judge by when a replay gives no `rubric` (src/api/replays.ts): the comparer's rubric
     * of `turn` replays and the test-suite judge's of `fork` replays; null: none (the default rubric, no judge).
     */
    replay_rubric: { type: String, default: null },
    /** Its text-to-speech voice (src/shared/speech.ts `AgentVoice`), JSON; null: the provider's default. */
    voice_json: { type: String, default: null },
    /** Its language, a canonical BCP 47 tag (`en-US`); null: the provider's default. */
    language: { type: String, default: null },
    /** Its speech recognition (`AgentTranscription`), JSON; null: the provider's default. */
    transcription_json: { type: String, default: null },
    /** What may interrupt it while it speaks (`any`, `speech`, `none`); null: the provider's default (`any`). */
    interruptible: { type: String, default: null },
    /** Whether the caller's keypresses are detected (ConversationRelay `dtmfDetection`); null: not set. */
    dtmf: { type: Boolean, default: null },
    /** Its turn-taking settings (src/shared/turn-taking.ts `TurnTaking`), JSON; null: the engines' defaults. */
    turn_taking_json: { type: String, default: null },
    /** What carries its calls (src/shared/realtime.ts `ENGINES`): `realtime`; null: `pipeline`. */
    engine: { type: String, default: null },
    /** When the agent was marked `default: true` (ms); the latest mark wins (see `defaultAgentId`). */
    default_ms: { type: Number, default: null },
    /**
     * The published version (its configuration is the one in this document's fields) and the
     * newest version's number (src/models/agent-versions.ts); null for an agent made before versions
     * existed, until its version 1 is written (src/services/agent-versions.ts `ensureAgentVersions`).
     */
    version: { type: Number, default: null },
    latest_version: { type: Number, default: null },
    /** The traffic split (`[{version, weight}]`) as JSON; null: every new call uses `version`. */
    traffic_split_json: { type: String, default: null },
    created: { type: Number, required: true },
    deleted_ms: { type: Number, default: null },
  },
  base,
);
agentSchema.index({ org_id: 1, livemode: 1, _id: -1 });
/** The default agent of a tenant (`defaultAgentId`): the latest `default_ms` first. */
agentSchema.index({ org_id: 1, livemode: 1, default_ms: -1, _id: -1 });
export const Agent = mongoose.model('Agent', agentSchema, 'agents');

export type AgentDoc = InferSchemaType<typeof agentSchema>;

/**
 * The organization's default agent in a mode (the one answering the test-mode messaging number and a
 * number connected without `agent_id`): the agent most recently created with `default: true`, else the
 * first created. One per organization and mode by construction: no other document is rewritten.
 */
export async function defaultAgentId(orgId: string, livemode: boolean): Promise<string | null> {
  const marked = await Agent.find({ org_id: orgId, livemode, deleted_ms: null, default_ms: { $ne: null } })
    .sort({ default_ms: -1, _id: -1 })
    .limit(1)
    .lean();
  if (marked[0]) return marked[0]._id;
  const first = await Agent.find({ org_id: orgId, livemode, deleted_ms: null }).sort({ _id: 1 }).limit(1).lean();
  return first[0]?._id ?? null;
}

/**
 * The tenant's agent `id` unless it is deleted (`deleted_ms` set), else null: the one lookup for every
 * use of an agent by id (the API's `agent_id` params, a campaign's dials, a conversation's turns, the
 * widget's voice call). Read by `_id` alone (`findByIdShared`) and the tenant checked here (see `findByIds` in ./store:
 * FerretDB pushes down only a filter that is exactly `{_id}`).
 */
export async function findLiveAgent(
  tenant: { orgId: string; livemode: boolean },
  id: string,
): Promise<WithId<AgentDoc> | null> {
  // Lookups of one agent at the same moment (a burst of calls) share a read.
  const doc = await findByIdShared<WithId<AgentDoc>>(Agent, id);
  return doc && doc.org_id === tenant.orgId && doc.livemode === tenant.livemode && doc.deleted_ms == null ? doc : null;
}

/**
 * The agent answering a conversation (its document): the first of `candidates` (most specific first: the one named by
 * `POST /v1/messages`, the conversation's own, its number's) that is live (see `findLiveAgent`), else the
 * organization's default agent (`defaultAgentId`), else null (nobody: the conversation goes to a person).
 * A new conversation picks its agent so, and a conversation whose agent was deleted is answered so from
 * its next turn (src/activities/conversations.ts `conversationContext`).
 */
export async function answeringAgent(
  tenant: { orgId: string; livemode: boolean },
  ...candidates: (string | null | undefined)[]
) {
  for (const id of candidates) {
    const agent = id ? await findLiveAgent(tenant, id) : null;
    if (agent) return agent;
  }
  const defaultId = await defaultAgentId(tenant.orgId, tenant.livemode);
  return defaultId ? findLiveAgent(tenant, defaultId) : null;
}

/** The `voicemail` setting as the API shows it on agents (src/shared/calls.ts `VoicemailSetting`). */
export const VoicemailObject = z
  .object({
    detection: z.boolean().describe("Ask Twilio's answering-machine detection on live outbound calls."),
    action: z
      .enum(VOICEMAIL_ACTIONS)
      .describe(
        'On a machine: `hang_up` at once, or `leave_message` (spoken once after the beep), then the call ends.',
      ),
    message: z.string().optional().describe('What `leave_message` says after the beep.'),
    leave_message_on: z
      .enum(['every_attempt', 'last_attempt'])
      .optional()
      .describe(
        'Campaigns: `last_attempt` leaves the message only when voicemail would not be redialed; earlier attempts hang up.',
      ),
  })
  .describe(
    'What a call does when an answering machine picks up (`end_reason: "voicemail"`, `answered_by: "machine"`).',
  );

/** Longest `voice.voice_id` (characters). */
export const VOICE_ID_MAX = 200;
/** Most `transcription.hints`, and the longest one (characters). */
export const MAX_HINTS = 100;
export const HINT_MAX = 100;

/**
 * Whether `tag` is a well-formed BCP 47 language tag (`Intl.getCanonicalLocales` accepts it); its
 * canonical form is what is stored (`en-us` → `en-US`).
 */
export function canonicalLanguage(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** An agent's `voice`: ConversationRelay's `ttsProvider` and `voice`. */
export const AgentVoiceObject = z
  .strictObject({
    provider: z.enum(TTS_PROVIDERS).describe("ConversationRelay's `ttsProvider`."),
    voice_id: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(VOICE_ID_MAX, `must be at most ${VOICE_ID_MAX} characters`)
      .describe("The provider's voice (ConversationRelay's `voice`), e.g. `en-US-Journey-O` or `Polly.Joanna-Neural`."),
  })
  .describe("The assistant's text-to-speech voice on phone calls; null: ConversationRelay's default.");

/** An agent's `transcription`: ConversationRelay's `transcriptionProvider` and `hints`. */
export const AgentTranscriptionObject = z
  .strictObject({
    provider: z.enum(TRANSCRIPTION_PROVIDERS).describe("ConversationRelay's `transcriptionProvider`."),
    hints: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(HINT_MAX, `must be at most ${HINT_MAX} characters`)
          .refine((h) => !h.includes(','), 'must not contain a comma'),
      )
      .max(MAX_HINTS, `must list at most ${MAX_HINTS} hints`)
      .optional()
      .describe('Words and phrases to recognize better (product names, jargon): ConversationRelay `hints`.'),
  })
  .describe("The assistant's speech recognition on phone calls; null: ConversationRelay's default.");

/** An agent's `language`: a BCP 47 tag, stored canonical. */
export const agentLanguage = z
  .string()
  .max(35, 'must be at most 35 characters')
  .refine((t) => canonicalLanguage(t) !== null, 'must be a BCP 47 language tag (e.g. en-US)')
  .transform((t) => canonicalLanguage(t)!)
  .describe(
    "BCP 47 language tag of the assistant's speech (synthesis and recognition; voice rooms: recognition), e.g. `en-US`, `es-MX`.",
  );

/** The agent's speech settings from its document (src/shared/speech.ts `SpeechSettings`), unset ones absent. */
export function agentSpeech(
  doc: Pick<AgentDoc, 'voice_json' | 'language' | 'transcription_json' | 'interruptible' | 'dtmf'> &
    Partial<Pick<AgentDoc, 'turn_taking_json'>>,
): SpeechSettings {
  return {
    ...(doc.voice_json ? { voice: JSON.parse(doc.voice_json) as AgentVoice } : {}),
    ...(doc.language ? { language: doc.language } : {}),
    ...(doc.transcription_json ? { transcription: JSON.parse(doc.transcription_json) as AgentTranscription } : {}),
    ...(doc.interruptible ? { interruptible: doc.interruptible as SpeechSettings['interruptible'] } : {}),
    ...(doc.dtmf != null ? { dtmf: doc.dtmf } : {}),
    // Always present on a new snapshot (`{}` without settings): it marks a call whose actions wait for what
    // the caller heard and whose backchannels are no turns (src/workflows/call-heard.ts); older calls lack it.
    turn_taking: agentTurnTaking(doc) ?? {},
  };
}

/** The agent's `turn_taking` from its document, or null when it has none. */
export function agentTurnTaking(doc: Partial<Pick<AgentDoc, 'turn_taking_json'>>): TurnTaking | null {
  return doc.turn_taking_json ? (JSON.parse(doc.turn_taking_json) as TurnTaking) : null;
}

/** The agent's transfer destinations from its document (empty when it has none). */
export function agentTransferDestinations(doc: Pick<AgentDoc, 'transfer_destinations_json'>): TransferDestination[] {
  return doc.transfer_destinations_json ? (JSON.parse(doc.transfer_destinations_json) as TransferDestination[]) : [];
}

/** The agent's voicemail setting from its document, or null when it has none. */
export function agentVoicemail(doc: Pick<AgentDoc, 'voicemail_json'>): VoicemailSetting | null {
  return doc.voicemail_json ? (JSON.parse(doc.voicemail_json) as VoicemailSetting) : null;
}

/** One entry of an agent's `traffic_split`. */
export const TrafficSplitEntryObject = apiObject(
  'TrafficSplitEntry',
  "One version's share of an agent's new calls and conversations.",
  z.object({
    version: z.number().int().describe('A version of this agent.'),
    weight: z.number().int().describe('Its share of new calls and conversations, in percent (the weights add to 100).'),
  }),
);
export type TrafficSplit = z.output<typeof TrafficSplitEntryObject>[];

/** The `agent` object as the API answers it (the OpenAPI component `Agent`). */
export const AgentObject = apiObject(
  'Agent',
  'An assistant: its instructions, first message, model and transfer target.',
  z.object({
    id: z.string().meta({ examples: ['agent_01jd5x2v7c0000000000000000'] }),
    object: z.literal('agent'),
    livemode: z.boolean(),
    name: z.string(),
    instructions: z.string(),
    first_message: z.string().nullable(),
    model: z.string().nullable(),
    transfer_to: z.string().nullable(),
    transfer_mode: z
      .enum(TRANSFER_MODES)
      .describe(
        '`cold` (default): `transfer_call` hands the line over and the assistant is gone. `warm`: the caller waits on hold while the person is dialed and briefed with a summary; if they are busy, do not answer or hang up, the caller is back with the assistant.',
      ),
    transfer_destinations: z
      .array(TransferDestinationObject)
      .describe(
        'The places the assistant may transfer a caller to: `transfer_call` offers exactly these names (and `transfer_to`, when set, when it names none). Anything else the model writes is a tool error, never a transfer.',
      ),
    tool_ids: z
      .array(z.string())
      .describe('The custom tools (`tool_…`) the assistant may call besides its built-in ones.'),
    connector_installation_ids: z
      .array(z.string())
      .describe('The connector installations (`cinst_…`) whose tools the assistant may call.'),
    enabled_tools: z
      .array(z.string())
      .describe(
        'Optional built-in tools the assistant offers besides the ones every agent has: `schedule_callback` (calls back later, on calls and WhatsApp/SMS), `send_dtmf` (presses keys on a phone call, to navigate a phone menu).',
      ),
    knowledge_citations: z
      .boolean()
      .describe(
        'Whether the assistant is asked to cite the knowledge it answers from: the sources (title, url or file name, page) of the chunks it is given are in its prompt, with the instruction to name them (default false).',
      ),
    opt_out_tool: z
      .boolean()
      .describe(
        'Whether its calls offer the built-in `opt_out` tool (default true): when the person asks not to be called again, the assistant records it (the contact becomes `do_not_call`, the number goes on the do-not-call list, `contact.opted_out` is emitted), confirms and ends the call.',
      ),
    calling_window: callingWindowObject
      .nullable()
      .describe(
        "When the agent's scheduled calls and promised callbacks may ring, in the callee's local time; null: any time (live +1 numbers: 08:00–21:00).",
      ),
    voicemail: VoicemailObject.nullable(),
    analysis: AnalysisPlanObject.nullable().describe(
      "What to learn from each of the agent's calls once it has ended; null: nothing. A call's own `analysis` replaces it.",
    ),
    replay_rubric: z
      .string()
      .nullable()
      .describe(
        "What replays of this version judge by when the replay gives no `rubric`: what counts as a changed turn (`turn` mode) and the test-suite judge's rubric (`fork` mode); null: the default rubric, and no judge.",
      ),
    voice: AgentVoiceObject.nullable(),
    language: z.string().nullable().describe("BCP 47 tag of the assistant's speech; null: the provider's default."),
    transcription: AgentTranscriptionObject.nullable(),
    interruptible: z
      .enum(INTERRUPTIBLE_MODES)
      .nullable()
      .describe(
        "What may interrupt the assistant while it speaks on a phone call: the caller's speech or keys (`any`), `speech`, or `none`; null: `any`.",
      ),
    dtmf: z
      .boolean()
      .nullable()
      .describe("Whether the caller's keypresses are heard on phone calls (ConversationRelay `dtmfDetection`)."),
    turn_taking: TurnTakingObject.nullable(),
    engine: z
      .enum(ENGINES)
      .describe(
        "What carries its phone calls: `pipeline` (default: speech recognized and spoken by ConversationRelay, the answer written by the chat model) or `realtime` (OpenAI's speech-to-speech Realtime API over SIP; audio never passes through the service; needs the operator's `OPENAI_REALTIME_PROJECT_ID` and `OPENAI_WEBHOOK_SECRET`).",
      ),
    metadata: metadataObject,
    recording: recordingSettingsObject.nullable().describe('Whether its calls are recorded; null: not recorded.'),
    recording_consent: recordingConsentField
      .nullable()
      .describe(
        'How a recorded call gets consent: `announce` (the opening says the call is recorded), `ask` (recorded only after the caller says yes), `off` (not recorded, nothing said); null: `announce` when either number is in an all-party-consent US state or the EU/EEA, the UK (and GG, JE, IM), CA or AU, else no consent step.',
      ),
    default: z.boolean().optional().describe('Whether this agent answers numbers connected without one.'),
    version: z
      .number()
      .int()
      .describe('The published version: the one new calls and conversations use when there is no `traffic_split`.'),
    latest_version: z.number().int().describe('The newest version (a draft when it is above `version`).'),
    traffic_split: z
      .array(TrafficSplitEntryObject)
      .nullable()
      .describe('Shares of new calls and conversations by version, per contact; null: all use `version`.'),
    created: unix,
  }),
);

/** The agent (assistant) object; `default` is shown when the default agent's id is given. */
export function renderAgent(doc: WithId<AgentDoc>, defaultId?: string | null): z.output<typeof AgentObject> {
  return {
    id: doc._id,
    object: 'agent' as const,
    livemode: doc.livemode,
    name: doc.name,
    instructions: doc.instructions,
    first_message: doc.first_message ?? null,
    model: doc.model ?? null,
    transfer_to: doc.transfer_to ?? null,
    transfer_mode: doc.transfer_mode === 'warm' ? 'warm' : 'cold', // written from TRANSFER_MODES only
    transfer_destinations: agentTransferDestinations(doc),
    tool_ids: [...(doc.tool_ids ?? [])],
    connector_installation_ids: [...(doc.connector_installation_ids ?? [])],
    enabled_tools: [...(doc.enabled_tools ?? [])],
    opt_out_tool: doc.opt_out_tool !== false,
    knowledge_citations: doc.knowledge_citations === true,
    calling_window: doc.calling_window_json ? JSON.parse(doc.calling_window_json) : null,
    voicemail: agentVoicemail(doc),
    analysis: doc.analysis_json ? JSON.parse(doc.analysis_json) : null,
    replay_rubric: doc.replay_rubric ?? null,
    voice: doc.voice_json ? (JSON.parse(doc.voice_json) as AgentVoice) : null,
    language: doc.language ?? null,
    transcription: doc.transcription_json ? (JSON.parse(doc.transcription_json) as AgentTranscription) : null,
    interruptible: (doc.interruptible as SpeechSettings['interruptible']) ?? null,
    dtmf: doc.dtmf ?? null,
    turn_taking: agentTurnTaking(doc),
    engine: doc.engine === 'realtime' ? 'realtime' : 'pipeline', // written from ENGINES only
    metadata: JSON.parse(doc.metadata_json ?? '{}') as Record<string, string>,
    recording: agentRecording(doc),
    recording_consent: (doc.recording_consent as RecordingConsentMode | null) ?? null, // written from RECORDING_CONSENT_MODES only
    ...(defaultId !== undefined ? { default: doc._id === defaultId } : {}),
    // An agent made before versions existed has version 1 (its current document), written on first use.
    version: doc.version ?? 1,
    latest_version: doc.latest_version ?? 1,
    traffic_split: doc.traffic_split_json ? (JSON.parse(doc.traffic_split_json) as TrafficSplit) : null,
    created: doc.created,
  };
}

/** The agent's recording settings (`recording`), or null when its calls are not recorded. */
export function agentRecording(doc: Pick<AgentDoc, 'recording_json'>): RecordingSettings | null {
  return doc.recording_json ? (JSON.parse(doc.recording_json) as RecordingSettings) : null;
}
