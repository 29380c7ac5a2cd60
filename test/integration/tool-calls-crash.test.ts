/**
 * A tool call and a crashing worker (issue 27 item 3, "durable and exactly-once for the receiver"): the
 * worker process is killed (SIGKILL) while the loopback tool server holds the tool's request unanswered;
 * a new worker process starts; after the `runTool` activity's heartbeat timeout Temporal retries the
 * activity, whose request carries the same `Idempotency-Key` and the same body; the server answers it.
 * The server sees the key twice, both requests signed; the call's transcript (or the conversation's
 * messages) records the tool call once, with the second answer; the model sees that answer once.
 * Once on a test call, once in a WhatsApp conversation.
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { decodeTimeoutType } from '@temporalio/common';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { conversationWorkflowIds } from '../../src/services/conversations';
import {
  h,
  loopbackHttpsEnv,
  newTenant,
  request,
  startWorkerProcess,
  stopWorkerProcess,
  waitForCall,
} from '../support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../support/https-receiver';
import { customerNumber, eventually, inbound, messagesOf, waitForMessages } from '../support/conversations';
import { placeCall, verify, type Tenant } from '../support/webhooks';
import { createHttpTool, useTools } from '../support/tools';

/** The tool's deadline: the longest allowed, so a slow restart under load still falls within it. */
const TOOL_TIMEOUT_MS = 20_000;

/** The answer of the server's second request (the first is held until the worker dies). */
const ANSWER = JSON.stringify({ order: 'A17', status: 'shipped', answered: 'after the crash' });

/** Makes an http tool `name` on `receiver` at `pathname` (timeout 20 s) and gives it to the tenant's agent. */
async function agentWithTool(tenant: Tenant, receiver: HttpsReceiver, name: string, pathname: string) {
  const tool = await createHttpTool(tenant, receiver, name, pathname, {
    description: 'Looks up an order.',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    timeout_ms: TOOL_TIMEOUT_MS,
  });
  await useTools(tenant, [tool.id]);
  return tool as { id: string; secret: string };
}

/** The `runTool` activity in a workflow's history: how often it was scheduled, and its last start. */
async function runToolInHistory(workflowId: string) {
  const events = (await h().env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runTool');
  const ids = new Set(scheduled.map((e) => String(e.eventId)));
  const started = events
    .map((e) => e.activityTaskStartedEventAttributes)
    .filter((a) => a && ids.has(String(a.scheduledEventId)));
  const completed = events.filter((e) => ids.has(String(e.activityTaskCompletedEventAttributes?.scheduledEventId)));
  return { scheduled: scheduled.length, started, completed: completed.length };
}

describe('tool calls: a worker killed while the tool server holds the request', function () {
  this.timeout(240_000);
  let receiver: HttpsReceiver;
  let child: ChildProcess | undefined;
  before(async () => {
    receiver = await startHttpsReceiver();
  });
  after(async () => {
    await receiver?.close();
  });
  afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

  const startWorker = (queue: string) => startWorkerProcess(queue, loopbackHttpsEnv());

  /**
   * Runs `start` (which makes the workflow call the tool at `pathname`) on a worker process of its own
   * queue; kills that worker once the server holds the first request, starts another at once, and waits
   * for the retried request. Answers both requests, the workflow's id and `start`'s own result.
   */
  async function crashDuringToolCall<T extends { workflowId: string }>(pathname: string, start: () => Promise<T>) {
    receiver.route(pathname, (_req, n) => (n === 1 ? 'hold' : { status: 200, body: ANSWER }));
    const queue = `svc-test-tool-crash-${crypto.randomBytes(4).toString('hex')}`;
    const saved = config();
    setConfig({ ...saved, taskQueue: queue }); // calls and conversations started now run on the child's queue only
    try {
      child = await startWorker(queue);
      const started = await start();
      await receiver.waitFor(() => receiver.at(pathname).length >= 1, 90_000, 'the first (held) tool request');
      await stopWorkerProcess(child, 'SIGKILL');
      const killedMs = Date.now();
      child = await startWorker(queue);
      await receiver.waitFor(() => receiver.at(pathname).length >= 2, 60_000, 'the retried tool request');
      const requests = receiver.at(pathname);
      const retryAfterKillMs = requests[1].receivedMs - killedMs;
      console.log(
        `      (the retried request ${retryAfterKillMs} ms after the kill; ${requests[1].receivedMs - requests[0].receivedMs} ms after the first)`,
      );
      return { ...started, requests, retryAfterKillMs };
    } finally {
      setConfig(saved);
    }
  }

  /**
   * What both tests check of the requests the server got at `pathname`, read once the activity has
   * completed: the held one and its retry, nothing more. Answers the key.
   */
  function checkRequests(pathname: string, secret: string) {
    const requests = receiver.at(pathname);
    expect(requests, 'the held request and its retry, nothing more').to.have.length(2);
    const [first, second] = requests;
    const key = first.headers['idempotency-key'] as string;
    expect(key).to.match(/^tc_[0-9a-z]{26}$/);
    expect(second.headers['idempotency-key'], 'the retry carries the same Idempotency-Key').to.equal(key);
    expect(second.rawBody, 'the same body').to.equal(first.rawBody);
    expect(first.body.tool_call_id).to.equal(key);
    for (const r of requests)
      expect(verify(r.rawBody, r.headers['svc-signature'] as string, secret), 'signed').to.equal(true);
    return key;
  }

  it('a test call: the retry carries the same key; the transcript has one tool entry, the model one answer', async () => {
    const t = await newTenant();
    const tool = await agentWithTool(t, receiver, 'crash_lookup', '/crash-call');
    const { requests, id, workflowId, retryAfterKillMs } = await crashDuringToolCall('/crash-call', async () => {
      const call = await placeCall(t, {
        simulation: { caller: ['TOOLONCE crash_lookup {"order_id":"A17"}'] },
        metadata: { crash: 'tool' },
      });
      return { id: call.id as string, workflowId: call.id as string };
    });
    const ended = await waitForCall(t.testKey, id, undefined, 90_000);
    expect(ended.status, JSON.stringify(ended)).to.equal('completed');

    const key = checkRequests('/crash-call', tool.secret);
    expect(requests[0].body).to.deep.include({ tool: 'crash_lookup', call_id: id, arguments: { order_id: 'A17' } });
    expect(retryAfterKillMs).to.be.within(0, TOOL_TIMEOUT_MS);

    const turns = (await request('GET', `/v1/calls/${id}/transcript`, { key: t.testKey })).body.turns as any[];
    const entries = turns.filter((x) => x.role === 'tool');
    expect(entries, JSON.stringify(turns)).to.have.length(1);
    expect(entries[0]).to.include({ name: 'crash_lookup', tool_call_id: key, result: ANSWER, status: 200 });
    expect(entries[0].error).to.equal(undefined);
    expect(turns.filter((x) => x.text === 'Tool result received.')).to.have.length(1);

    // The model asked once for the tool and was answered once, with the second answer.
    const asked = h().llm.requests.filter((r) => r.user === id);
    expect(asked, 'the tool call, then the answer').to.have.length(2);
    const answers = asked[1].messages.filter((m: any) => m.role === 'tool');
    expect(answers.map((m: any) => m.content)).to.deep.equal([ANSWER]);

    // One activity, retried by Temporal after its heartbeat timeout: attempt 2 completed it.
    const history = await runToolInHistory(workflowId);
    expect(history.scheduled).to.equal(1);
    expect(history.completed).to.equal(1);
    expect(history.started.map((a) => a!.attempt)).to.deep.equal([2]);
    expect(decodeTimeoutType(history.started[0]!.lastFailure?.timeoutFailureInfo?.timeoutType)).to.equal('HEARTBEAT');
  });

  it('a WhatsApp conversation: the retry carries the same key; one reply records the tool call once', async () => {
    const t = await newTenant();
    const tool = await agentWithTool(t, receiver, 'crash_lookup', '/crash-conversation');
    const { requests, conversationId, workflowId } = await crashDuringToolCall('/crash-conversation', async () => {
      const from = customerNumber();
      const res = await inbound(t.testKey, {
        channel: 'whatsapp',
        from,
        text: 'TOOLONCE crash_lookup {"order_id":"W1"}',
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return {
        conversationId: res.body.conversation_id as string,
        workflowId: conversationWorkflowIds({
          orgId: t.orgId,
          livemode: false,
          channel: 'whatsapp',
          customerNumber: from,
        })[0],
      };
    });
    await waitForMessages(t.testKey, conversationId, 2, (m) => m.author === 'assistant', 90_000);

    const key = checkRequests('/crash-conversation', tool.secret);
    expect(requests[0].body).to.deep.include({ tool: 'crash_lookup', conversation_id: conversationId });

    const messages = await messagesOf(t.testKey, conversationId);
    expect(messages.map((m) => [m.author, m.text])).to.deep.equal([
      ['customer', 'TOOLONCE crash_lookup {"order_id":"W1"}'],
      ['assistant', 'Calling crash_lookup.'],
      ['assistant', 'Tool result received.'],
    ]);
    const recorded = messages.flatMap((m) => m.tool_calls ?? []);
    expect(recorded).to.have.length(1);
    expect(recorded[0]).to.include({ name: 'crash_lookup', tool_call_id: key, result: ANSWER, status: 200 });

    const asked = h().llm.requests.filter((r) => r.user === conversationId);
    expect(asked, 'the tool call, then the answer').to.have.length(2);
    expect(asked[1].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content)).to.deep.equal([ANSWER]);

    const history = await eventually(async () => {
      const found = await runToolInHistory(workflowId);
      return found.completed ? found : null;
    }, 'the tool activity in the conversation history');
    expect(history.scheduled).to.equal(1);
    expect(history.started.map((a) => a!.attempt)).to.deep.equal([2]);
  });
});
