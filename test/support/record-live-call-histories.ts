/**
 * Records `callWorkflow` histories of LIVE calls, for the replay tests (test/replay/replay.test.ts replays
 * every file and requires these): the other recorders' calls are simulated (test mode), so without these
 * no replay test would guard the paths production runs. Starts the test harness (real Temporal dev
 * server, FerretDB, worker, API, fake LLM), points the service at the loopback fake Twilio
 * (test/support/fake-twilio.ts: the REST API, signed status and AMD callbacks, TwiML fetches, conferences)
 * and speaks ConversationRelay as Twilio does (test/support/relay-client.ts). One live call per scenario,
 * each written to test/replay/histories/call-live-<scenario>.json once it has ended:
 *
 *   dial                  dialed, answered, talked, the assistant ends it (`end_call`), Twilio reports the hang-up
 *   voicemail             answering-machine detection says machine: the greeting held, the message left after
 *                         the beep (`voicemail: leave_message`)
 *   warm-transfer         the caller held in a conference, the person dialed, briefed with the summary, joined
 *   warm-transfer-failed  the person does not answer in time: the caller brought back to the assistant, who
 *                         talks on; the call ended through the API
 *   dtmf                  the caller's keypad (DTMF) and the assistant's `send_dtmf` tool through the relay
 *   inbound               a call to a connected voice number, answered with ConversationRelay, the caller hangs
 *                         up (Twilio requests the `<Connect>` action)
 *
 *   npm run build && node dist/test/support/record-live-call-histories.js            # every scenario
 *   node dist/test/support/record-live-call-histories.js warm-transfer dtmf          # (built) those named
 *
 * It records what the current code does (README, "Changing a workflow"): before the first release a change
 * to a live path re-records these files; from the first release on, new files go beside them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { InboundCallSid } from '../../src/models/calls';
import { callWorkflowId } from '../../src/shared/calls';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';
import { joinConference, legStatus, twilioCallback, useFakeTwilio, type FakeTwilio } from './fake-twilio';
import { verifiedCallerId } from './fake-twilio-numbers';
import { relayClient, type RelayClient } from './relay-client';

const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');
const CALLER = '+14155550123';
const MESSAGE = 'Hi, this is Acme Dental about your appointment. Please call us back at 415 555 0100.';

/** Polls `check` until it answers something (20 s at most). */
async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Throws unless `ok`, with `what` and the value shown. */
function check(ok: boolean, what: string, value?: unknown): void {
  if (!ok) throw new Error(`${what}: ${JSON.stringify(value)}`);
}

async function main(): Promise<void> {
  await startHarness();
  const { fake, restore } = await useFakeTwilio();
  try {
    const t = await newTenant();
    const key = t.liveKey;
    const ours = '+14155550100';
    await verifiedCallerId(fake, key, ours);
    const agentOf = async (body: Record<string, unknown>) => {
      const res = await request('POST', '/v1/agents', {
        key,
        body: { instructions: 'Be brief.', first_message: 'Hi, this is Live.', ...body },
      });
      check(res.status === 200, 'agent', res.body);
      return res.body.id as string;
    };
    const agentId = await agentOf({ name: 'Live', enabled_tools: ['send_dtmf'] });
    const sidOf = (id: string) => fake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;

    /** Places a live call from `ours` and answers it (status `in-progress`); with `relay`, opens its session. */
    async function liveCall(
      agent: string,
      body: Record<string, unknown> = {},
    ): Promise<{ id: string; sid: string; session: RelayClient }> {
      const res = await request('POST', '/v1/calls', {
        key,
        body: { to: CALLER, from: ours, agent_id: agent, ...body },
      });
      check(res.status === 200, 'call', res.body);
      const id = res.body.id as string;
      await waitForCall(key, id, (c) => c.status === 'ringing');
      const sid = sidOf(id);
      const answered = await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
      check(answered.status === 204, 'in-progress callback', answered);
      await waitForCall(key, id, (c) => c.status === 'in_progress');
      const session = await relayClient(id, sid, fake.authToken, { from: ours, to: CALLER });
      return { id, sid, session };
    }

    /** Starts a warm transfer to `to`; waits until the caller is on hold and the person is dialed. */
    async function startWarm(fake: FakeTwilio, id: string, sid: string, body: Record<string, unknown>) {
      const pending = request('POST', `/v1/calls/${id}/transfer`, { key, body: { mode: 'warm', ...body } });
      await until('the caller on hold', () =>
        fake.updates.find((u) => u.callSid === sid && (u.params.Twiml ?? '').includes('<Conference')),
      );
      const leg = await until('the person dialed', () =>
        fake.created.find((c) => c.StatusCallback?.endsWith(`/twilio/transfer/${id}/status`)),
      );
      return { pending, leg };
    }

    const scenarios: Record<string, () => Promise<string>> = {
      dial: async () => {
        const { id, sid, session } = await liveCall(agentId);
        check((await session.say('Hello there')).token === 'You said: Hello there', 'answer');
        await session.say('TOOL end_call {}');
        check((await session.next()).type === 'end', 'the relay ends the session after the goodbye');
        session.ws.close();
        await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
        const ended = await waitForCall(key, id);
        check(ended.end_reason === 'assistant_ended', 'end', ended);
        return id;
      },
      voicemail: async () => {
        const machine = await agentOf({
          name: 'Live VM',
          first_message: 'Hello, this is Acme.',
          voicemail: { detection: true, action: 'leave_message', message: MESSAGE },
        });
        const { id, sid, session } = await liveCall(machine);
        void session.say("Hi, you've reached Sam. Leave a message after the tone.");
        await new Promise((r) => setTimeout(r, 1000));
        const amd = await twilioCallback(fake, `/twilio/amd/${id}`, {
          CallSid: sid,
          AccountSid: fake.accountSid,
          AnsweredBy: 'machine_end_beep',
          MachineDetectionDuration: '4200',
        });
        check(amd.status === 204, 'AMD callback', amd);
        await until('the message left', () => fake.updates.find((u) => u.callSid === sid && u.params.Twiml));
        session.ws.close();
        await twilioCallback(fake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
        const ended = await waitForCall(key, id);
        check(ended.end_reason === 'voicemail' && ended.answered_by === 'machine', 'end', ended);
        return id;
      },
      'warm-transfer': async () => {
        const { id, sid, session } = await liveCall(agentId);
        await session.say('I need to change my booking');
        const { pending, leg } = await startWarm(fake, id, sid, { to: '+14155550177' });
        session.ws.close(); // Twilio ends the relay session when the call's TwiML is replaced
        await joinConference(fake, sid);
        await legStatus(fake, leg.Sid, 'ringing');
        await legStatus(fake, leg.Sid, 'in-progress');
        await waitForCall(key, id, (c) => c.transfer?.status === 'briefing');
        await joinConference(fake, leg.Sid); // after the summary, the person reaches the conference
        const res = await pending;
        check(res.status === 200 && res.body.status === 'transferred', 'transfer', res.body);
        await waitForCall(key, id);
        return id;
      },
      'warm-transfer-failed': async () => {
        const { id, sid, session } = await liveCall(agentId);
        await session.say('I need to change my booking');
        const { pending, leg } = await startWarm(fake, id, sid, {
          to: '+14155550177',
          summary: 'Dana wants to move her booking.',
          transfer_timeout_seconds: 5,
        });
        session.ws.close();
        await legStatus(fake, leg.Sid, 'ringing');
        const res = await pending; // nobody answers: after 5 s the leg is hung up
        check(res.status === 200 && res.body.transfer?.reason === 'no_answer', 'transfer', res.body);
        // Twilio fetches the comeback's TwiML and opens a new relay session.
        const back = await until('the caller brought back', () =>
          fake.updates.find((u) => u.callSid === sid && (u.params.Url ?? '').includes(`/twilio/voice/${id}?resume=`)),
        );
        const twiml = await twilioCallback(fake, back.params.Url, { CallSid: sid });
        const query = /\/twilio\/relay\/call_[0-9a-z]+\?sid=CA[0-9a-f]+(&amp;resume=\d+)/.exec(twiml.text)?.[1];
        check(query !== undefined, 'comeback TwiML', twiml.text);
        const again = await relayClient(
          id,
          sid,
          fake.authToken,
          { from: ours, to: CALLER },
          query!.replace('&amp;', '&'),
        );
        check((await again.say('OK, then you help me')).token === 'You said: OK, then you help me', 'answer');
        again.ws.close();
        const ended = await request('POST', `/v1/calls/${id}/end`, { key });
        check(ended.status === 200, 'end', ended.body);
        await waitForCall(key, id);
        return id;
      },
      dtmf: async () => {
        const { id, session } = await liveCall(agentId);
        // The caller's keypad: a burst of digits is one utterance.
        for (const digit of ['1', '2', '#']) session.ws.send(JSON.stringify({ type: 'dtmf', digit }));
        check((await session.next()).token === 'You said: DTMF 12#', 'keypad answer');
        // The assistant presses keys (`send_dtmf`) while its turn runs, before its answer.
        const digits = await session.say('TOOLONCE send_dtmf {"digits":"1w2#"}');
        check(digits.type === 'sendDigits' && digits.digits === '1w2#', 'sendDigits', digits);
        await session.next();
        session.ws.close();
        const ended = await request('POST', `/v1/calls/${id}/end`, { key });
        check(ended.status === 200, 'end', ended.body);
        await waitForCall(key, id);
        return id;
      },
      inbound: async () => {
        const number = '+14155550101';
        const connected = await request('POST', '/v1/phone_numbers', {
          key,
          body: { number, channels: ['voice'], agent_id: agentId },
        });
        check(connected.status === 200, 'number', connected.body);
        const sid = 'CA' + crypto.randomBytes(16).toString('hex');
        const twiml = await twilioCallback(fake, '/twilio/voice/inbound', {
          CallSid: sid,
          From: CALLER,
          To: number,
          CallStatus: 'ringing',
        });
        check(twiml.text.includes('<ConversationRelay'), 'inbound TwiML', twiml.text);
        const id = (
          await until('the inbound call', async () => (await InboundCallSid.findById(sid).lean()) ?? undefined)
        ).call_id;
        await waitForCall(key, id, (c) => c.status === 'in_progress');
        const session = await relayClient(id, sid, fake.authToken, { from: CALLER, to: number });
        check((await session.say('Do you open on Sundays?')).token === 'You said: Do you open on Sundays?', 'answer');
        session.ws.close();
        // The caller hangs up: Twilio requests the <Connect> action.
        await twilioCallback(fake, `/twilio/voice/${id}/ended`, { CallSid: sid, CallStatus: 'completed' });
        const ended = await waitForCall(key, id);
        check(ended.end_reason === 'caller_hung_up', 'end', ended);
        return id;
      },
    };

    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    const only = process.argv.slice(2);
    for (const [name, run] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      const callId = await run();
      const handle = h().env.client.workflow.getHandle(callWorkflowId(callId));
      await handle.result();
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.join(HISTORIES_DIR, `call-live-${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(`${name}: ${callId}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`);
    }
  } finally {
    await restore();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
