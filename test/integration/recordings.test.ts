/**
 * Call recordings: a test-mode call's synthesized two-channel WAV, a live call's
 * recording copied from (fake) Twilio and deleted there, the signed link (Range, expiry, tampering),
 * DELETE, and retention enforced by the retention workflow with an injected clock.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { WaveFile } from 'wavefile';
import { config, setConfig, type Config } from '../../src/config';
import { Recording } from '../../src/models/recordings';
import { signedAudioLink } from '../../src/services/recordings';
import {
  RECORDING_RETENTION_SCHEDULE_ID,
  RECORDING_RETENTION_WORKFLOW,
  recordingWorkflowId,
  type RecordingRetentionWorkflow,
} from '../../src/shared/recordings';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { eventually } from '../support/webhooks';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const NOTICE = 'This call is recorded.';
const BIN = path.resolve(__dirname, '../../../bin/svcctl.js');

/** The tenant's events of `type` about `objectId`. */
async function eventsOf(key: string, type: string, objectId: string): Promise<any[]> {
  const list = await request('GET', '/v1/events?limit=100', { key });
  return list.body.data.filter((e: any) => e.type === type && e.data.object.id === objectId);
}

/** Waits for the call's recording and answers it (the recording object). */
async function recordingOf(key: string, callId: string): Promise<any> {
  return eventually(async () => {
    const res = await request('GET', `/v1/calls/${callId}/recording`, { key });
    return res.status === 200 ? res.body : null;
  }, `the recording of ${callId}`);
}

/** The WAV at a recording's link, parsed. */
async function fetchWav(url: string): Promise<{ wav: WaveFile; bytes: Buffer }> {
  const res = await fetch(url);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('audio/wav');
  expect(res.headers.get('accept-ranges')).to.equal('bytes');
  const bytes = Buffer.from(await res.arrayBuffer());
  const wav = new WaveFile(bytes);
  return { wav, bytes };
}

/** Duration of a parsed 16-bit PCM WAV, seconds. */
function durationS(wav: WaveFile): number {
  const fmt = wav.fmt as { numChannels: number; sampleRate: number };
  const data = wav.data as { chunkSize: number };
  return data.chunkSize / (fmt.numChannels * 2 * fmt.sampleRate);
}

describe('call recordings', function () {
  this.timeout(120_000);
  let saved: Config;
  let t: Tenant;

  before(async () => {
    saved = config();
    setConfig({ ...saved, publicBaseUrl: h().api.url });
    t = await newTenant({ first_message: 'Hello from the clinic.', recording: { enabled: true, notice: NOTICE } });
  });
  after(() => setConfig(saved));

  /** A recorded test-mode call with a few seconds of talk; answers the ended call. */
  async function recordedTestCall(body: Record<string, unknown> = {}) {
    const res = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        to: '+14155550123',
        agent_id: t.agentId,
        simulation: { caller: ['Hi there.', 'Thanks, bye.'], pause_seconds: 1 },
        ...body,
      },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return waitForCall(t.testKey, res.body.id);
  }

  it('records a test-mode call: the notice before the greeting, a playable two-channel WAV of its length', async () => {
    const call = await recordedTestCall();
    expect(call.recording).to.deep.equal({ enabled: true, notice: NOTICE });
    const turns = (await request('GET', `/v1/calls/${call.id}/transcript`, { key: t.testKey })).body.turns;
    // A California number (all-party consent): the notice is the announcement, after the AI disclosure.
    expect(turns.slice(0, 2).map((x: any) => [x.role, x.text])).to.deep.equal([
      ['assistant', `You're speaking with an automated assistant. ${NOTICE}`],
      ['assistant', 'Hello from the clinic.'],
    ]);
    expect(call.recording_consent).to.include({ mode: 'announce', jurisdiction: 'US-CA', words: NOTICE });
    const rec = await recordingOf(t.testKey, call.id);
    expect(rec).to.include({ object: 'recording', call_id: call.id, channels: 2, content_type: 'audio/wav' });
    expect(rec.id).to.match(/^rcd_/);
    expect(rec.url_expires_at - Math.floor(Date.now() / 1000)).to.be.within(590, 600);
    const callMs = (call.ended_at - call.answered_at) * 1000;
    expect(Math.abs(rec.duration_ms - callMs)).to.be.at.most(1000);
    const { wav } = await fetchWav(rec.url);
    const fmt = wav.fmt as { numChannels: number; bitsPerSample: number; audioFormat: number };
    expect(fmt).to.include({ numChannels: 2, bitsPerSample: 16, audioFormat: 1 });
    expect(Math.abs(durationS(wav) - rec.duration_ms / 1000)).to.be.lessThan(0.01);
    expect(Math.abs(durationS(wav) - call.duration_seconds)).to.be.at.most(1);
    // Each party speaks on its own channel: the caller's samples on channel 1, the assistant's on channel 2.
    const samples = wav.getSamples(false, Int16Array) as unknown as Int16Array[];
    expect(
      samples[0].some((s) => s !== 0),
      'the caller spoke',
    ).to.equal(true);
    expect(
      samples[1].some((s) => s !== 0),
      'the assistant spoke',
    ).to.equal(true);
    const ready = await eventually(async () => {
      const e = await eventsOf(t.testKey, 'recording.ready', rec.id);
      return e.length ? e : null;
    }, 'recording.ready');
    expect(ready).to.have.length(1);
    expect(ready[0].data.object).to.include({ id: rec.id, call_id: call.id, url: null });
  });

  it('serves Range requests and refuses expired, tampered or foreign links with 403 and no bytes', async () => {
    const call = await recordedTestCall();
    const rec = await recordingOf(t.testKey, call.id);
    const part = await fetch(rec.url, { headers: { Range: 'bytes=0-99' } });
    expect(part.status).to.equal(206);
    expect(part.headers.get('content-range')).to.equal(`bytes 0-99/${rec.size_bytes}`);
    expect(part.headers.get('accept-ranges')).to.equal('bytes');
    const head = Buffer.from(await part.arrayBuffer());
    expect(head.length).to.equal(100);
    expect(head.subarray(0, 4).toString('ascii')).to.equal('RIFF');
    const tail = await fetch(rec.url, { headers: { Range: 'bytes=-10' } });
    expect(tail.status).to.equal(206);
    expect(Buffer.from(await tail.arrayBuffer()).length).to.equal(10);
    const whole = Buffer.from(await (await fetch(rec.url)).arrayBuffer());
    const middle = await fetch(rec.url, { headers: { Range: 'bytes=1000-1499' } });
    expect(Buffer.from(await middle.arrayBuffer()).equals(whole.subarray(1000, 1500))).to.equal(true);
    const beyond = await fetch(rec.url, { headers: { Range: `bytes=${rec.size_bytes + 10}-` } });
    expect(beyond.status).to.equal(416);
    expect(beyond.headers.get('content-range')).to.equal(`bytes */${rec.size_bytes}`);
    // Each playback (a read from the first byte) is audited, the link as the actor; the
    // further ranges of one playback are not.
    const action = encodeURIComponent('GET /v1/recordings/{id}/audio');
    let reads: any[] = [];
    for (let i = 0; i < 50 && reads.length < 2; i++) {
      const res = await request('GET', `/v1/audit_events?object_id=${rec.id}&action=${action}`, { key: t.testKey });
      reads = res.body.data ?? [];
      if (reads.length < 2) await new Promise((r) => setTimeout(r, 100));
    }
    expect(reads.map((e: any) => e.outcome.status)).to.deep.equal([200, 206]);
    for (const e of reads) {
      expect(e.actor).to.deep.equal({ type: 'signed_link', id: rec.id });
      expect(e.object_ids).to.deep.equal([rec.id, call.id]);
    }

    const refused = async (url: string) => {
      const res = await fetch(url);
      expect(res.status, url).to.equal(403);
      expect(res.headers.get('content-type')).to.match(/json/);
      const body = (await res.json()) as any;
      expect(body.error.code).to.equal('recording_link_invalid');
    };
    const expired = signedAudioLink(rec.id, Date.now() - 11 * 60_000);
    await refused(expired.url);
    const u = new URL(rec.url);
    const sig = u.searchParams.get('signature')!;
    await refused(rec.url.replace(sig, (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)));
    await refused(rec.url.replace(`expires=${rec.url_expires_at}`, `expires=${rec.url_expires_at + 3600}`));
    const other = await recordingOf(t.testKey, (await recordedTestCall()).id);
    await refused(rec.url.replace(rec.id, other.id));
    await refused(`${h().api.url}/v1/recordings/${rec.id}/audio`);
    // The API key is no substitute for the signature, and GET needs one.
    expect((await request('GET', `/v1/calls/${call.id}/recording`)).status).to.equal(401);
  });

  it('records a call whose request asks for it, not one whose agent does not; DELETE removes it', async () => {
    const plain = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Plain', instructions: 'Be brief.' },
    });
    expect(plain.body.recording).to.equal(null);
    const unrecorded = await recordedTestCall({ agent_id: plain.body.id });
    expect(unrecorded.recording).to.equal(null);
    const recorded = await recordedTestCall({ agent_id: plain.body.id, recording: { enabled: true } });
    const rec = await recordingOf(t.testKey, recorded.id);
    expect((await request('GET', `/v1/calls/${unrecorded.id}/recording`, { key: t.testKey })).status).to.equal(404);
    const bad = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: '+14155550123', agent_id: plain.body.id, recording: { enabled: 'yes' } },
    });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.param).to.equal('recording.enabled');

    const del = await request('DELETE', `/v1/calls/${recorded.id}/recording`, { key: t.testKey });
    expect(del.status).to.equal(200);
    expect(del.body).to.deep.equal({ id: rec.id, object: 'recording', deleted: true });
    expect((await request('GET', `/v1/calls/${recorded.id}/recording`, { key: t.testKey })).status).to.equal(404);
    expect((await fetch(rec.url)).status).to.equal(403);
    expect((await request('DELETE', `/v1/calls/${recorded.id}/recording`, { key: t.testKey })).status).to.equal(404);
    const deleted = await eventsOf(t.testKey, 'recording.deleted', rec.id);
    expect(deleted).to.have.length(1);
    const doc = await Recording.findById(rec.id).lean();
    expect(doc?.deleted_ms).to.be.a('number');
  });

  it('deletes recordings past the organization retention (svcctl), with an injected clock', async () => {
    const call = await recordedTestCall();
    const rec = await recordingOf(t.testKey, call.id);
    const { stdout } = await promisify(execFile)(
      'node',
      [BIN, 'recordings', 'set-retention', '--org', t.orgId, '--days', '2'],
      { env: { ...process.env, MONGODB_URI: h().ferret.uri } },
    );
    expect(JSON.parse(stdout)).to.deep.equal({
      object: 'recording_retention',
      org: t.orgId,
      recording_retention_days: 2,
    });
    const bad = await promisify(execFile)(
      'node',
      [BIN, 'recordings', 'set-retention', '--org', t.orgId, '--days', '0'],
      {
        env: { ...process.env, MONGODB_URI: h().ferret.uri },
      },
    ).then(
      () => ({ code: 0 }),
      (e: { code: number }) => e,
    );
    expect(bad.code).to.equal(2);
    // The schedule exists (every worker creates it); its workflow is run here with tomorrow's and then a later clock.
    const schedule = await h().env.client.schedule.getHandle(RECORDING_RETENTION_SCHEDULE_ID).describe();
    expect(schedule.action).to.include({ workflowType: RECORDING_RETENTION_WORKFLOW });
    const run = (nowMs: number) =>
      h().env.client.workflow.execute<RecordingRetentionWorkflow>(RECORDING_RETENTION_WORKFLOW, {
        workflowId: `retention-test-${nowMs}`,
        taskQueue: h().taskQueue,
        args: [{ nowMs }],
      });
    await run(Date.now() + 86_400_000);
    expect((await request('GET', `/v1/calls/${call.id}/recording`, { key: t.testKey })).status).to.equal(200);
    const { deleted } = await run(Date.now() + 3 * 86_400_000);
    expect(deleted).to.be.at.least(1);
    expect((await request('GET', `/v1/calls/${call.id}/recording`, { key: t.testKey })).status).to.equal(404);
    expect((await fetch(rec.url)).status).to.equal(403);
    expect(await eventsOf(t.testKey, 'recording.deleted', rec.id)).to.have.length(1);
    await promisify(execFile)('node', [BIN, 'recordings', 'set-retention', '--org', t.orgId, '--days', 'none'], {
      env: { ...process.env, MONGODB_URI: h().ferret.uri },
    });
  });

  describe('live', () => {
    let fake: FakeTwilio;
    let agentId: string;
    before(async () => {
      fake = await startFakeTwilio();
      setConfig({
        ...config(),
        twilioAccountSid: fake.accountSid,
        twilioAuthToken: fake.authToken,
        twilioApiBaseUrl: fake.url,
      });
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: {
          name: 'Live',
          instructions: 'Be brief.',
          first_message: 'Hi, this is Live.',
          recording: { enabled: true, notice: NOTICE },
        },
      });
      agentId = agent.body.id;
    });
    after(async () => {
      setConfig({ ...config(), twilioAccountSid: undefined, twilioAuthToken: undefined, twilioApiBaseUrl: undefined });
      await fake.close();
    });

    /** Posts a Twilio callback, signed by the account it speaks of. */
    const twilioPost = (p: string, params: Record<string, string>) => postAsTwilio(fake, p, params);

    it("records through <Start><Recording>, copies Twilio's WAV into the store and deletes it there", async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agentId },
      });
      const id = res.body.id as string;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      expect((await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' })).status).to.equal(
        204,
      );
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const twiml = (await twilioPost(`/twilio/voice/${id}`, { CallSid: sid })).text;
      expect(twiml).to.include(
        `<Start><Recording channels="dual" recordingStatusCallback="${h().api.url}/twilio/recording/${id}" recordingStatusCallbackMethod="POST" recordingStatusCallbackEvent="completed"/></Start>`,
      );
      expect(twiml).to.include(
        `welcomeGreeting="You're speaking with an automated assistant. ${NOTICE} Hi, this is Live."`,
      );
      expect((await twilioPost(`/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' })).status).to.equal(
        204,
      );
      await waitForCall(t.liveKey, id);

      const wavOut = new WaveFile();
      const frames = 8000 * 3;
      const left = new Int16Array(frames).map((_, i) => Math.round(5000 * Math.sin(i / 5)));
      const right = new Int16Array(frames).map((_, i) => Math.round(3000 * Math.sin(i / 3)));
      wavOut.fromScratch(2, 8000, '16', [left, right]);
      const audio = Buffer.from(wavOut.toBuffer());
      const recordingSid = 'RE' + '0123456789abcdef'.repeat(2);
      fake.recordings.set(recordingSid, audio);

      const params = {
        CallSid: sid,
        RecordingSid: recordingSid,
        RecordingStatus: 'completed',
        RecordingDuration: '3',
        RecordingChannels: '2',
      };
      // Another call's CallSid, and an unknown call: ignored (nothing started, nothing fetched).
      expect(
        (await twilioPost(`/twilio/recording/${id}`, { ...params, CallSid: 'CA' + 'f'.repeat(32) })).status,
      ).to.equal(204);
      expect((await twilioPost(`/twilio/recording/call_00000000000000000000000000`, params)).status).to.equal(204);
      const handle = h().env.client.workflow.getHandle(recordingWorkflowId(id));
      await handle.describe().then(
        () => expect.fail('a foreign CallSid started a recording'),
        (err: Error) => expect(err.name).to.equal('WorkflowNotFoundError'),
      );
      // An unsigned callback: 403.
      const unsigned = await fetch(`${h().api.url}/twilio/recording/${id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      });
      expect(unsigned.status).to.equal(403);

      expect((await twilioPost(`/twilio/recording/${id}`, params)).status).to.equal(204);
      expect((await twilioPost(`/twilio/recording/${id}`, params)).status).to.equal(204); // Twilio retries: once
      const rec = await recordingOf(t.liveKey, id);
      expect(rec).to.include({ call_id: id, channels: 2, duration_ms: 3000, size_bytes: audio.length, livemode: true });
      const { bytes } = await fetchWav(rec.url);
      expect(bytes.equals(audio), 'the stored copy is the Twilio recording byte for byte').to.equal(true);
      await eventually(async () => fake.deletedRecordings.includes(recordingSid), "Twilio's copy deleted");
      expect(fake.recordings.has(recordingSid)).to.equal(false);
      const ready = await eventually(async () => {
        const e = await eventsOf(t.liveKey, 'recording.ready', rec.id);
        return e.length ? e : null;
      }, 'recording.ready');
      expect(ready).to.have.length(1);
      expect(fake.deletedRecordings.filter((s) => s === recordingSid)).to.have.length(1);
    });
  });
});
