/**
 * `attendRoom`: the assistant in a browser voice room (`POST /v1/widget/voice` with LiveKit configured).
 * The call's workflow runs it for as long as the call lasts; it builds the attendance's `RoomSession`
 * (src/voice/room-session.ts: joining, listening, speaking, barge-in, the recording's parts) with the
 * services it needs and runs it:
 * - the room token (identity `assistant`, signed with `LIVEKIT_API_KEY`/`LIVEKIT_API_SECRET`);
 * - speech-to-text (`openai.audio.transcriptions`, `VOICE_STT_MODEL`, in the agent's language) and
 *   text-to-speech (`openai.audio.speech`, `VOICE_TTS_MODEL`, 24 kHz PCM, in the agent's voice when
 *   OpenAI has it, else `VOICE_TTS_VOICE`: src/shared/speech.ts `roomVoice`);
 * - the recording, when the call is recorded: the parts stored as they come (src/services/recordings.ts)
 *   and the call's `recordingWorkflow`, which joins every attendance's parts into the recording once the
 *   call has ended (`storeRecording`): started as the recording begins, so a call that ends while no
 *   attendance is in the room (its worker died, the call ended before a retry joined) is still recorded
 *   and its parts removed; the attendance that ends with the call says its last part is stored;
 * - the heartbeat (every second, `AttendRoomProgress`): a worker that dies stops it, and Temporal retries
 *   the activity after the heartbeat timeout on any worker, which joins the room again and goes on
 *   without answering or greeting a second time (the last heartbeat, or the call's `answered_ms`: the SDK
 *   sends heartbeats at most every 0.8 × the heartbeat timeout, 8 s).
 *
 * Returns when the visitor leaves, the call is over (the assistant said goodbye, an update was refused,
 * the room was deleted) or another attendance took over (`DUPLICATE_IDENTITY`, without error); a
 * cancellation (the workflow's finish) leaves the room. Errors: LiveKit not configured on the worker →
 * `ApplicationFailure` `VoiceRoomUnavailable` (not retried: the call fails); anything else (the server
 * unreachable, the connection lost) is retried.
 *
 * Sources: https://docs.livekit.io/home/client/connect/ (rooms, identities),
 * https://platform.openai.com/docs/api-reference/audio (speech `response_format: pcm` is 24 kHz 16-bit
 * little-endian mono), https://docs.temporal.io/encyclopedia/detecting-activity-failures#heartbeat-timeout.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { toFile } from 'openai';
import { roomToken } from '../providers/livekit';
import { openai } from '../providers/openai';
import { config } from '../config';
import { logger } from '../logger';
import { wavFile } from '../voice/endpointing';
import {
  RoomSession,
  roomCallSettings,
  type AttendRoomProgress,
  type RoomOutcome,
  type RoomRecording,
} from '../voice/room-session';
import type { Synthesize } from '../voice/room-speech';
import { ROOM_SAMPLE_RATE } from '../services/recording-audio';
import { markRoomRecorded, startRecordingWorkflow, storeRoomPart } from '../services/recordings';
import { recordingIdOf } from '../models/recordings';
import { callWorkflowId, ROOM_ASSISTANT_IDENTITY, type VoiceRoom, VOICE_ROOM_UNAVAILABLE } from '../shared/calls';
import { speechDuration } from '../platform/metrics';

export type { AttendRoomProgress } from '../voice/room-session';

/** Tries of one transcription before the utterance is given up (the client's own retries are off). */
const STT_TRIES = 3;

export interface AttendRoomInput {
  callId: string;
  room: VoiceRoom;
  /** Said as soon as the visitor is in the room (the agent's `first_message`; null on a continued run). */
  firstMessage: string | null;
}

export interface AttendRoomResult {
  /** Why the assistant left: the visitor left, the call is over, or another attendance took over. */
  outcome: RoomOutcome;
  /** Utterances heard and handed to the call by this attempt. */
  utterances: number;
}

/**
 * Attends the call's voice room until the call no longer needs it (see the module's description).
 * @throws ApplicationFailure `VoiceRoomUnavailable` without `LIVEKIT_URL`/`LIVEKIT_API_KEY`/`LIVEKIT_API_SECRET`
 */
export async function attendRoom(input: AttendRoomInput): Promise<AttendRoomResult> {
  const cfg = config();
  if (!cfg.livekitUrl || !cfg.livekitApiKey || !cfg.livekitApiSecret)
    throw ApplicationFailure.nonRetryable(
      'This worker has no LiveKit configuration (LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET).',
      VOICE_ROOM_UNAVAILABLE,
    );
  const ctx = Context.current();
  const { info } = ctx;
  const session = `${info.workflowExecution?.runId ?? 'standalone'}:${info.activityId}:${info.attempt}`;
  const log = { call_id: input.callId, room: input.room.name, attempt: info.attempt };
  const token = await roomToken({
    identity: ROOM_ASSISTANT_IDENTITY,
    name: 'Assistant',
    ttl: '6h',
    room: input.room.name,
    agent: true,
  });
  const settings = await roomCallSettings(input.callId, cfg.voiceTtsVoice);
  const before = (info.heartbeatDetails ?? {}) as Partial<AttendRoomProgress>;
  const room = new RoomSession({
    ...input,
    url: cfg.livekitUrl,
    token,
    session,
    answered: before.answered === true || (info.attempt > 1 && settings.answered),
    handle: ctx.client.workflow.getHandle(callWorkflowId(input.callId)),
    endOfTurnMs: cfg.voiceEndOfTurnMs,
    listenRate: ROOM_SAMPLE_RATE,
    synthesize: speechOf(settings.voice),
    speechModel: cfg.voiceTtsModel,
    transcribe: (pcm) => transcribe(pcm, settings.language, log),
    recording: settings.recorded && roomRecording(ctx, input.callId, settings.recorded, session),
    heartbeat: (progress) => ctx.heartbeat(progress),
    cancelled: ctx.cancelled,
  });
  return await room.run();
}

/** Text to speech in `voice` (`VOICE_TTS_MODEL`, `pcm`): the response's body as it arrives. */
function speechOf(voice: string): Synthesize {
  return async (text, signal) => {
    const res = await openai().audio.speech.create(
      { model: config().voiceTtsModel, voice, input: text, response_format: 'pcm' },
      { signal },
    );
    return res.body as unknown as AsyncIterable<Uint8Array>;
  };
}

/**
 * A recorded room call's recording as one attendance keeps it: its parts in the store
 * (`storeRoomPart`), the call's `recordingWorkflow` started as the recording begins and again as an
 * attendance's run ends (once per call: a second start is a no-op), and the mark of an attendance that
 * saw the call end in the room that its last part is stored (`markRoomRecorded`), which lets the workflow
 * join the parts at once. An attendance cancelled by the workflow does not mark: the run may be
 * continuing as new, and the next run's attendance still records.
 */
function roomRecording(
  ctx: Context,
  callId: string,
  tenant: { orgId: string; livemode: boolean },
  session: string,
): RoomRecording {
  const call = { callId, orgId: tenant.orgId, recordingId: recordingIdOf(callId) };
  const start = () => startRecordingWorkflow(ctx.client, { callId, ...tenant, source: { kind: 'room' } });
  return {
    begin: async () => void (await start()),
    store: (part) => storeRoomPart(call, part, session),
    end: async (ending) => {
      if (ending === null) return; // a retry (or the attendance that replaced this one) goes on
      if (ending === 'call') await markRoomRecorded(call, session);
      await start();
    },
  };
}

/**
 * The text of one utterance (`openai.audio.transcriptions`, a WAV file, in `language` when known: ISO
 * 639-1), trimmed; '' for none. Tried `STT_TRIES` times; an utterance that cannot be transcribed is
 * logged and dropped.
 */
async function transcribe(pcm: Int16Array, language: string | null, log: Record<string, unknown>): Promise<string> {
  const file = await toFile(wavFile(pcm, ROOM_SAMPLE_RATE), 'utterance.wav', { type: 'audio/wav' });
  for (let attempt = 1; ; attempt++) {
    const timer = speechDuration.startTimer({ operation: 'transcription', model: config().voiceSttModel });
    try {
      const result = await openai().audio.transcriptions.create({
        file,
        model: config().voiceSttModel,
        ...(language ? { language } : {}),
      });
      timer({ outcome: 'ok' });
      return result.text.trim();
    } catch (err) {
      timer({ outcome: 'error' });
      if (attempt >= STT_TRIES) {
        logger.warn('voice room: an utterance could not be transcribed', { ...log, error: (err as Error).message });
        return '';
      }
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
}
