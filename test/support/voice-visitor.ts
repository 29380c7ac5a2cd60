/**
 * A scripted visitor in a LiveKit voice room, with the same SDK a server-side participant uses
 * (`@livekit/rtc-node`): it joins with the token `POST /v1/widget/voice` answered, publishes a microphone
 * track that carries silence in real time (as an open microphone does) or a tone while it "says"
 * something (`say`), and listens to the assistant's track, cutting what it hears into segments (audio
 * louder than silence, separated by 250 ms pauses) with their length and pitch.
 */
import {
  AudioFrame,
  AudioSource,
  AudioStream,
  DisconnectReason,
  LocalAudioTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
} from '@livekit/rtc-node';
import { ROOM_ASSISTANT_IDENTITY } from '../../src/shared/calls';
import { pitchHz, tone } from './fake-audio';

const RATE = 16_000;
const FRAME = RATE / 100; // 10 ms

export interface HeardSegment {
  startMs: number;
  durationMs: number;
  hz: number;
}

export class Visitor {
  /** What the visitor heard from the assistant, in order (finished segments). */
  readonly heard: HeardSegment[] = [];
  /** Audio tracks of the assistant the visitor subscribed to (one per time the assistant joined). */
  assistantTracks = 0;
  /** Why the room disconnected the visitor, once it has. */
  disconnected: DisconnectReason | null = null;
  private readonly room = new Room();
  private readonly source = new AudioSource(RATE, 1, 200);
  private speech: Int16Array | null = null;
  private open = true;
  private pumping: Promise<void> = Promise.resolve();

  /** Joins the room at `url` with `token` and starts the microphone. */
  static async join(url: string, token: string): Promise<Visitor> {
    const v = new Visitor();
    v.room.on(RoomEvent.Disconnected, (reason) => (v.disconnected = reason));
    v.room.on(RoomEvent.TrackSubscribed, (track, _pub, p) => {
      if (p.identity !== ROOM_ASSISTANT_IDENTITY || track.kind !== TrackKind.KIND_AUDIO) return;
      v.assistantTracks++;
      void v.listen(track);
    });
    await v.room.connect(url, token, { autoSubscribe: true, dynacast: false });
    const options = new TrackPublishOptions();
    options.source = TrackSource.SOURCE_MICROPHONE;
    await v.room.localParticipant!.publishTrack(LocalAudioTrack.createAudioTrack('microphone', v.source), options);
    v.pumping = v.pump();
    return v;
  }

  /** Says a tone of `hz` for `ms`; resolves once it has been sent (the microphone goes back to silence). */
  async say(hz: number, ms: number): Promise<void> {
    const samples = tone(hz, ms, RATE);
    this.speech = samples;
    while (this.speech === samples && this.open) await new Promise((r) => setTimeout(r, 10));
  }

  /** Resolves once the visitor has heard `count` segments in all (rejects after `timeoutMs`). */
  async heardAtLeast(count: number, timeoutMs = 20_000): Promise<HeardSegment[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.heard.length < count) {
      if (Date.now() > deadline)
        throw new Error(
          `heard ${this.heard.length} segments of the assistant, not ${count}: ${JSON.stringify(this.heard)}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.heard.slice();
  }

  /** Leaves the room (hangs up). */
  async leave(): Promise<void> {
    this.open = false;
    await this.pumping;
    await this.room.disconnect();
    await this.source.close();
  }

  /** The microphone: a 10 ms frame at a time, paced by the source's queue (real time). */
  private async pump(): Promise<void> {
    let at = 0;
    while (this.open && !this.disconnected) {
      const frame = new Int16Array(FRAME);
      if (this.speech) {
        frame.set(this.speech.subarray(at, at + FRAME));
        at += FRAME;
        if (at >= this.speech.length) ((this.speech = null), (at = 0));
      }
      await this.source.captureFrame(new AudioFrame(frame, RATE, 1, FRAME));
    }
  }

  /** Cuts the assistant's audio into segments. */
  private async listen(track: ConstructorParameters<typeof AudioStream>[0]): Promise<void> {
    let current: { startMs: number; samples: Int16Array[]; quietMs: number } | null = null;
    const close = () => {
      if (!current) return;
      const all = new Int16Array(current.samples.reduce((n, s) => n + s.length, 0));
      let o = 0;
      for (const s of current.samples) all.set(s, (o += s.length) - s.length);
      const durationMs = Math.round((all.length / RATE) * 1000 - current.quietMs);
      this.heard.push({ startMs: current.startMs, durationMs, hz: pitchHz(all, RATE) });
      current = null;
    };
    for await (const frame of new AudioStream(track, { sampleRate: RATE, numChannels: 1 })) {
      let sum = 0;
      for (const s of frame.data) sum += s * s;
      const loud = Math.sqrt(sum / Math.max(1, frame.data.length)) > 300;
      const ms = (frame.data.length / RATE) * 1000;
      if (!current) {
        if (loud) current = { startMs: Date.now(), samples: [frame.data.slice()], quietMs: 0 };
        continue;
      }
      current.samples.push(frame.data.slice());
      current.quietMs = loud ? 0 : current.quietMs + ms;
      if (current.quietMs >= 250) close();
      if (!this.open) break;
    }
    close(); // the track ended (the room closed) in the middle of a segment
  }
}
