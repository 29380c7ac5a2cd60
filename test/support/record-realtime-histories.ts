/**
 * Records `callWorkflow` histories of calls on the realtime engine (OpenAI's Realtime API over SIP,
 * src/workflows/call-realtime.ts), for the replay tests (test/replay/replay.test.ts replays every file and
 * requires these). Starts the test harness (real Temporal dev server, FerretDB, worker, API, fake LLM),
 * points the service's Realtime project at the loopback fake of the Realtime API
 * (test/support/fake-openai-realtime.ts: the simulated SIP leg, the signed webhook, REST and the sideband
 * socket) and, for the live call, at the loopback fake Twilio (test/support/fake-twilio.ts, which follows
 * `<Dial><Sip>` to the fake's simulator). One call per scenario, each written to
 * test/replay/histories/call-realtime-<scenario>.json once it has ended:
 *
 *   test            a test-mode call: the greeting, two turns, an http tool (its output back on the
 *                   socket), the model's `end_call` (`hangup`)
 *   fallback        a test-mode call whose `accept` answers 500: the pipeline takes the call
 *   session-error   a test-mode call whose session errors before the first answer: the pipeline takes it
 *   live            a live call: Twilio dials the SIP URI, the greeting, two turns, `end_call` (`hangup`),
 *                   Twilio reports the hang-up
 *   reattach        a test-mode call whose sideband socket drops while an http tool runs: the socket is
 *                   attached again, the tool's output goes on the new socket (update `realtimeOutputs`)
 *   refer           a test-mode call whose model transfers it to a listed destination: `refer` of the leg
 *   v030-squad      (0.3.0) a test-mode call of a squad of realtime agents handed reception -all-> booking
 *                   -last:2-> billing -summary-> reception: each hand-off's summary, `realtimeMemberSession`
 *                   activity and `session.update` in the outbox
 *   v030-sideband-tool  (0.3.0) a test-mode call whose http tool the sideband runs itself (patch
 *                   `realtimeSidebandTools`: no `runTool` in the history, the result told by signal), then
 *                   `end_call` (`hangup`)
 *
 *   npm run build && node dist/test/support/record-realtime-histories.js             # every scenario
 *   node dist/test/support/record-realtime-histories.js test fallback                # (built) those named
 *
 * It writes only these files (never another recorder's), so it can be re-run alone after a change to the
 * realtime engine. It records what the current code does (README, "Changing a workflow"): before the first
 * release a change to the engine re-records these files; from the first release on, new files go beside them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../../src/config';
import { callWorkflowId } from '../../src/shared/calls';
import { startFakeRealtime, type FakeRealtime } from './fake-openai-realtime';
import { fakeRealtimeProject } from './realtime-fixture';
import { fetchTwiml, twilioCallback, useFakeTwilio } from './fake-twilio';
import { verifiedCallerId } from './fake-twilio-numbers';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';
import { startHttpsReceiver } from './https-receiver';
import { createHttpTool, useTools } from './tools';

const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');
const CALLER = '+14155550123';
const OURS = '+14155550100';

/** Throws unless `ok`, with `what` and the value shown. */
function check(ok: boolean, what: string, value?: unknown): void {
  if (!ok) throw new Error(`${what}: ${JSON.stringify(value)}`);
}

/** Polls `get` until it answers something other than undefined (20 s at most). */
async function until<T>(what: string, get: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Points the service's Realtime project at `fake` (the API's webhook its destination). */
function useFakeRealtime(fake: FakeRealtime): void {
  fake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
  setConfig({
    ...config(),
    openaiRealtime: fakeRealtimeProject(fake),
  });
}

async function main(): Promise<void> {
  await startHarness();
  const receiver = await startHttpsReceiver();
  const fake = await startFakeRealtime();
  const twilio = await useFakeTwilio();
  try {
    useFakeRealtime(fake);
    twilio.fake.sipSimulatorUrl = fake.simulatorUrl;
    const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
    const tool = await createHttpTool(t, receiver, 'lookup_order', '/rt-orders');
    receiver.route('/rt-orders', () => ({ status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) }));
    await useTools(t, [tool.id]);

    // The re-attach's and the refer's tenant: a tool slower than the socket's drop, a transfer destination.
    const t2 = await newTenant({
      engine: 'realtime',
      first_message: 'Hello from Acme.',
      transfer_destinations: [{ name: 'billing', to: '+14155550111' }],
    });
    const slow = await createHttpTool(t2, receiver, 'lookup_order', '/rt-slow-orders');
    receiver.route('/rt-slow-orders', async () => {
      await new Promise((r) => setTimeout(r, 300));
      return { status: 200, body: JSON.stringify({ order: 'A17', status: 'shipped' }) };
    });
    await useTools(t2, [slow.id]);

    /** A test-mode call of `tenant`'s realtime agent whose caller says `lines`; answers its id once ended. */
    async function testCall(lines: string[], tenant = t): Promise<{ id: string; call: any }> {
      const placed = await request('POST', '/v1/calls', {
        key: tenant.testKey,
        body: { to: CALLER, agent_id: tenant.agentId, simulation: { caller: lines } },
      });
      check(placed.status === 200, 'call', placed.body);
      const call = await waitForCall(tenant.testKey, placed.body.id, undefined, 60_000);
      return { id: placed.body.id as string, call };
    }

    const scenarios: Record<string, () => Promise<string>> = {
      test: async () => {
        const { id, call } = await testCall([
          'I have a question.',
          'TOOL lookup_order {"order_id":"A17"}',
          'Thanks.',
          'TOOL end_call {}',
        ]);
        check(call.status === 'completed' && call.end_reason === 'assistant_ended', 'end', call);
        check(call.engine_fallback === null, 'no fallback', call);
        check(receiver.at('/rt-orders').length >= 1, 'the tool ran');
        return id;
      },
      fallback: async () => {
        fake.acceptStatus = 500;
        try {
          const { id, call } = await testCall(['Is it open?']);
          check(call.status === 'completed' && call.engine_fallback === 'accept_failed', 'fallback', call);
          return id;
        } finally {
          fake.acceptStatus = null;
        }
      },
      'session-error': async () => {
        fake.sessionError = true;
        try {
          const { id, call } = await testCall(['Is it open?']);
          check(call.status === 'completed' && call.engine_fallback === 'session_error', 'fallback', call);
          return id;
        } finally {
          fake.sessionError = false;
        }
      },
      live: async () => {
        const { fake: tw } = twilio;
        await verifiedCallerId(tw, t.liveKey, OURS);
        const agent = await request('POST', '/v1/agents', {
          key: t.liveKey,
          body: { name: 'Live RT', instructions: 'Be brief.', first_message: 'Hi, this is Live.', engine: 'realtime' },
        });
        check(agent.status === 200, 'agent', agent.body);
        const res = await request('POST', '/v1/calls', {
          key: t.liveKey,
          body: { to: CALLER, from: OURS, agent_id: agent.body.id },
        });
        check(res.status === 200, 'call', res.body);
        const id = res.body.id as string;
        await waitForCall(t.liveKey, id, (c) => c.status === 'ringing');
        const sid = tw.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
        tw.sipCallers.set(sid, ['I have a question.', 'Thanks.', 'TOOL end_call {}']);
        await twilioCallback(tw, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
        await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
        const twiml = await fetchTwiml(tw, `/twilio/voice/${id}`, { CallSid: sid });
        check(twiml.text.includes('<Sip>'), 'the SIP leg', twiml.text);
        const rt = await until('the SIP leg at the Realtime API', () => fake.callFor(id));
        await until('the hangup', () => fake.requests.find((r) => r.path === `/v1/realtime/calls/${rt.id}/hangup`));
        await twilioCallback(tw, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'completed' });
        const ended = await waitForCall(t.liveKey, id, undefined, 30_000);
        check(ended.status === 'completed' && ended.end_reason === 'assistant_ended', 'end', ended);
        return id;
      },
      reattach: async () => {
        Object.assign(fake, { dropSocket: 'once', dropWhileCalls: true, dropAfterLine: 1 });
        try {
          const { id, call } = await testCall(['Hello.', 'TOOL lookup_order {"order_id":"A17"}', 'Thanks.'], t2);
          check(call.status === 'completed' && call.end_reason === 'caller_hung_up', 'end', call);
          const rt = fake.callFor(id)!;
          check(rt.attaches === 2, 'one re-attach', rt.attaches);
          const outputs = rt.clientEvents.filter(
            (e) => e.type === 'conversation.item.create' && e.item.type === 'function_call_output',
          );
          check(outputs.length === 1, 'the output sent once', outputs);
          return id;
        } finally {
          Object.assign(fake, { dropSocket: null, dropWhileCalls: false, dropAfterLine: 0 });
        }
      },
      'v030-squad': async () => {
        const member = async (name: string, instructions: string) => {
          const res = await request('POST', '/v1/agents', {
            key: t.testKey,
            body: { name, instructions, engine: 'realtime' },
          });
          check(res.status === 200, 'agent', res.body);
          return res.body.id as string;
        };
        const booking = await member('Booking', 'You book appointments.');
        const billing = await member('Billing', 'You answer billing questions.');
        const squad = await request('POST', '/v1/squads', {
          key: t.testKey,
          body: {
            name: 'Realtime desk',
            start: 'reception',
            members: [
              {
                name: 'reception',
                agent_id: t.agentId,
                handoffs: [{ to: 'booking', description: 'An appointment.', context: 'all' }],
              },
              {
                name: 'booking',
                agent_id: booking,
                handoffs: [{ to: 'billing', description: 'A bill.', context: { last: 2 } }],
              },
              {
                name: 'billing',
                agent_id: billing,
                handoffs: [{ to: 'reception', description: 'Done with billing.', context: 'summary' }],
              },
            ],
          },
        });
        check(squad.status === 200, 'squad', squad.body);
        const placed = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: {
            to: CALLER,
            squad_id: squad.body.id,
            simulation: {
              caller: [
                'Hello.',
                'TOOL handoff_to_booking {}',
                'TOOL handoff_to_billing {}',
                'TOOL handoff_to_reception {}',
                'TOOL end_call {}',
              ],
            },
          },
        });
        check(placed.status === 200, 'call', placed.body);
        const call = await waitForCall(t.testKey, placed.body.id, undefined, 60_000);
        check(call.status === 'completed' && call.squad_member === 'reception', 'end', call);
        const updates = fake.callFor(call.id)!.clientEvents.filter((e) => e.type === 'session.update');
        check(updates.length === 3, 'three session updates', updates.length);
        return call.id as string;
      },
      'v030-sideband-tool': async () => {
        const before = receiver.at('/rt-orders').length;
        const { id, call } = await testCall(['TOOL lookup_order {"order_id":"A17"}', 'TOOL end_call {}']);
        check(call.status === 'completed' && call.end_reason === 'assistant_ended', 'end', call);
        check(receiver.at('/rt-orders').length === before + 1, 'the tool ran once');
        const events = (await h().env.client.workflow.getHandle(callWorkflowId(id)).fetchHistory()).events ?? [];
        const markers = events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity');
        const runTools = markers.filter((e) =>
          Buffer.from(e.markerRecordedEventAttributes!.details!.data!.payloads![0]!.data!)
            .toString()
            .includes('runTool'),
        );
        check(runTools.length === 0, 'no runTool: the sideband ran it', runTools.length);
        return id;
      },
      refer: async () => {
        const { id, call } = await testCall(['I need billing.', 'TOOL transfer_call {"destination":"billing"}'], t2);
        check(call.status === 'transferred' && call.transferred_to === '+14155550111', 'transferred', call);
        check(fake.callFor(id)!.refers.length === 1, 'one refer', fake.callFor(id)!.refers);
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
      // proto3 JSON, the form Worker.runReplayHistories reads (as `temporal workflow show --output json`).
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.join(HISTORIES_DIR, `call-realtime-${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(`${name}: ${callId}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`);
    }
  } finally {
    await twilio.restore();
    await fake.close();
    await receiver.close();
    await stopHarness();
  }
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
