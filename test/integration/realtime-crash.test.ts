/**
 * A realtime call's function call and a crashing worker: a call on the realtime engine (the loopback
 * fake of OpenAI's Realtime API, test/support/fake-openai-realtime.ts) runs on a worker process of its
 * own; the model calls the organization's http tool; the worker is killed (SIGKILL) while the loopback
 * tool server holds the tool's request unanswered, and a new worker process starts. The sideband activity
 * runs the call itself (it told the workflow with the call's key before it started: src/voice/realtime-session.ts)
 * and dies between its two signals: once the activity is over (its heartbeat timeout), the workflow runs the
 * call as the `runTool` local activity with the same `Idempotency-Key` and body; the transcript records the
 * tool call once, with the retried request's answer; the call finishes (the sideband socket died with the worker: the call goes on if the
 * socket is re-attached, else it ends `error` with its transcript, never a stuck workflow). Once on a
 * test call, once on a live call whose Twilio leg (the loopback fake Twilio) dials the SIP URI.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { callWorkflowId } from '../../src/shared/calls';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';
import { startHttpsReceiver, testCertificate, type HttpsReceiver } from '../support/https-receiver';
import { startFakeRealtime, type FakeRealtime } from '../support/fake-openai-realtime';
import { fakeRealtimeProject } from '../support/realtime-fixture';
import { verify } from '../support/webhooks';
import { fetchTwiml, postAsTwilio, startFakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { createHttpTool, useTools } from '../support/tools';

/** The tool's deadline: the longest allowed, so a slow restart under load still falls within it. */
const TOOL_TIMEOUT_MS = 20_000;

/** The answer of the server's second request (the first is held until the worker dies). */
const ANSWER = JSON.stringify({ order: 'A17', status: 'shipped', answered: 'after the crash' });

describe('realtime calls: a worker killed while the tool server holds a function call', function () {
  this.timeout(240_000);
  let receiver: HttpsReceiver;
  let fake: FakeRealtime;
  let child: ChildProcess | undefined;
  let restoreConfig: () => void;
  before(async () => {
    receiver = await startHttpsReceiver();
    fake = await startFakeRealtime();
    fake.webhookUrl = `${h().api.url}/openai/realtime/webhook`;
    const saved = config();
    setConfig({
      ...saved,
      openaiRealtime: fakeRealtimeProject(fake),
    });
    restoreConfig = () => setConfig(saved);
  });
  after(async () => {
    restoreConfig?.();
    await receiver?.close();
    await fake?.close();
  });
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  /** A worker process on `queue`, its Realtime project the fake (as the API's configuration names it). */
  const startWorker = (queue: string, env: Record<string, string>) =>
    startWorkerProcess(queue, {
      ...env,
      WEBHOOK_ALLOW_PRIVATE: '1',
      NODE_EXTRA_CA_CERTS: testCertificate().certFile,
      WEBHOOK_CA_FILE: '',
      OPENAI_REALTIME_PROJECT_ID: 'proj_fake',
      OPENAI_WEBHOOK_SECRET: fake.webhookSecret,
      OPENAI_REALTIME_BASE_URL: fake.baseUrl,
      OPENAI_REALTIME_API_KEY: 'sk-realtime-fake',
      OPENAI_REALTIME_SIMULATOR_URL: fake.simulatorUrl,
    });

  /**
   * The `runTool` local activity in a workflow's history (a realtime call's tools run as local
   * activities): its markers (each one a completed call, with its attempt), and the workflow tasks that
   * timed out (a dead worker's).
   */
  async function runToolInHistory(workflowId: string) {
    const events = (await h().env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
    const markers = events
      .map((e) => e.markerRecordedEventAttributes)
      .filter((a) => a?.markerName === 'core_local_activity')
      .map((a) => JSON.parse(Buffer.from(a!.details!.data!.payloads![0]!.data!).toString()))
      .filter((data: { activity_type: string }) => data.activity_type === 'runTool');
    const activities = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
    const timedOut = events.filter((e) => e.workflowTaskTimedOutEventAttributes);
    return { markers, activities: activities.length, timedOut: timedOut.length };
  }

  /**
   * Runs a realtime call whose model calls `crash_lookup` on a worker process of its own queue (`place`
   * places it with `key` and answers its id, after `tools` made the tool and gave it to the agent); kills
   * that worker once the tool server holds the first request, starts another at once, and waits for the
   * retried request and the call's end. Then checks what both tests check: the held request and its retry
   * with one key and one body; the call finished; one transcript entry with the second answer; one
   * `runTool` local activity recorded, made by the workflow on the next worker once the sideband was over.
   * @returns the ended call
   */
  async function crashDuringFunctionCall(
    pathname: string,
    key: string,
    tools: () => Promise<{ secret: string }>,
    place: () => Promise<string>,
    env: Record<string, string> = {},
  ) {
    const queue = `svc-test-rt-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // calls started now run on the child's queue only
    try {
      const tool = await tools();
      receiver.route(pathname, (_req, n) => (n === 1 ? 'hold' : { status: 200, body: ANSWER }));
      child = await startWorker(queue, env);
      const id = await place();
      await receiver.waitFor(() => receiver.at(pathname).length >= 1, 90_000, 'the first (held) tool request');
      await stopWorkerProcess(child, 'SIGKILL');
      const killedMs = Date.now();
      child = await startWorker(queue, env);
      await receiver.waitFor(() => receiver.at(pathname).length >= 2, 60_000, 'the retried tool request');
      const ended = await waitForCall(key, id, undefined, 90_000);

      // The call finished: on, if the socket was re-attached; else ended `error`, its transcript kept.
      const rt = fake.callFor(id)!;
      expect(rt, 'the SIP leg at the Realtime API').to.not.equal(undefined);
      expect(ended.engine).to.equal('realtime');
      expect(ended.engine_fallback, 'answered before the crash: no fallback').to.equal(null);
      if (ended.status === 'failed') {
        expect(ended.end_reason, JSON.stringify(ended)).to.equal('error');
        expect(ended.error?.message ?? '', JSON.stringify(ended.error)).to.match(/Realtime session/);
      } else {
        expect(ended.status, JSON.stringify(ended)).to.equal('completed');
        const outputs = rt.clientEvents.filter(
          (e) => e.type === 'conversation.item.create' && e.item.type === 'function_call_output',
        );
        expect(
          outputs.map((e: any) => e.item.output),
          'the answer sent back on the socket once',
        ).to.deep.equal([ANSWER]);
      }

      // The tool server: the held request and its retry, one key, the same signed body.
      const requests = receiver.at(pathname);
      expect(requests, 'the held request and its retry, nothing more').to.have.length(2);
      const [first, second] = requests;
      const toolKey = first.headers['idempotency-key'] as string;
      expect(toolKey).to.match(/^tc_[0-9a-z]{26}$/);
      expect(second.headers['idempotency-key'], 'the retry carries the same Idempotency-Key').to.equal(toolKey);
      expect(second.rawBody, 'the same body').to.equal(first.rawBody);
      expect(first.body).to.deep.include({ tool: 'crash_lookup', call_id: id, arguments: { order_id: 'A17' } });
      for (const r of requests)
        expect(verify(r.rawBody, r.headers['svc-signature'] as string, tool.secret), 'signed').to.equal(true);
      expect(second.receivedMs - killedMs, 'retried within the tool deadline').to.be.within(0, TOOL_TIMEOUT_MS);

      // One transcript entry, with the retried request's answer, after the caller's words that asked for it.
      const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key })).body.turns as any[];
      const entries = turns.filter((x) => x.role === 'tool');
      expect(entries, JSON.stringify(turns)).to.have.length(1);
      expect(entries[0]).to.include({ name: 'crash_lookup', tool_call_id: toolKey, result: ANSWER, status: 200 });
      expect(entries[0].error).to.equal(undefined);
      const spoken = turns.map((x) => `${x.role}: ${x.text ?? ''}`);
      expect(spoken[0]).to.match(/^assistant: .*Hello from Acme\.$/);
      expect(spoken.slice(1, 4)).to.deep.equal([
        'caller: Where is my order?',
        'assistant: You said: Where is my order?',
        'caller: TOOL crash_lookup {"order_id":"A17"}',
      ]);

      // The first request was the sideband's; the second, the workflow's one local activity once the sideband was over.
      const history = await runToolInHistory(callWorkflowId(id));
      expect(history.activities, 'no runTool activity task').to.equal(0);
      expect(history.markers, 'one recorded runTool').to.have.length(1);
      return ended;
    } finally {
      setConfig(saved);
    }
  }

  /** The tool `crash_lookup` at `pathname` (timeout 20 s), given to `agentId`, in the mode of `key`. */
  async function crashTool(t: Awaited<ReturnType<typeof newTenant>>, key: string, agentId: string, pathname: string) {
    const tenant = { ...t, testKey: key, agentId }; // the helpers act with `testKey`: here the mode's key
    const tool = await createHttpTool(tenant, receiver, 'crash_lookup', pathname, {
      description: 'Looks up an order.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      timeout_ms: TOOL_TIMEOUT_MS,
    });
    await useTools(tenant, [tool.id]);
    return tool as { id: string; secret: string };
  }

  const LINES = ['Where is my order?', 'TOOL crash_lookup {"order_id":"A17"}', 'Thanks.'];

  it('a test call: the retry carries the same key; one transcript entry with the second answer; the call finishes', async () => {
    const t = await newTenant({ engine: 'realtime', first_message: 'Hello from Acme.' });
    await crashDuringFunctionCall(
      '/rt-crash',
      t.testKey,
      () => crashTool(t, t.testKey, t.agentId, '/rt-crash'),
      async () => {
        const placed = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to: '+14155550123', agent_id: t.agentId, simulation: { caller: LINES } },
        });
        expect(placed.status, JSON.stringify(placed.body)).to.equal(200);
        return placed.body.id as string;
      },
    );
  });

  it('a live call through the fake Twilio: the same, the Twilio leg dialed to the SIP URI', async () => {
    const twilioFake = await startFakeTwilio();
    twilioFake.sipSimulatorUrl = fake.simulatorUrl;
    const saved = config();
    setConfig({
      ...saved,
      twilioAccountSid: twilioFake.accountSid,
      twilioAuthToken: twilioFake.authToken,
      twilioApiBaseUrl: twilioFake.url,
      publicBaseUrl: h().api.url,
    });
    try {
      const t = await newTenant();
      await verifiedCallerId(twilioFake, t.liveKey, '+14155550100');
      const agent = await request('POST', '/v1/agents', {
        key: t.liveKey,
        body: { name: 'Live RT', instructions: 'Be brief.', first_message: 'Hello from Acme.', engine: 'realtime' },
      });
      expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
      let sid = '';
      const ended = await crashDuringFunctionCall(
        '/rt-crash-live',
        t.liveKey,
        () => crashTool(t, t.liveKey, agent.body.id, '/rt-crash-live'),
        async () => {
          const res = await request('POST', '/v1/calls', {
            key: t.liveKey,
            body: { to: '+14155550123', from: '+14155550100', agent_id: agent.body.id },
          });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          const id = res.body.id as string;
          await waitForCall(t.liveKey, id, (c) => c.status === 'ringing', 60_000);
          sid = twilioFake.created.find((c) => c.Url?.endsWith(`/twilio/voice/${id}`))!.Sid;
          twilioFake.sipCallers.set(sid, LINES);
          await postAsTwilio(twilioFake, `/twilio/status/${id}`, { CallSid: sid, CallStatus: 'in-progress' });
          await waitForCall(t.liveKey, id, (c) => c.status === 'in_progress');
          const twiml = await fetchTwiml(twilioFake, `/twilio/voice/${id}`, { CallSid: sid });
          expect(twiml.text).to.match(/<Dial referUrl="[^"]+\/refer" referMethod="POST"><Sip>/);
          return id;
        },
        {
          TWILIO_ACCOUNT_SID: twilioFake.accountSid,
          TWILIO_AUTH_TOKEN: twilioFake.authToken,
          TWILIO_API_BASE_URL: twilioFake.url,
          PUBLIC_BASE_URL: h().api.url,
        },
      );
      expect(ended.livemode).to.equal(true);
      if (ended.status === 'failed')
        expect(
          twilioFake.updates.some((u) => u.callSid === sid && u.params.Status === 'completed'),
          'the Twilio leg hung up',
        ).to.equal(true);
    } finally {
      setConfig(saved);
      await twilioFake.close();
    }
  });
});
