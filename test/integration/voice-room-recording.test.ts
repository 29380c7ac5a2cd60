/**
 * Recordings of browser voice rooms against a real LiveKit server: a recorded agent's
 * widget voice call, attended by the assistant (`attendRoom`), with a scripted visitor
 * (test/support/voice-visitor.ts) saying a 440 Hz tone and the fake speech answering in an 880 Hz tone;
 * the call's recording is a two-channel WAV of the call's length, the visitor's tone on channel 1, the
 * assistant's speech on channel 2, announced once by `recording.ready`, its parts removed once joined.
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import { Call } from '../../src/models/calls';
import { recordingBucket, recordingIdOf } from '../../src/models/recordings';
import { roomPartFilename } from '../../src/services/recordings';
import { recordingWorkflowId } from '../../src/shared/recordings';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { eventually, sleep } from '../support/conversations';
import { pitchHz } from '../support/fake-audio';
import { Visitor } from '../support/voice-visitor';
import { startTestLiveKit, type TestLiveKit } from '../support/livekit';

const NOTICE = 'This call is recorded.';
const FIRST_MESSAGE = 'Hi, this is the assistant.';

/** How long `samples` (one channel) is louder than silence, in 10 ms windows (ms). */
function loudMs(samples: Int16Array, rate: number): number {
  const window = rate / 100;
  let windows = 0;
  for (let at = 0; at + window <= samples.length; at += window) {
    let sum = 0;
    for (let i = at; i < at + window; i++) sum += samples[i] * samples[i];
    if (Math.sqrt(sum / window) > 300) windows++;
  }
  return windows * 10;
}

/**
 * With RECORD_HISTORIES=1: writes the workflow's history to test/replay/histories/<name>.json, which the
 * replay tests replay against every later version.
 */
async function keepHistory(workflowId: string, name: string): Promise<void> {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const handle = h().env.client.workflow.getHandle(workflowId);
  await handle.result();
  const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
  const file = path.resolve(__dirname, '../../../test/replay/histories', `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
}

describe('widget voice room recordings (real LiveKit server)', function () {
  this.timeout(600_000);
  let livekit: TestLiveKit;
  let pk: string;
  let testKey: string;
  const visitors: Visitor[] = [];
  let saved: ReturnType<typeof config>;

  before(async () => {
    saved = config();
    setConfig({ ...saved, publicBaseUrl: h().api.url }); // the signed links point at the test's API
    livekit = await startTestLiveKit();
    const t = await newTenant({ first_message: FIRST_MESSAGE, recording: { enabled: true, notice: NOTICE } });
    testKey = t.testKey;
    pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
  });

  after(async () => {
    for (const v of visitors) await v.leave().catch(() => undefined);
    await livekit?.stop();
    setConfig(saved);
  });

  /**
   * A voice call served by the worker process polling `taskQueue`: the visitor (`visitorId`) joins, hears
   * the greeting, says `phrase` (a 600 Hz tone of 800 ms) and hears the answer, and the attendance has
   * stored a part of the recording (10 s of audio older than 2 s) before the test goes on, e.g. to kill the
   * worker. Returns the call's id, the visitor and a reader of the call's stored parts.
   */
  async function callWithStoredPart(taskQueue: string, visitorId: string, phrase: string) {
    const current = config();
    setConfig({ ...current, taskQueue });
    const { callId, url, token } = await voiceCall(visitorId).finally(() => setConfig(current));
    const visitor = await Visitor.join(url, token);
    visitors.push(visitor);
    await waitForCall(testKey, callId, (c) => c.status === 'in_progress');
    await visitor.heardAtLeast(1);
    h().llm.audio.phrases.set(600, phrase);
    await visitor.say(600, 800);
    await visitor.heardAtLeast(2);
    const parts = () =>
      recordingBucket()
        .find({ filename: roomPartFilename(recordingIdOf(callId)) })
        .toArray();
    await eventually(async () => ((await parts()).length > 0 ? true : null), 'a stored part', 20_000);
    return { callId, visitor, parts };
  }

  /** A widget session's voice call (the call's id, the room's url and token). */
  async function voiceCall(visitorId: string): Promise<{ callId: string; url: string; token: string }> {
    const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: visitorId } });
    expect(session.status, JSON.stringify(session.body)).to.equal(200);
    const voice = await request('POST', '/v1/widget/voice', { key: session.body.token });
    expect(voice.status, JSON.stringify(voice.body)).to.equal(200);
    expect(voice.body.call.recording).to.deep.equal({ enabled: true, notice: NOTICE });
    return { callId: voice.body.call_id, url: voice.body.url, token: voice.body.token };
  }

  /** The ended call's recording: the object, the WAV's two channels, and the call's length (ms). */
  async function recordingOf(callId: string) {
    const rec = await eventually(
      async () => {
        const res = await request('GET', `/v1/calls/${callId}/recording`, { key: testKey });
        return res.status === 200 ? res.body : null;
      },
      'the room recording',
      60_000,
    );
    const call = (await Call.findById(callId).lean())!;
    const callMs = call.ended_ms! - call.answered_ms!;
    const res = await fetch(rec.url);
    expect(res.status).to.equal(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).to.equal(rec.size_bytes);
    const wav = new WaveFile(bytes);
    const fmt = wav.fmt as { numChannels: number; sampleRate: number; bitsPerSample: number };
    expect(fmt).to.include({ numChannels: 2, sampleRate: 16_000, bitsPerSample: 16 });
    const [left, right] = wav.getSamples(false, Int16Array) as unknown as Int16Array[];
    expect(Math.abs((left.length / fmt.sampleRate) * 1000 - callMs)).to.be.at.most(1_000);
    return { rec, call, callMs, bytes, left, right, rate: fmt.sampleRate };
  }

  it('records the visitor on channel 1 and the assistant on channel 2, for the length of the call; recording.ready once', async () => {
    const { callId, url, token } = await voiceCall(`rec-${Date.now()}`);
    const visitor = await Visitor.join(url, token);
    visitors.push(visitor);
    await waitForCall(testKey, callId, (c) => c.status === 'in_progress');
    await visitor.heardAtLeast(1); // the notice and the greeting
    // The opening the room speaks: the AI disclosure (on by default), then the notice and the first message.
    expect(
      h()
        .llm.audio.speeches.map((s) => s.input)
        .some((said) => said.endsWith(`${NOTICE} ${FIRST_MESSAGE}`)),
    ).to.be.true;
    h().llm.audio.phrases.set(440, 'Please record this');
    await visitor.say(440, 1_000);
    await visitor.heardAtLeast(2); // the answer
    await sleep(500);
    await visitor.leave();
    expect(await waitForCall(testKey, callId)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });

    const { rec, call, callMs, bytes, left, right, rate } = await recordingOf(callId);
    const fmt = { sampleRate: rate };
    expect(rec).to.include({ object: 'recording', id: recordingIdOf(callId), call_id: callId, channels: 2 });
    expect(rec.content_type).to.equal('audio/wav');
    expect(rec.duration_ms).to.equal(callMs);
    console.log(
      `      room recording: ${(left.length / fmt.sampleRate).toFixed(2)} s for a call of ${callMs} ms, ` +
        `${(bytes.length / 1e6).toFixed(2)} MB`,
    );

    // Channel 1: the visitor's tone (about its second), nothing of the assistant's.
    const visitorMs = loudMs(left, fmt.sampleRate);
    expect(visitorMs).to.be.within(800, 1_300);
    expect(pitchHz(left, fmt.sampleRate)).to.be.within(410, 470);
    // Channel 2: the assistant's speech (the fake's 880 Hz, 25 ms a character of what it said).
    const assistantMs = loudMs(right, fmt.sampleRate);
    const spokenMs = h()
      .llm.audio.speeches.filter((s) => s.atMs >= call.answered_ms! - 1_000 && s.atMs <= call.ended_ms!)
      .reduce((ms, s) => ms + Math.min(h().llm.audio.maxSpeechMs, 25 * s.input.length), 0);
    expect(assistantMs).to.be.within(spokenMs * 0.8, spokenMs + 300);
    expect(pitchHz(right, fmt.sampleRate)).to.be.within(840, 920);
    // In time: the visitor spoke after the greeting and before the answer.
    const firstLoud = (samples: Int16Array, from = 0) => {
      for (let at = from; at + 160 <= samples.length; at += 160) if (Math.abs(samples[at + 40]) > 1_000) return at;
      return -1;
    };
    const visitorAt = firstLoud(left);
    expect(firstLoud(right)).to.be.below(visitorAt);
    expect(firstLoud(right, visitorAt + fmt.sampleRate)).to.be.above(visitorAt + fmt.sampleRate);

    const ready = await eventually(async () => {
      const list = await request('GET', '/v1/events?limit=100', { key: testKey });
      const mine = list.body.data.filter((e: any) => e.type === 'recording.ready' && e.data.object.id === rec.id);
      return mine.length ? mine : null;
    }, 'recording.ready');
    await sleep(1_000);
    const list = await request('GET', '/v1/events?limit=100', { key: testKey });
    expect(
      list.body.data.filter((e: any) => e.type === 'recording.ready' && e.data.object.id === rec.id),
    ).to.have.length(1);
    expect(ready[0].data.object).to.include({ call_id: callId, channels: 2, url: null });
    // The parts the attendance stored are gone once joined.
    expect(
      await recordingBucket()
        .find({ filename: roomPartFilename(rec.id) })
        .toArray(),
    ).to.have.length(0);
    await keepHistory(recordingWorkflowId(callId), 'recording-room');
  });

  it('the worker holding the room dies mid-call: the recording keeps what was stored before and covers the whole call', async () => {
    const taskQueue = `voice-rec-crash-${Date.now()}`;
    let first: ChildProcess | undefined = await startWorkerProcess(taskQueue, livekit.env);
    let second: ChildProcess | undefined;
    try {
      const { callId, visitor, parts } = await callWithStoredPart(
        taskQueue,
        `rec-crash-${Date.now()}`,
        'Recorded before the crash',
      );
      await stopWorkerProcess(first, 'SIGKILL');
      first = undefined;
      second = await startWorkerProcess(taskQueue, livekit.env);
      await eventually(async () => (visitor.assistantTracks >= 2 ? true : null), 'the assistant back', 40_000);
      h().llm.audio.phrases.set(760, 'Recorded after the crash');
      await visitor.say(760, 800);
      await eventually(
        async () => h().llm.audio.speeches.some((x) => x.input === 'You said: Recorded after the crash'),
        'the answer',
      );
      await sleep(1_500);
      await visitor.leave();
      expect(await waitForCall(testKey, callId)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });

      const { callMs, left, rate } = await recordingOf(callId);
      // Channel 1 holds both of the visitor's tones (600 and 760 Hz, ±50), each at its time: the
      // first from the dead worker's part.
      const cut = Math.floor(left.length / 2);
      const beforeMs = loudMs(left.subarray(0, cut), rate);
      const afterMs = loudMs(left.subarray(cut), rate);
      expect(pitchHz(left.subarray(0, cut), rate)).to.be.within(550, 650);
      expect(pitchHz(left.subarray(cut), rate)).to.be.within(710, 810);
      expect(beforeMs).to.be.within(600, 1_200);
      expect(afterMs).to.be.within(600, 1_200);
      console.log(
        `      room recording across a worker crash: ${(left.length / rate).toFixed(2)} s for a call of ${callMs} ms; ` +
          `the visitor heard on channel 1 for ${beforeMs} ms before, ${afterMs} ms after`,
      );
      expect(await parts()).to.have.length(0);
    } finally {
      await stopWorkerProcess(first, 'SIGKILL');
      await stopWorkerProcess(second, 'SIGTERM');
    }
  });
  it('the call ends with no worker in the room (it died; the one that took over cannot join): the recording is still made and its parts removed', async () => {
    const taskQueue = `voice-rec-gone-${Date.now()}`;
    let first: ChildProcess | undefined = await startWorkerProcess(taskQueue, livekit.env);
    let second: ChildProcess | undefined;
    try {
      const { callId, visitor, parts } = await callWithStoredPart(
        taskQueue,
        `rec-gone-${Date.now()}`,
        'Recorded before the worker died',
      );
      // The worker dies and the visitor hangs up; the worker that takes over cannot join rooms (no LiveKit
      // configuration): the retried attendance fails and the call ends with no assistant in the room.
      await stopWorkerProcess(first, 'SIGKILL');
      first = undefined;
      await visitor.leave();
      second = await startWorkerProcess(taskQueue, { LIVEKIT_URL: '', LIVEKIT_API_KEY: '', LIVEKIT_API_SECRET: '' });
      expect(await waitForCall(testKey, callId)).to.include({ status: 'failed', end_reason: 'error' });

      const rec = await eventually(
        async () => {
          const res = await request('GET', `/v1/calls/${callId}/recording`, { key: testKey });
          return res.status === 200 ? res.body : null;
        },
        'the recording of a call that ended with no worker in the room',
        120_000,
      );
      const call = (await Call.findById(callId).lean())!;
      expect(rec.duration_ms).to.equal(call.ended_ms! - call.answered_ms!);
      const wav = new WaveFile(Buffer.from(await (await fetch(rec.url)).arrayBuffer()));
      const [left] = wav.getSamples(false, Int16Array) as unknown as Int16Array[];
      // The visitor's tone, from the part the dead worker's attendance stored.
      expect(pitchHz(left, 16_000)).to.be.within(550, 650);
      expect(loudMs(left, 16_000)).to.be.within(600, 1_200);
      await eventually(async () => ((await parts()).length === 0 ? true : null), 'the parts removed', 10_000);
    } finally {
      await stopWorkerProcess(first, 'SIGKILL');
      await stopWorkerProcess(second, 'SIGTERM');
    }
  });
});
