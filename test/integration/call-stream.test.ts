/**
 * A live call's stream and steering: `GET /v1/calls/{id}/stream` followed from
 * the call's start to its end through two API processes with forced disconnects and `Last-Event-ID`
 * resumes, compared with the final transcript; `POST /v1/calls/{id}/say` and `/context` reaching the
 * caller (the transcript; a live call's ConversationRelay socket, as Twilio's client simulator reads it)
 * and the model (the fake LLM's requests); 409 on an ended call, 400 for bad lines.
 */
import { expect } from 'chai';
import { config, setConfig, type Config } from '../../src/config';
import { noteMessage } from '../../src/shared/calls';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { postAsTwilio, startFakeTwilio, type FakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { relayClient } from '../support/relay-client';
import { speechMs } from '../../src/api/twilio/relay';
import { readStream, startApiProcess, type ApiProcess, type SseEvent } from '../support/widget';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A line long enough to be heard for seconds (the relay's estimate), so an interrupting line lands within it. */
const SHIPPED = 'Your order has shipped and will arrive on Tuesday, between nine in the morning and noon.';

/** The fake LLM's requests for call `id` (its `user` is the call id). */
const llmRequests = (id: string) => h().llm.requests.filter((r) => r.user === id && !r.response_format);

describe('live call stream and steering', function () {
  let t: Tenant;

  before(async () => {
    t = await newTenant({ first_message: 'Hi, this is the clinic.' });
  });

  describe('a test call', () => {
    let other: ApiProcess;
    before(async () => {
      other = await startApiProcess();
    });
    after(async () => {
      await other.stop();
    });

    it('streams the call from start to end across two API processes with forced disconnects, nothing missed or doubled; say and context reach the transcript and the model', async () => {
      const created = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: '+14155550123',
          agent_id: t.agentId,
          simulation: {
            caller: ['Hello there.', 'I need to move my appointment.', 'Thursday works.', 'Thanks, bye.'],
            pause_seconds: 1.5,
          },
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id: string = created.body.id;

      // The reader: cuts its connection after every 2 events and resumes on the other API process.
      const seen: SseEvent[] = [];
      let reads = 0;
      const reader = (async () => {
        const bases = [h().api.url, other.url];
        for (;;) {
          const last = seen.at(-1)?.id;
          const read = await readStream(`${bases[reads % 2]}/v1/calls/${id}/stream`, {
            headers: { Authorization: `Bearer ${t.testKey}`, ...(last ? { 'Last-Event-ID': last } : {}) },
            stop: (events) => events.length >= 2,
            timeoutMs: 30_000,
          });
          expect(read.status).to.equal(200);
          expect(read.headers.get('content-type')).to.match(/^text\/event-stream/);
          reads++;
          seen.push(...read.events);
          if (seen.at(-1)?.event === 'end') return;
        }
      })();

      await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
      const note = await request('POST', `/v1/calls/${id}/context`, {
        key: t.testKey,
        body: { note: 'The caller is a VIP.' },
        headers: { 'Idempotency-Key': `note-${id}` },
      });
      expect(note.status, JSON.stringify(note.body)).to.equal(200);
      expect(note.body).to.deep.equal({ object: 'call_note', call_id: id, note: 'The caller is a VIP.' });
      const said = await request('POST', `/v1/calls/${id}/say`, {
        key: t.testKey,
        body: { text: 'A colleague will call you back.' },
        headers: { 'Idempotency-Key': `say-${id}` },
      });
      expect(said.status, JSON.stringify(said.body)).to.equal(200);
      expect(said.body).to.include({ object: 'call_say', call_id: id, spoken: true, interrupt: false });
      // The same key again: the same answer, not a second line.
      const again = await request('POST', `/v1/calls/${id}/say`, {
        key: t.testKey,
        body: { text: 'A colleague will call you back.' },
        headers: { 'Idempotency-Key': `say-${id}` },
      });
      expect(again.body).to.deep.equal(said.body);

      // While live, the call shows its turns so far.
      const live = await waitForCall(t.testKey, id, (c) =>
        (c.turns ?? []).some((x: any) => x.author === 'api' && x.role === 'assistant'),
      );
      expect(live.status).to.equal('in_progress');
      // The AI disclosure (on by default) opens the call, then the greeting. (The note may come before them
      // in the turns: it is posted as soon as the call is in progress, which can be before they are stored.)
      const spoken = live.turns.filter((x: any) => x.role !== 'note');
      expect(spoken[0]).to.include({ role: 'assistant', text: "You're speaking with an automated assistant." });
      expect(spoken[1]).to.include({ role: 'assistant', text: 'Hi, this is the clinic.' });

      await waitForCall(t.testKey, id);
      await reader;
      const ended = (await request('GET', `/v1/calls/${id}`, { key: t.testKey })).body;
      expect(ended.status).to.equal('completed');
      expect(ended).not.to.have.property('turns');

      // Every event once, in order, ids 1..n.
      expect(reads, 'the stream was cut and resumed').to.be.at.least(4);
      expect(seen.map((e) => Number(e.id))).to.deep.equal(seen.map((_, i) => i + 1));
      const transcript = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey })).body.turns;
      const streamedTurns = seen
        .filter((e) => e.event === 'turn' || e.event === 'tool_call')
        .map((e) => JSON.parse(e.data));
      expect(streamedTurns.map(({ seq: _seq, ...turn }) => turn)).to.deep.equal(transcript);
      expect(streamedTurns.map((x) => x.seq)).to.deep.equal(transcript.map((_: unknown, i: number) => i));
      const statuses = seen.filter((e) => e.event === 'status' || e.event === 'end').map((e) => JSON.parse(e.data));
      expect(statuses.map((s) => s.status)).to.include('in_progress');
      expect(statuses.at(-1)).to.include({ status: 'completed', end_reason: 'caller_hung_up' });
      expect(statuses.at(-1).events).to.deep.equal(['call.ended']);
      expect(seen.at(-1)!.event).to.equal('end');

      // The line said is the assistant's turn by the API, between the caller's lines; the note is a `note` turn.
      const apiTurns = transcript.filter((x: any) => x.author === 'api');
      expect(apiTurns.map((x: any) => [x.role, x.text])).to.deep.equal([
        ['note', 'The caller is a VIP.'],
        ['assistant', 'A colleague will call you back.'],
      ]);
      const line = transcript.findIndex((x: any) => x.text === 'A colleague will call you back.');
      expect(transcript[line + 1].role, 'said at a pause, before the next caller line').to.equal('caller');
      expect(transcript.filter((x: any) => !x.author).every((x: any) => !('author' in x))).to.equal(true);

      // The model saw both from the next request on.
      const requests = llmRequests(id);
      const after = requests.filter((r) => r.messages.some((m) => m.content === noteMessage('The caller is a VIP.')));
      expect(after.length, 'requests carrying the note').to.be.at.least(1);
      expect(
        after.at(-1)!.messages.find((m) => m.role === 'system' && m.content === noteMessage('The caller is a VIP.')),
      ).to.exist;
      expect(
        after.at(-1)!.messages.some((m) => m.role === 'assistant' && m.content === 'A colleague will call you back.'),
      ).to.equal(true);

      // Resuming after the end gets nothing more: the stream ends at once.
      const tail = await readStream(`${other.url}/v1/calls/${id}/stream`, {
        headers: { Authorization: `Bearer ${t.testKey}`, 'Last-Event-ID': seen.at(-2)!.id! },
      });
      expect(tail.events.map((e) => e.id)).to.deep.equal([seen.at(-1)!.id]);

      // An ended call is not steered.
      for (const [path, body] of [
        ['say', { text: 'Too late.' }],
        ['context', { note: 'Too late.' }],
      ] as const) {
        const res = await request('POST', `/v1/calls/${id}/${path}`, { key: t.testKey, body });
        expect(res.status, path).to.equal(409);
        expect(res.body.error).to.include({ code: 'call_not_live' });
      }
    });

    it('refuses bad lines and notes with 400, and a bad Last-Event-ID', async () => {
      const created = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: ['Hi'] } },
      });
      const id: string = created.body.id;
      await waitForCall(t.testKey, id);
      const cases: [string, unknown, string][] = [
        ['say', { text: '' }, 'text'],
        ['say', { text: '   ' }, 'text'],
        ['say', { text: 'x'.repeat(1001) }, 'text'],
        ['say', {}, 'text'],
        ['say', { text: 'Hi', interrupt: 'yes' }, 'interrupt'],
        ['say', { text: 'Hi', loud: true }, 'loud'],
        ['context', { note: '' }, 'note'],
        ['context', {}, 'note'],
      ];
      for (const [path, body, param] of cases) {
        const res = await request('POST', `/v1/calls/${id}/${path}`, { key: t.testKey, body });
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error, JSON.stringify(body)).to.include({ param, type: 'invalid_request_error' });
      }
      const thousand = await request('POST', `/v1/calls/${id}/say`, {
        key: t.testKey,
        body: { text: 'x'.repeat(1000) },
      });
      expect(thousand.status, 'a line of 1,000 characters is taken (the call is over: 409)').to.equal(409);
      const bad = await readStream(`${h().api.url}/v1/calls/${id}/stream?last_event_id=abc`, {
        headers: { Authorization: `Bearer ${t.testKey}` },
      });
      expect(bad.status).to.equal(400);
      // Past the documented maximum (9,999,999,999): 400 too (the console's own stream takes longer ids).
      const tooLong = await readStream(`${h().api.url}/v1/calls/${id}/stream?last_event_id=99999999999`, {
        headers: { Authorization: `Bearer ${t.testKey}` },
      });
      expect(tooLong.status).to.equal(400);
      const missing = await readStream(`${h().api.url}/v1/calls/call_01jd5x2v7c0000000000000000/stream`, {
        headers: { Authorization: `Bearer ${t.testKey}` },
      });
      expect(missing.status).to.equal(404);
    });
  });

  describe('a live call', () => {
    let fake: FakeTwilio;
    let saved: Config;
    let agentId: string;

    before(async () => {
      fake = await startFakeTwilio();
      saved = config();
      setConfig({
        ...saved,
        twilioAccountSid: fake.accountSid,
        twilioAuthToken: fake.authToken,
        twilioApiBaseUrl: fake.url,
        publicBaseUrl: h().api.url,
      });
      await verifiedCallerId(fake, t.liveKey);
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live', instructions: 'Be brief.', first_message: 'Hi, this is Live.' },
      });
      agentId = agent.body.id;
    });
    after(async () => {
      setConfig(saved);
      await fake.close();
    });

    it('speaks say lines through ConversationRelay (at the pause, and at once with interrupt), and the model sees them and the note', async () => {
      const res = await request('POST', '/v1/calls', {
        key: t.liveKey,
        body: { to: '+14155550123', from: '+14155550100', agent_id: agentId },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id: string = res.body.id;
      await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
      const sid = fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
      const status = await postAsTwilio(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      expect(status.status).to.equal(204);
      await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, fake.authToken, { from: '+14155550100', to: '+14155550123' });
      const answerFrom = session.raw.length;
      expect(await session.say('Hello')).to.include({ type: 'text', token: 'You said: Hello', last: true });
      const answerAt = session.raw[answerFrom]!.atMs;

      // A line without interrupt waits for the answer to be heard out (Twilio would cut it otherwise:
      // every talk cycle is preemptible), by the relay's estimate of its speech.
      const said = await request('POST', `/v1/calls/${id}/say`, {
        key: t.liveKey,
        body: { text: SHIPPED },
      });
      expect(said.status, JSON.stringify(said.body)).to.equal(200);
      expect(said.body).to.include({ spoken: true, interrupt: false });
      expect(await session.next()).to.deep.equal({
        type: 'text',
        token: SHIPPED,
        last: true,
        interruptible: true,
        preemptible: true,
      });
      const shippedAt = session.raw.at(-1)!.atMs;
      expect(shippedAt - answerAt, 'after the answer is heard out').to.be.at.least(speechMs('You said: Hello'));

      const urgent = await request('POST', `/v1/calls/${id}/say`, {
        key: t.liveKey,
        body: { text: 'Please hold the line.', interrupt: true },
      });
      expect(urgent.status, JSON.stringify(urgent.body)).to.equal(200);
      expect(urgent.body).to.include({ spoken: true, interrupt: true });
      expect(await session.next()).to.deep.equal({
        type: 'text',
        token: 'Please hold the line.',
        last: true,
        interruptible: false,
        preemptible: false,
      });
      // At once, while the preemptible line before it is still being heard: it cuts that line.
      expect(session.raw.at(-1)!.atMs - shippedAt, 'before the line is heard out').to.be.below(speechMs(SHIPPED));

      const note = await request('POST', `/v1/calls/${id}/context`, {
        key: t.liveKey,
        body: { note: 'Offer the upgrade.' },
      });
      expect(note.status).to.equal(200);
      expect(await session.say('What now?')).to.include({ token: 'You said: What now?' });
      const last = llmRequests(id).at(-1)!;
      const contents = last.messages.map((m) => [m.role, m.content]);
      expect(contents).to.deep.include(['system', noteMessage('Offer the upgrade.')]);
      expect(contents).to.deep.include(['assistant', SHIPPED]);
      expect(contents).to.deep.include(['assistant', 'Please hold the line.']);

      expect((await request('POST', `/v1/calls/${id}/end`, { key: t.liveKey })).status).to.equal(200);
      const transcript = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.liveKey })).body.turns;
      expect(transcript.map((x: any) => [x.role, x.text, x.author ?? null])).to.deep.equal([
        ['assistant', "You're speaking with an automated assistant.", null],
        ['assistant', 'Hi, this is Live.', null],
        ['caller', 'Hello', null],
        ['assistant', 'You said: Hello', null],
        ['assistant', SHIPPED, 'api'],
        ['assistant', 'Please hold the line.', 'api'],
        ['note', 'Offer the upgrade.', 'api'],
        ['caller', 'What now?', null],
        ['assistant', 'You said: What now?', null],
      ]);
      const after = await request('POST', `/v1/calls/${id}/say`, { key: t.liveKey, body: { text: 'Bye.' } });
      expect(after.status).to.equal(409);
      expect(after.body.error).to.include({ code: 'call_not_live' });
    });
  });
});
