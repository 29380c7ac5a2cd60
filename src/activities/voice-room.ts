/**
 * The assistant in a browser voice room (`POST /v1/widget/voice` with LiveKit configured): the call's
 * workflow runs `attendRoom` for as long as the call lasts, and the activity is the assistant's presence
 * in the LiveKit room, as ConversationRelay is for a phone call (src/api/twilio/index.ts):
 *
 * - joins the room (`@livekit/rtc-node`, identity `assistant`, a token it signs with `LIVEKIT_API_KEY`/
 *   `LIVEKIT_API_SECRET`, livekit-server-sdk) and publishes one microphone track;
 * - tells the workflow when the visitor is in the room (`telephonyStatus` `in-progress`: the call is
 *   answered) and when they leave (`completed`: the caller hung up);
 * - listens to the visitor's audio (resampled to 16 kHz mono), cuts it into utterances
 *   (src/voice/endpointing.ts: a pause of `VOICE_END_OF_TURN_MS` ends one), transcribes each one
 *   (`openai.audio.transcriptions`, `VOICE_STT_MODEL`) and hands it to the workflow in order
 *   (src/voice/turns.ts: `callerSaid` updates, the holding line when an answer is late);
 * - speaks the first message and every answer (`openai.audio.speech`, `VOICE_TTS_MODEL`, 24 kHz PCM)
 *   into its track as the audio arrives; the visitor talking over it stops it (barge-in), and the call
 *   is told what was heard of the answer (src/voice/turns.ts `interrupt`: the sentences spoken whole; issue
 *   31), which its transcript and the model's history keep instead. An answer is
 *   spoken a sentence at a time as the model writes it: the attendance registers a token channel
 *   (src/voice/relay.ts, the call's `relay_sessions` record, replaced by a retried attendance) and the
 *   LLM activity streams the words there, as it does to a phone call's ConversationRelay;
 * - hears in the agent's `language` (issue 31: its primary subtag is the transcription's `language`);
 *   its voice is the worker's `VOICE_TTS_VOICE`: an agent's `voice` names a ConversationRelay provider's
 *   voice (Google, Amazon, ElevenLabs), which OpenAI's speech does not have, so rooms do not use it;
 * - records the call when it is recorded (its `recording`, issue 30): from the visitor's arrival, what it
 *   hears on channel 1 and what it speaks on channel 2 (src/voice/room-recorder.ts), stored in parts as it
 *   goes; when the call is over it starts the call's `recordingWorkflow`, which joins every attendance's
 *   parts into the recording (`recordRoom`);
 * - heartbeats every second (`AttendRoomProgress`). A worker that dies takes the assistant out of the room;
 *   Temporal retries the activity after the heartbeat timeout on any worker, which joins again under the
 *   same identity (LiveKit then drops the old connection if it is still there) and the call goes on, not
 *   answered or greeted a second time when the last heartbeat or the call's `answered_ms` says it was
 *   already. An attendance
 *   replaced that way (`DUPLICATE_IDENTITY`) ends without error, so two never fight over the room.
 *
 * Returns when the visitor leaves, the call is over (the assistant said goodbye, an update was refused,
 * the room was deleted) or another attendance took over; a cancellation (the workflow's finish) leaves
 * the room. Errors: LiveKit not configured on the worker → `ApplicationFailure` `VoiceRoomUnavailable`
 * (not retried: the call fails); anything else (the server unreachable, the connection lost) is retried.
 *
 * Sources: https://docs.livekit.io/home/client/connect/ (rooms, identities, `DUPLICATE_IDENTITY`),
 * https://platform.openai.com/docs/api-reference/audio (speech `response_format: pcm` is 24 kHz 16-bit
 * little-endian mono).
 */
import path from 'node:path';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { toFile } from 'openai';
import {
  AudioFrame,
  AudioResampler,
  AudioSource,
  AudioStream,
  DisconnectReason,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  type RemoteParticipant,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { roomToken } from '../providers/livekit';
import { config } from '../config';
import { logger } from '../logger';
import { Endpointer, wavFile } from '../voice/endpointing';
import { RoomRecorder } from '../voice/room-recorder';
import { ROOM_SAMPLE_RATE } from '../services/recording-audio';
import { startRecordingWorkflow, storeRoomPart } from '../services/recordings';
import { recordingIdOf } from '../models/recordings';
import { voiceTurns } from '../voice/turns';
import { relayTokenServer } from '../voice/relay';
import { Call, RelaySession } from '../models/calls';
import { sealSecret } from '../secrets';
import {
  callWorkflowId,
  ROOM_ASSISTANT_IDENTITY,
  telephonyStatusSignal,
  type AgentSnapshot,
  type CallerSaidResult,
  type TelephonyStatus,
  type VoiceRoom,
  VOICE_ROOM_UNAVAILABLE,
} from '../shared/calls';
import { openai } from '../providers/openai';
import { speechDuration } from '../platform/metrics';

/**
 * `@livekit/rtc-node` logs through its own pino logger to stdout, at `debug` unless NODE_ENV is
 * `production` (its dist/log.cjs, which the package does not export): set it to warnings, so its lines
 * do not flood the worker's output. Loaded by file path, the same module instance the SDK uses.
 */
function quietRtcLogs(): void {
  try {
    const file = path.join(path.dirname(require.resolve('@livekit/rtc-node')), 'log.cjs');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require(file) as { log: { level: string } }).log.level = 'warn';
  } catch {
    // another layout of the package: its debug lines stay
  }
}
quietRtcLogs();

/** Sample rate the visitor's audio is resampled to for endpointing, speech-to-text and the recording (Hz). */
const LISTEN_RATE = ROOM_SAMPLE_RATE;
/** Sample rate of OpenAI's `pcm` speech (Hz). */
const SPEAK_RATE = 24_000;
/** Samples per frame handed to the track (20 ms at 24 kHz). */
const SPEAK_FRAME = 480;
/**
 * After the goodbye's last frame left the track: how long before the call is reported over and the room
 * closed, so the audio still in flight (network, the visitor's jitter buffer) is heard, not cut.
 */
const GOODBYE_TAIL_MS = 500;
/** Longest wait for the visitor's client to subscribe to the assistant's track before the greeting (ms). */
const GREETING_WAIT_MS = 5_000;
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
  outcome: 'visitor_left' | 'call_over' | 'replaced';
  /** Utterances heard and handed to the call by this attempt. */
  utterances: number;
}

/** The attendance's heartbeat details: what a retried attempt takes over (`Context.info.heartbeatDetails`). */
export interface AttendRoomProgress {
  /** The visitor was in the room: the call was answered (`in-progress` signalled) and greeted. */
  answered: boolean;
  /** Utterances this attempt heard (for operators: the Web UI shows the last heartbeat). */
  utterances: number;
}

/**
 * The language the visitor is heard in: the primary subtag (ISO 639-1, as OpenAI's transcriptions take
 * it) of the agent's `language` in the call's snapshot (issue 31); null: detected by the model.
 */
async function roomLanguage(callId: string): Promise<string | null> {
  const call = await Call.findById(callId, { agent_json: 1 }).lean();
  const language = (JSON.parse(call?.agent_json ?? 'null') as AgentSnapshot | null)?.language;
  const primary = language?.split('-')[0].toLowerCase();
  return primary && /^[a-z]{2}$/.test(primary) ? primary : null;
}

/** The call's tenant when it is recorded (`recording` enabled on its document), else null. */
async function recordedCall(callId: string): Promise<{ orgId: string; livemode: boolean } | null> {
  const call = await Call.findById(callId, { org_id: 1, livemode: 1, recording_json: 1 }).lean();
  if (!call?.recording_json) return null;
  const settings = JSON.parse(call.recording_json) as { enabled?: boolean };
  return settings.enabled ? { orgId: call.org_id, livemode: call.livemode } : null;
}

/** Whether the call was answered (`answered_ms` set on its document; src/workflows/calls.ts). */
async function wasAnswered(callId: string): Promise<boolean> {
  const call = await Call.findById(callId, { answered_ms: 1 }).lean();
  return call?.answered_ms != null;
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
  const info = ctx.info;
  const handle = ctx.client.workflow.getHandle(callWorkflowId(input.callId));
  const session = `${info.workflowExecution?.runId ?? 'standalone'}:${info.activityId}:${info.attempt}`;
  const log = { call_id: input.callId, room: input.room.name, attempt: info.attempt };

  const token = await roomToken({
    identity: ROOM_ASSISTANT_IDENTITY,
    name: 'Assistant',
    ttl: '6h',
    room: input.room.name,
    agent: true,
  });

  const language = await roomLanguage(input.callId);
  const room = new Room();
  const speaker = new Speaker(new AudioSource(SPEAK_RATE, 1, 1000));
  let settle!: (result: AttendRoomResult) => void;
  let fail!: (err: Error) => void;
  const done = new Promise<AttendRoomResult>((resolve, reject) => ((settle = resolve), (fail = reject)));
  let utterances = 0;
  const finish = (outcome: AttendRoomResult['outcome']) => settle({ outcome, utterances });
  const status = (s: TelephonyStatus['status']) =>
    handle.signal(telephonyStatusSignal, { status: s }).catch((err: Error) => {
      logger.info('voice room: the call took no status', { ...log, status: s, error: err.message });
      finish('call_over');
    });

  // The answer's words as the model writes them (the LLM activity streams them here, src/voice/relay.ts),
  // spoken a sentence at a time before the whole answer is known; the update's answer then only ends it.
  const streaming = new SentenceStream((sentence) => void speaker.say(sentence));

  // The recording (issue 30): both parties from the answer on, stored in parts as it goes; see `recordRoom`.
  const recorded = await recordedCall(input.callId);
  let recorder: RoomRecorder | null = null;
  const resampler = recorded ? new AudioResampler(SPEAK_RATE, LISTEN_RATE, 1) : null;
  const startRecording = () => {
    if (!recorded || recorder) return;
    const call = { callId: input.callId, orgId: recorded.orgId, recordingId: recordingIdOf(input.callId) };
    recorder = new RoomRecorder({
      sampleRate: LISTEN_RATE,
      sink: (part) => storeRoomPart(call, part, session),
      onError: (err) => logger.warn('voice room: a recording part was lost', { ...log, error: err.message }),
    });
  };
  speaker.onFrame = (frame) => {
    if (recorder) for (const out of resampler!.push(frame)) recorder.assistant(out.data);
  };
  speaker.onInterrupt = () => {
    streaming.mute();
    recorder?.cutAssistant();
  };
  const tokens = relayTokenServer();
  /** Registers the token channel where the LLM activity finds it (this attendance's, replacing any earlier). */
  const openTokenChannel = async () => {
    // Lines said on the API's behalf (issue 31) come at a pause (or with `interrupt`, at once): spoken as they come.
    const sink = { token: (text: string) => streaming.token(text), say: (text: string) => void speaker.say(text) };
    const channel = await tokens.register(input.callId, sink).catch((err: Error) => {
      logger.warn('voice room: token channel unavailable; answers are spoken whole', { ...log, error: err.message });
      return null;
    });
    if (channel)
      await RelaySession.replaceOne(
        { _id: input.callId },
        {
          provider_call_sid: `room:${input.room.name}`,
          created_ms: Date.now(),
          stream_url: channel.url,
          stream_token: sealSecret(channel.token),
        },
        { upsert: true },
      );
  };

  const turns = voiceTurns(handle, input.callId, {
    hold: (line) => !streaming.started && (void speaker.say(line, false), true),
    speak: async (result: CallerSaidResult) => {
      if (streaming.started) streaming.end();
      else if (result.text) void speaker.say(result.text);
      await speaker.idle();
      if (!result.ended) return false;
      // The assistant said goodbye: the call is over once it is heard; then the room is closed.
      await new Promise((r) => setTimeout(r, GOODBYE_TAIL_MS));
      await status('completed');
      finish('call_over');
      return true;
    },
    end: () => finish('call_over'),
  });

  // The visitor: present (the call is answered), audio (heard), gone (hung up). A retried attendance learns
  // whether an earlier one already answered: then the call is in progress and the visitor was greeted, so it
  // neither signals nor greets again. (A signal now would also schedule the call's first workflow task since
  // the crash, and while the dead worker was polling less than 10 s ago the server still sends it to that
  // worker's sticky queue.) The last heartbeat says so, but the SDK sends heartbeats at most every 0.8 ×
  // the heartbeat timeout (8 s), so the call document (`answered_ms`, written as the workflow took the
  // signal) is asked too.
  const before = (info.heartbeatDetails ?? {}) as Partial<AttendRoomProgress>;
  let answered = before.answered === true || (info.attempt > 1 && (await wasAnswered(input.callId)));
  if (answered) startRecording(); // a retried attendance records from now: the parts join the earlier ones'
  // The greeting waits until the visitor's client has subscribed to our track (audio sent before that is
  // lost to them), at most GREETING_WAIT_MS.
  const listenedTo = new Promise<void>((resolve) => {
    room.once(RoomEvent.LocalTrackSubscribed, () => resolve());
    setTimeout(resolve, GREETING_WAIT_MS).unref();
  });
  const visitorIn = () => {
    if (answered) return;
    answered = true;
    startRecording();
    void status('in-progress');
    if (input.firstMessage) void listenedTo.then(() => speaker.say(input.firstMessage!));
  };
  const isVisitor = (p: RemoteParticipant) => p.identity === input.room.participant;
  room.on(RoomEvent.ParticipantConnected, (p) => isVisitor(p) && visitorIn());
  room.on(RoomEvent.ParticipantDisconnected, (p) => {
    if (!isVisitor(p)) return;
    void status('completed').then(() => finish('visitor_left'));
  });
  room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _pub, p) => {
    if (!isVisitor(p) || track.kind !== TrackKind.KIND_AUDIO) return;
    visitorIn();
    void listen(track).catch((err: Error) =>
      logger.warn('voice room: listening failed', { ...log, error: err.message }),
    );
  });
  room.on(RoomEvent.Disconnected, (reason: DisconnectReason) => {
    if (reason === DisconnectReason.CLIENT_INITIATED) return; // we left
    if (reason === DisconnectReason.DUPLICATE_IDENTITY) return finish('replaced');
    if (reason === DisconnectReason.ROOM_DELETED || reason === DisconnectReason.ROOM_CLOSED) return finish('call_over');
    fail(new Error(`disconnected from the room (${DisconnectReason[reason] ?? reason})`)); // retried: join again
  });

  /** Turns the visitor's audio into utterances, transcribed and handed over in the order they were said. */
  let transcribing = Promise.resolve();
  const listen = async (track: RemoteTrack) => {
    const endpointer = new Endpointer({ sampleRate: LISTEN_RATE, silenceMs: cfg.voiceEndOfTurnMs });
    let lastFrameMs = Date.now();
    const take = (events: ReturnType<Endpointer['push']>) => {
      for (const e of events) {
        if (e.type === 'speech_start') {
          const spoken = speaker.bargeIn();
          if (spoken !== null) turns.interrupt({ spoken });
        } else
          transcribing = transcribing.then(async () => {
            const text = await transcribe(e.pcm, language, log);
            if (text) turns.hear(text, `${session}:${++utterances}`);
          });
      }
    };
    // A stream that stalls mid-utterance (the visitor muted, the network dropped) ends the utterance.
    const stall = setInterval(() => {
      if (endpointer.speaking && Date.now() - lastFrameMs >= cfg.voiceEndOfTurnMs) take(endpointer.flush());
    }, 100);
    try {
      for await (const frame of new AudioStream(track, { sampleRate: LISTEN_RATE, numChannels: 1 })) {
        lastFrameMs = Date.now();
        recorder?.visitor(frame.data);
        take(endpointer.push(frame.data));
      }
      take(endpointer.flush());
    } finally {
      clearInterval(stall);
    }
  };

  let callOver = false;
  const heartbeat = setInterval(() => ctx.heartbeat({ answered, utterances } satisfies AttendRoomProgress), 1000);
  try {
    await Promise.race([
      (async () => {
        await openTokenChannel();
        await room.connect(cfg.livekitUrl!, token, { autoSubscribe: true, dynacast: false });
        const options = new TrackPublishOptions();
        options.source = TrackSource.SOURCE_MICROPHONE;
        await room.localParticipant!.publishTrack(
          LocalAudioTrack.createAudioTrack('assistant', speaker.source),
          options,
        );
        for (const p of room.remoteParticipants.values()) if (isVisitor(p)) visitorIn();
        logger.info('voice room: joined', log);
      })(),
      done,
    ]);
    const result = await Promise.race([done, ctx.cancelled]);
    callOver = result.outcome !== 'replaced';
    return result;
  } catch (err) {
    // Cancelled by the call's end (or its workflow already closed): this attendance was the last.
    callOver = err instanceof CancelledFailure && (err.message === 'CANCELLED' || err.message === 'NOT_FOUND');
    throw err;
  } finally {
    clearInterval(heartbeat);
    await tokens.close();
    speaker.interrupt();
    await room.disconnect().catch(() => undefined);
    await speaker.source.close().catch(() => undefined);
    resampler?.close();
    if (recorder && recorded) await recordRoom(ctx.client, input.callId, recorded, recorder, callOver, log);
  }
}

/**
 * Ends an attendance's recording: its last part is stored, and when the call is over (not when another
 * attendance takes over, nor when this one fails and is retried) the call's `recordingWorkflow` is
 * started (once per call), which joins every attendance's parts into the recording from the answer to
 * the end (src/activities/recordings.ts `storeRecording`). An attendance that never ends itself (its
 * worker died and the call ended before a retry joined) starts none: its parts stay unjoined.
 */
async function recordRoom(
  temporal: Context['client'],
  callId: string,
  tenant: { orgId: string; livemode: boolean },
  recorder: RoomRecorder,
  callOver: boolean,
  log: Record<string, unknown>,
): Promise<void> {
  try {
    await recorder.close();
    if (callOver) await startRecordingWorkflow(temporal, { callId, ...tenant, source: { kind: 'room' } });
  } catch (err) {
    logger.warn('voice room: the recording could not be finished', { ...log, error: (err as Error).message });
  }
}

/**
 * The assistant's voice: text to speech into the room's track, one text at a time in the order given;
 * `interrupt` stops what is being said and drops what waits.
 */
class Speaker {
  private queue = Promise.resolve();
  private generation = 0;
  /** The transcript's texts queued and not yet heard or dropped (the holding line is not counted). */
  private pending = 0;
  /** The transcript's texts heard whole since the visitor last started talking (what a barge-in reports). */
  private heard: string[] = [];
  private abort: AbortController | null = null;
  /** Called when the visitor talks over the assistant. */
  onInterrupt: () => void = () => undefined;
  /** Called with every frame that goes into the track (the recording). */
  onFrame: (frame: AudioFrame) => void = () => undefined;

  constructor(readonly source: AudioSource) {}

  /** Resolves once everything said so far is heard (or interrupted). */
  idle(): Promise<void> {
    return this.queue;
  }

  /**
   * Says `text` after what is already queued; resolves once it is heard (or interrupted).
   * @param spoken false for a line that is not the transcript's (the holding line): a barge-in does not count it
   */
  say(text: string, spoken = true): Promise<void> {
    const generation = this.generation;
    if (spoken) this.pending++;
    this.queue = this.queue.then(async () => {
      try {
        if (generation !== this.generation) return;
        await this.speak(text, generation);
        if (spoken && generation === this.generation) this.heard.push(text);
      } finally {
        if (spoken) this.pending--;
      }
    });
    return this.queue;
  }

  /**
   * The visitor started talking: stops speaking (`interrupt`).
   * @returns what was heard whole of what was being said (texts joined by a space), or null when none
   *   of the transcript's texts was cut (the assistant was silent, or said only the holding line)
   */
  bargeIn(): string | null {
    const cut = this.pending > 0 ? this.heard.join(' ') : null;
    this.heard = [];
    this.interrupt();
    return cut;
  }

  /** Stops speaking now: the track's queued audio is dropped and so is every text waiting. */
  interrupt(): void {
    this.onInterrupt();
    this.generation++;
    this.abort?.abort();
    this.source.clearQueue();
  }

  private async speak(text: string, generation: number): Promise<void> {
    const cfg = config();
    const abort = (this.abort = new AbortController());
    // Synthesis latency: until the first audio of the sentence (what the visitor waits for).
    const timer = speechDuration.startTimer({ operation: 'synthesis', model: cfg.voiceTtsModel });
    let timed = false;
    try {
      const res = await openai().audio.speech.create(
        { model: cfg.voiceTtsModel, voice: cfg.voiceTtsVoice, input: text, response_format: 'pcm' },
        { signal: abort.signal },
      );
      let carry = Buffer.alloc(0);
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!timed) timer({ outcome: 'ok' });
        timed = true;
        if (generation !== this.generation) return;
        carry = Buffer.concat([carry, chunk]);
        const whole = carry.length - (carry.length % (SPEAK_FRAME * 2));
        for (let at = 0; at < whole; at += SPEAK_FRAME * 2) await this.frame(carry.subarray(at, at + SPEAK_FRAME * 2));
        carry = carry.subarray(whole);
      }
      if (carry.length >= 2) await this.frame(carry.subarray(0, carry.length - (carry.length % 2)));
      if (generation === this.generation) await this.source.waitForPlayout();
    } catch (err) {
      if (!timed && generation === this.generation) timer({ outcome: 'error' });
      if (generation === this.generation)
        logger.warn('voice room: speech failed', { error: (err as Error).message, chars: text.length });
    } finally {
      if (this.abort === abort) this.abort = null;
    }
  }

  /** One frame of 16-bit little-endian PCM into the track (waits while the track's queue is full). */
  private async frame(bytes: Buffer): Promise<void> {
    const samples = new Int16Array(bytes.length / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2);
    const frame = new AudioFrame(samples, SPEAK_RATE, 1, samples.length);
    this.onFrame(frame);
    await this.source.captureFrame(frame);
  }
}

/**
 * The streamed words of one answer, cut into sentences (at `.`, `!`, `?` or a line break followed by
 * space) so each is spoken as soon as it is complete: text-to-speech of a whole sentence sounds natural,
 * and the first one is heard long before the model has finished. `end` speaks the rest; `mute` drops the
 * answer's words still to come (the visitor talked over it).
 */
class SentenceStream {
  private pending = '';
  private muted = false;
  /** True once a word of the current answer arrived. */
  started = false;

  constructor(private readonly sentence: (text: string) => void) {}

  /** A word (or a few) of the answer being written (`TokenSink`). */
  token(text: string): void {
    this.started = true;
    if (this.muted) return;
    this.pending += text;
    let m: RegExpExecArray | null;
    while ((m = /^([\s\S]*?(?:[.!?]|\n))\s+/.exec(this.pending))) {
      const said = m[1].trim();
      this.pending = this.pending.slice(m[0].length);
      if (said) this.sentence(said);
    }
  }

  /** The answer is complete: says what is left of it, and gets ready for the next. */
  end(): void {
    const rest = this.pending.trim();
    if (rest && !this.muted) this.sentence(rest);
    this.pending = '';
    this.started = false;
    this.muted = false;
  }

  mute(): void {
    if (this.started) this.muted = true;
    this.pending = '';
  }
}

/**
 * The text of one utterance (`openai.audio.transcriptions`, a WAV file, in `language` when known: ISO
 * 639-1), trimmed; '' for none.
 * Tried `STT_TRIES` times; an utterance that cannot be transcribed is logged and dropped.
 */
async function transcribe(pcm: Int16Array, language: string | null, log: Record<string, unknown>): Promise<string> {
  const file = await toFile(wavFile(pcm, LISTEN_RATE), 'utterance.wav', { type: 'audio/wav' });
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
