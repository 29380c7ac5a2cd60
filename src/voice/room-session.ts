/**
 * The assistant's presence in a browser voice room for one attendance (`attendRoom`,
 * src/activities/voice-room.ts, which builds a `RoomSession` and runs it), as ConversationRelay is for a
 * phone call (src/api/twilio/relay.ts):
 *
 * - joins the room (`@livekit/rtc-node`, identity `assistant`, with the token the activity signed) and
 *   publishes one microphone track;
 * - tells the workflow when the visitor is in the room (`telephonyStatus` `in-progress`: the call is
 *   answered) and when they leave (`completed`: the caller hung up);
 * - listens to the visitor's audio (resampled to 16 kHz mono), cuts it into utterances
 *   (src/voice/endpointing.ts: a pause of `VOICE_END_OF_TURN_MS` ends one), transcribes each one and hands
 *   it to the workflow in order (src/voice/turns.ts: `callerSaid` updates, the holding line when an answer
 *   is late);
 * - speaks the first message and every answer (src/voice/room-speech.ts) in the agent's voice when the
 *   speech service has it (src/shared/speech.ts `roomVoice`), a sentence at a time as the model writes it:
 *   the session registers a token channel (src/voice/relay.ts, the call's `relay_sessions` record,
 *   replaced by a retried attendance) where the LLM activity streams the words, as it does to a phone
 *   call's ConversationRelay. The visitor talking over an answer stops it (barge-in), also while the
 *   model is still writing it, and the call is told what was heard of it (the sentences spoken whole),
 *   which its transcript and the model's history keep instead; the loop then goes on with what the
 *   visitor said. A line the API says with `interrupt` cuts the answer being spoken the same way;
 * - records the call when it is recorded (`RoomRecording`): from the visitor's arrival, what it hears on
 *   channel 1 and what it speaks on channel 2 (src/voice/room-recorder.ts), stored in parts as it goes;
 * - heartbeats every second (`AttendRoomProgress`). A retried attendance (its worker died) joins again
 *   under the same identity (LiveKit then drops the old connection if it is still there) and is not
 *   answered or greeted a second time when the last heartbeat or the call's `answered_ms` says it was
 *   already; an attendance replaced that way (`DUPLICATE_IDENTITY`) ends without error.
 *
 * `run` returns when the visitor leaves, the call is over (the assistant said goodbye, an update was
 * refused, the room was deleted) or another attendance took over; a cancellation leaves the room.
 *
 * Sources: https://docs.livekit.io/home/client/connect/ (rooms, identities, `DUPLICATE_IDENTITY`).
 */
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { CancelledFailure } from '@temporalio/common';
import {
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
import { logger } from '../logger';
import { Call, RelaySession } from '../models/calls';
import { sealSecret } from '../secrets';
import {
  telephonyStatusSignal,
  type AgentSnapshot,
  type CallerSaidResult,
  type TelephonyStatus,
  type VoiceRoom,
} from '../shared/calls';
import { roomVoice } from '../shared/speech';
import { Endpointer } from './endpointing';
import { relayTokenServer, type RelayTokenServer } from './relay';
import { RoomLatency } from './room-latency';
import { RoomRecorder, type RecordedPart } from './room-recorder';
import { SentenceStream, Speaker, SPEAK_RATE, type Synthesize } from './room-speech';
import { voiceTurns, type VoiceTurns } from './turns';

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

/**
 * After the goodbye's last frame left the track: how long before the call is reported over and the room
 * closed, so the audio still in flight (network, the visitor's jitter buffer) is heard, not cut.
 */
const GOODBYE_TAIL_MS = 500;
/** Longest wait for the visitor's client to subscribe to the assistant's track before the greeting (ms). */
const GREETING_WAIT_MS = 5_000;

/** Why an attendance left: the visitor left, the call is over, or another attendance took over. */
export type RoomOutcome = 'visitor_left' | 'call_over' | 'replaced';

/** The attendance's heartbeat details: what a retried attempt takes over (`Context.info.heartbeatDetails`). */
export interface AttendRoomProgress {
  /** The visitor was in the room: the call was answered (`in-progress` signalled) and greeted. */
  answered: boolean;
  /** Utterances this attempt heard (for operators: the Web UI shows the last heartbeat). */
  utterances: number;
}

/** A recorded call's recording as an attendance keeps it (src/activities/voice-room.ts builds it). */
export interface RoomRecording {
  /** The recording begins (the visitor is in the room): starts what joins the parts once the call ends. */
  begin(): Promise<void>;
  /** Stores one part (src/voice/room-recorder.ts). */
  store(part: RecordedPart): Promise<void>;
  /**
   * The attendance stored its last part. `ending`: `call` when the call ended in the room (the visitor
   * left, the goodbye was said, the room was deleted), so no part comes after this one; `run` when the
   * workflow cancelled it (the call's end, or its run continuing as new: another attendance may follow);
   * null when it was replaced or failed (a retry goes on).
   */
  end(ending: 'call' | 'run' | null): Promise<void>;
}

/** What a `RoomSession` works with: the call, the room, and the services the activity gives it. */
export interface RoomSessionOptions {
  callId: string;
  room: VoiceRoom;
  /** Said as soon as the visitor is in the room (null on a continued run). */
  firstMessage: string | null;
  /** LiveKit's URL and the assistant's token for the room. */
  url: string;
  token: string;
  /** This attendance (`<run>:<activity>:<attempt>`): the utterances' update ids are made from it. */
  session: string;
  /** The call was answered by an earlier attendance (its last heartbeat or the call's `answered_ms`). */
  answered: boolean;
  /** The call's workflow (no run id: the current run). */
  handle: WorkflowHandle;
  /** The pause that ends an utterance (ms). */
  endOfTurnMs: number;
  /** Sample rate of what is heard: endpointing, speech-to-text and the recording (Hz). */
  listenRate: number;
  /** Speech of the agent's voice (`voice` from `roomCallSettings`), and its model's name for metrics. */
  synthesize: Synthesize;
  speechModel: string;
  /** Text of one utterance (16-bit mono PCM at `listenRate`), '' for none. */
  transcribe: (pcm: Int16Array) => Promise<string>;
  /** The call's recording, null when it is not recorded. */
  recording: RoomRecording | null;
  /** Called every second with the attendance's progress (the activity's heartbeat). */
  heartbeat: (progress: AttendRoomProgress) => void;
  /** Rejects when the attendance is cancelled (the call's end). */
  cancelled: Promise<never>;
}

/** What a room call's session reads of the call: its voice, language and whether it is recorded. */
export interface RoomCallSettings {
  /** The primary subtag (ISO 639-1) of the agent's `language` (the transcription's); null: detected. */
  language: string | null;
  /** The speech service's voice: the agent's when it has it, else `fallbackVoice`. */
  voice: string;
  /** The call's tenant when it is recorded (`recording.enabled`, and consent does not keep it off), else null. */
  recorded: { orgId: string; livemode: boolean } | null;
  /** The call was answered (`answered_ms` set, src/workflows/calls.ts). */
  answered: boolean;
}

/** The settings of room call `callId` from its document; `fallbackVoice` is the worker's `VOICE_TTS_VOICE`. */
export async function roomCallSettings(callId: string, fallbackVoice: string): Promise<RoomCallSettings> {
  const call = await Call.findById(callId, {
    agent_json: 1,
    org_id: 1,
    livemode: 1,
    recording_json: 1,
    recording_consent_json: 1,
    answered_ms: 1,
  }).lean();
  const agent = JSON.parse(call?.agent_json ?? 'null') as AgentSnapshot | null;
  const primary = agent?.language?.split('-')[0].toLowerCase();
  const recording = JSON.parse(call?.recording_json ?? 'null') as { enabled?: boolean } | null;
  // A room records from the visitor's arrival: an `ask` call (consent not given yet) is not recorded.
  const consent = JSON.parse(call?.recording_consent_json ?? 'null') as { recording?: string } | null;
  return {
    language: primary && /^[a-z]{2}$/.test(primary) ? primary : null,
    voice: roomVoice(agent ?? {}, fallbackVoice),
    recorded:
      call && recording?.enabled && consent?.recording !== 'off'
        ? { orgId: call.org_id, livemode: call.livemode }
        : null,
    answered: call?.answered_ms != null,
  };
}

/** One attendance of a call's voice room (see the module's description). */
export class RoomSession {
  private readonly room = new Room();
  private readonly speaker: Speaker;
  private readonly streaming: SentenceStream;
  private readonly turns: VoiceTurns;
  private readonly tokens: RelayTokenServer = relayTokenServer();
  private readonly log: Record<string, unknown>;
  /** The answers' latency as the visitor hears them (src/voice/room-latency.ts). */
  private readonly latency: RoomLatency;
  private settle!: (outcome: RoomOutcome) => void;
  private fail!: (err: Error) => void;
  private readonly done: Promise<RoomOutcome>;
  private answered: boolean;
  private utterances = 0;
  private recorder: RoomRecorder | null = null;
  private resampler: AudioResampler | null = null;
  /** Utterances being transcribed, in the order they were said. */
  private transcribing = Promise.resolve();
  /** Resolves once the visitor's client subscribed to our track (or after `GREETING_WAIT_MS`). */
  private readonly listenedTo: Promise<void>;

  constructor(private readonly o: RoomSessionOptions) {
    this.log = { call_id: o.callId, room: o.room.name, session: o.session };
    this.answered = o.answered;
    this.latency = new RoomLatency(o.callId, this.log);
    this.done = new Promise<RoomOutcome>((resolve, reject) => ((this.settle = resolve), (this.fail = reject)));
    this.speaker = new Speaker(new AudioSource(SPEAK_RATE, 1, 1000), o.synthesize, o.speechModel);
    // The answer's words as the model writes them, spoken a sentence at a time; the update's answer ends it.
    this.streaming = new SentenceStream((sentence) => void this.speaker.say(sentence, true, this.latency.firstAudio));
    this.speaker.onFrame = (frame) => {
      if (this.recorder) for (const out of this.resampler!.push(frame)) this.recorder.assistant(out.data);
    };
    this.speaker.onInterrupt = () => {
      this.streaming.mute();
      this.recorder?.cutAssistant();
    };
    this.turns = voiceTurns(o.handle, o.callId, {
      hold: (line) => !this.streaming.started && (void this.speaker.say(line, false), true),
      speak: (result) => this.speak(result),
      end: () => this.finish('call_over'),
    });
    this.listenedTo = new Promise<void>((resolve) => {
      this.room.once(RoomEvent.LocalTrackSubscribed, () => resolve());
      setTimeout(resolve, GREETING_WAIT_MS).unref();
    });
    this.wireRoom();
  }

  /**
   * Attends the room until the call no longer needs it; always leaves the room and ends the recording.
   * @returns why it left
   * @throws the cancellation (the call's end), or an error that a retry may get past (the connection lost)
   */
  async run(): Promise<{ outcome: RoomOutcome; utterances: number }> {
    if (this.answered) this.startRecording(); // a retried attendance records from now: its parts join the earlier ones'
    const heartbeat = setInterval(
      () => this.o.heartbeat({ answered: this.answered, utterances: this.utterances }),
      1000,
    );
    let ending: 'call' | 'run' | null = null;
    try {
      await Promise.race([this.join(), this.done]);
      const outcome = await Promise.race([this.done, this.o.cancelled]);
      ending = outcome === 'replaced' ? null : 'call';
      return { outcome, utterances: this.utterances };
    } catch (err) {
      // Cancelled by the run's end (or its workflow already closed): no attendance of this run follows.
      const cancelled = err instanceof CancelledFailure && (err.message === 'CANCELLED' || err.message === 'NOT_FOUND');
      ending = cancelled ? 'run' : null;
      throw err;
    } finally {
      clearInterval(heartbeat);
      await this.leave(ending);
    }
  }

  /** Registers the token channel, joins the room, publishes the track, and sees who is there already. */
  private async join(): Promise<void> {
    await this.openTokenChannel();
    await this.room.connect(this.o.url, this.o.token, { autoSubscribe: true, dynacast: false });
    const options = new TrackPublishOptions();
    options.source = TrackSource.SOURCE_MICROPHONE;
    await this.room.localParticipant!.publishTrack(
      LocalAudioTrack.createAudioTrack('assistant', this.speaker.source),
      options,
    );
    for (const p of this.room.remoteParticipants.values()) if (this.isVisitor(p)) this.visitorIn();
    logger.info('voice room: joined', this.log);
  }

  /** Leaves the room, and ends this attendance's recording (see `RoomRecording.end`). */
  private async leave(ending: 'call' | 'run' | null): Promise<void> {
    await this.tokens.close();
    this.speaker.interrupt();
    await this.room.disconnect().catch(() => undefined);
    await this.speaker.source.close().catch(() => undefined);
    this.resampler?.close();
    if (!this.recorder || !this.o.recording) return;
    try {
      await this.recorder.close();
      await this.o.recording.end(ending);
    } catch (err) {
      logger.warn('voice room: the recording could not be finished', { ...this.log, error: (err as Error).message });
    }
  }

  /**
   * The visitor: present (the call is answered), audio (heard), gone (hung up); the room: lost, deleted,
   * or taken over by another attendance.
   */
  private wireRoom(): void {
    this.room.on(RoomEvent.ParticipantConnected, (p) => this.isVisitor(p) && this.visitorIn());
    this.room.on(RoomEvent.ParticipantDisconnected, (p) => {
      if (this.isVisitor(p)) void this.status('completed').then(() => this.finish('visitor_left'));
    });
    this.room.on(RoomEvent.TrackSubscribed, (track: RemoteTrack, _pub, p) => {
      if (!this.isVisitor(p) || track.kind !== TrackKind.KIND_AUDIO) return;
      this.visitorIn();
      void this.listen(track).catch((err: Error) =>
        logger.warn('voice room: listening failed', { ...this.log, error: err.message }),
      );
    });
    this.room.on(RoomEvent.Disconnected, (reason: DisconnectReason) => {
      if (reason === DisconnectReason.CLIENT_INITIATED) return; // we left
      if (reason === DisconnectReason.DUPLICATE_IDENTITY) return this.finish('replaced');
      if (reason === DisconnectReason.ROOM_DELETED || reason === DisconnectReason.ROOM_CLOSED)
        return this.finish('call_over');
      this.fail(new Error(`disconnected from the room (${DisconnectReason[reason] ?? reason})`)); // retried: join again
    });
  }

  private isVisitor(p: RemoteParticipant): boolean {
    return p.identity === this.o.room.participant;
  }

  /**
   * The visitor is in the room: the call is answered and greeted, once. The greeting waits until the
   * visitor's client has subscribed to our track (audio sent before that is lost to them).
   */
  private visitorIn(): void {
    if (this.answered) return;
    this.answered = true;
    this.startRecording();
    void this.status('in-progress');
    const greeting = this.o.firstMessage;
    if (greeting) void this.listenedTo.then(() => this.speaker.say(greeting));
  }

  /** Tells the workflow the line's status; a call that takes none is over. */
  private async status(status: TelephonyStatus['status']): Promise<void> {
    await this.o.handle.signal(telephonyStatusSignal, { status }).catch((err: Error) => {
      logger.info('voice room: the call took no status', { ...this.log, status, error: err.message });
      this.finish('call_over');
    });
  }

  private finish(outcome: RoomOutcome): void {
    this.settle(outcome);
  }

  /**
   * Says an update's answer (`VoiceOutput.speak`); resolves to true when the call is over. An answer
   * still late (`pending`) while its words are being streamed leaves the stream open: the final answer
   * ends it (ending it now would also undo a barge-in's mute, and the rest would be spoken over the visitor).
   */
  private async speak(result: CallerSaidResult): Promise<boolean> {
    if (result.pending && this.streaming.started) return false;
    this.latency.answer(result);
    // A pending result's text (the holding line, a tool's line while it runs) is not the answer's audio.
    const answer = result.pending ? undefined : this.latency.firstAudio;
    if (this.streaming.started) this.streaming.end();
    else if (result.text) void this.speaker.say(result.text, true, answer);
    await this.speaker.idle();
    this.latency.spoken(result);
    if (!result.ended) return false;
    // The assistant said goodbye: the call is over once it is heard (and its answers' latency stored); then
    // the room is closed.
    await Promise.all([this.latency.settled(), new Promise((r) => setTimeout(r, GOODBYE_TAIL_MS))]);
    await this.status('completed');
    this.finish('call_over');
    return true;
  }

  /**
   * The visitor started talking over the assistant: it stops, and the call is told what was heard of the
   * answer being given: also when no word of it is playing while the model is still writing it (its next
   * sentences are dropped, so the transcript must not keep them).
   */
  private bargeIn(): void {
    const spoken = this.speaker.bargeIn(this.streaming.started);
    if (spoken !== null) this.turns.interrupt({ spoken });
  }

  /** Registers the token channel where the LLM activity finds it (this attendance's, replacing any earlier). */
  private async openTokenChannel(): Promise<void> {
    // Lines said on the API's behalf come at a pause, or with `interrupt` at once, cutting what is said.
    const sink = {
      token: (text: string) => this.streaming.token(text),
      say: (text: string, interrupt: boolean) => {
        if (interrupt) this.speaker.interrupt();
        void this.speaker.say(text);
      },
    };
    const channel = await this.tokens.register(this.o.callId, sink).catch((err: Error) => {
      logger.warn('voice room: token channel unavailable; answers are spoken whole', {
        ...this.log,
        error: err.message,
      });
      return null;
    });
    if (!channel) return;
    await RelaySession.replaceOne(
      { _id: this.o.callId },
      {
        provider_call_sid: `room:${this.o.room.name}`,
        created_ms: Date.now(),
        stream_url: channel.url,
        stream_token: sealSecret(channel.token),
      },
      { upsert: true },
    );
  }

  /** The recording (a recorded call): both parties from the answer on, stored in parts as it goes. */
  private startRecording(): void {
    const recording = this.o.recording;
    if (!recording || this.recorder) return;
    this.resampler = new AudioResampler(SPEAK_RATE, this.o.listenRate, 1);
    this.recorder = new RoomRecorder({
      sampleRate: this.o.listenRate,
      sink: (part) => recording.store(part),
      onError: (err) => logger.warn('voice room: a recording part was lost', { ...this.log, error: err.message }),
    });
    void recording
      .begin()
      .catch((err: Error) =>
        logger.warn('voice room: the recording could not begin', { ...this.log, error: err.message }),
      );
  }

  /** Turns the visitor's audio into utterances, transcribed and handed over in the order they were said. */
  private async listen(track: RemoteTrack): Promise<void> {
    const endpointer = new Endpointer({ sampleRate: this.o.listenRate, silenceMs: this.o.endOfTurnMs });
    let lastFrameMs = Date.now();
    // A stream that stalls mid-utterance (the visitor muted, the network dropped) ends the utterance.
    const stall = setInterval(() => {
      if (endpointer.speaking && Date.now() - lastFrameMs >= this.o.endOfTurnMs)
        this.take(endpointer.flush(), lastFrameMs);
    }, 100);
    try {
      for await (const frame of new AudioStream(track, { sampleRate: this.o.listenRate, numChannels: 1 })) {
        lastFrameMs = Date.now();
        this.recorder?.visitor(frame.data);
        this.take(endpointer.push(frame.data), lastFrameMs);
      }
      this.take(endpointer.flush(), lastFrameMs);
    } finally {
      clearInterval(stall);
    }
  }

  /**
   * What the endpointer found: the visitor started talking (a barge-in), or an utterance to transcribe.
   * @param fedMs when the last audio fed to it came (ms since the epoch): an utterance's speech ended its
   *   `silentMs` before
   */
  private take(events: ReturnType<Endpointer['push']>, fedMs: number): void {
    for (const e of events) {
      if (e.type === 'speech_start') {
        this.bargeIn();
        continue;
      }
      // One utterance that fails is lost, never the ones after it.
      this.transcribing = this.transcribing
        .then(async () => {
          const text = await this.o.transcribe(e.pcm);
          if (!text) return;
          this.latency.heard(fedMs - e.silentMs, Date.now());
          this.turns.hear(text, `${this.o.session}:${++this.utterances}`);
        })
        .catch(
          (err: Error) => void logger.warn('voice room: an utterance was lost', { ...this.log, error: err.message }),
        );
    }
  }
}
