/**
 * Records `conversationWorkflow` histories from real runs, for the replay tests (test/replay/replay.test.ts
 * replays every file; test/integration/conversations.test.ts checks these are there). Starts the test
 * harness (real Temporal dev server, FerretDB, worker, API, fake LLM) and a fake Twilio, drives one
 * conversation per scenario through the API and Twilio's webhooks, waits until its workflow is idle, and
 * writes its history to test/replay/histories/conversation-<scenario>.json:
 *
 *   reply, handoff-resume, duplicates-opt-out, window-template, llm-failed, continue-as-new (the first
 *   run, ending in ContinuedAsNew), live-statuses (Twilio send, out-of-order callbacks, a refused send,
 *   a lost answer found again), web (the browser widget's chat, its messages logged for the stream),
 *   callback (the assistant promises a callback with `schedule_callback`), take-over (a person
 *   takes an open conversation over with `POST /v1/conversations/{id}/handoff`, and resumes it),
 *   lanes (a burst of three messages in the run's first task: the lanes' local activities one at a time),
 *   quiet-handoff (a hand-over with no text: the tool call recorded on the customer's message),
 *   v030-squad-continued (a conversation switched to a squad, handed off, continued as new; and the next
 *   run), v030-squad-agent-message (a squad's conversation whose squad stops answering when a message
 *   names an agent)
 *
 *   npm run record-histories   (records every workflow's histories)
 *
 * Conversations do not end on their own (they close after a week idle), so a history is taken while the
 * run waits for its next message. Until the first release no workflow runs in production, so the workflow
 * has no `patched()` gate and these files are simply recorded again after a change. From the first release
 * on, a change to the workflow gets its `patched(…)` gate and its histories new names beside the old
 * files, which running workflows must still replay and which are never overwritten.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { config, setConfig } from '../../src/config';
import { createKey } from '../../src/keys';
import {
  conversationInput,
  conversationWorkflowIds,
  ensureConversation,
  signalConversation,
} from '../../src/services/conversations';
import { newId } from '../../src/shared/ids';
import {
  CONVERSATION_WORKFLOW,
  conversationStateQuery,
  inboundSignal,
  SIMULATED_NUMBER,
  type Channel,
  type ConversationWorkflow,
} from '../../src/shared/conversations';
import { createWorker } from '../../src/worker/worker';
import { h, newTenant, request, startHarness, stopHarness } from './harness';
import { postAsTwilio, startFakeTwilio } from './fake-twilio';
import { customerNumber, eventually, inbound, sleep, waitForMessages } from './conversations';
import { startHttpsReceiver } from './https-receiver';
import { recordedTools } from './record-histories';

export const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

async function main(): Promise<void> {
  await startHarness();
  const fake = await startFakeTwilio();
  const receiver = await startHttpsReceiver();
  try {
    const t = await newTenant();
    const key = t.testKey;
    /** The workflow id of the conversation with `from` on `channel` (the number hashed, as the starters do). */
    const workflowOf = (from: string, channel: Channel, mode = 'test') =>
      conversationWorkflowIds({ orgId: t.orgId, livemode: mode === 'live', channel, customerNumber: from })[0];
    const idle = async (workflowId: string) => {
      await eventually(async () => {
        const s = await h().env.client.workflow.getHandle(workflowId).query(conversationStateQuery);
        return s.queued === 0 && s.unanswered === 0;
      }, `${workflowId} idle`);
      await sleep(500);
    };
    const send = (body: Record<string, unknown>, k = key) => request('POST', '/v1/messages', { key: k, body });

    const scenarios: Record<string, () => Promise<{ workflowId: string; runId?: string; next?: boolean }>> = {
      reply: async () => {
        const from = customerNumber();
        const m = await inbound(key, { channel: 'whatsapp', from, text: 'Hello' });
        await waitForMessages(key, m.body.conversation_id, 1, (x) => x.author === 'assistant');
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      // The assistant promises a callback (`schedule_callback`) in a WhatsApp conversation.
      callback: async () => {
        const from = customerNumber();
        await request('POST', `/v1/agents/${t.agentId}`, { key, body: { enabled_tools: ['schedule_callback'] } });
        const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
        const text = `TOOLSONCE ${JSON.stringify([['schedule_callback', { at: `${day}T11:00` }]])}`;
        const m = await inbound(key, { channel: 'whatsapp', from, text });
        await waitForMessages(key, m.body.conversation_id, 1, (x) => x.text.startsWith('Tools said:'));
        await request('POST', `/v1/agents/${t.agentId}`, { key, body: { enabled_tools: [] } });
        await idle(workflowOf(from, 'whatsapp'));
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      'handoff-resume': async () => {
        const from = customerNumber();
        const m = await inbound(key, {
          channel: 'whatsapp',
          from,
          text: 'TOOL handoff_to_person {"reason":"wants a person"}',
        });
        const conv = m.body.conversation_id;
        await eventually(
          async () => (await request('GET', `/v1/conversations/${conv}`, { key })).body.status === 'needs_person',
          'needs_person',
        );
        await inbound(key, { channel: 'whatsapp', from, text: 'Hello?' });
        await send({ channel: 'whatsapp', to: from, text: 'Hi, Sam here.' });
        await idle(workflowOf(from, 'whatsapp'));
        const resumed = await request('POST', `/v1/conversations/${conv}/resume`, { key });
        if (resumed.status !== 200) throw new Error(JSON.stringify(resumed.body));
        await inbound(key, { channel: 'whatsapp', from, text: 'Thanks' });
        await waitForMessages(key, conv, 2, (x) => x.author === 'assistant');
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      // The assistant hands over without a word: its tool call is recorded on the customer's message.
      'quiet-handoff': async () => {
        const from = customerNumber();
        const m = await inbound(key, {
          channel: 'whatsapp',
          from,
          text: 'TOOLQUIET handoff_to_person {"reason":"wants a person"}',
        });
        await eventually(
          async () =>
            (await request('GET', `/v1/conversations/${m.body.conversation_id}`, { key })).body.status ===
            'needs_person',
          'needs_person',
        );
        await idle(workflowOf(from, 'whatsapp'));
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      // A person takes an open conversation over (`POST /v1/conversations/{id}/handoff`, the `handoff`
      // update), replies, and gives it back.
      'take-over': async () => {
        const from = customerNumber();
        const m = await inbound(key, { channel: 'whatsapp', from, text: 'Hello' });
        const conv = m.body.conversation_id;
        await waitForMessages(key, conv, 1, (x) => x.author === 'assistant');
        await idle(workflowOf(from, 'whatsapp'));
        const taken = await request('POST', `/v1/conversations/${conv}/handoff`, { key, body: { reason: 'VIP' } });
        if (taken.status !== 200 || taken.body.status !== 'needs_person') throw new Error(JSON.stringify(taken.body));
        await send({ channel: 'whatsapp', to: from, text: 'Hi, Sam here.' });
        await idle(workflowOf(from, 'whatsapp'));
        const resumed = await request('POST', `/v1/conversations/${conv}/resume`, { key });
        if (resumed.status !== 200) throw new Error(JSON.stringify(resumed.body));
        await inbound(key, { channel: 'whatsapp', from, text: 'Thanks' });
        await waitForMessages(key, conv, 2, (x) => x.author === 'assistant');
        await idle(workflowOf(from, 'whatsapp'));
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      'duplicates-opt-out': async () => {
        const from = customerNumber();
        const first = await inbound(key, { channel: 'sms', from, text: 'Hi' });
        const doc = await ensureConversation(
          { orgId: t.orgId, livemode: false, channel: 'sms', customerNumber: from },
          { serviceNumber: SIMULATED_NUMBER, agentId: t.agentId },
        );
        const dup = {
          dedupeKey: 'twilio:SM' + '1'.repeat(32),
          from,
          to: SIMULATED_NUMBER,
          text: 'Twice',
          receivedMs: Date.now(),
          providerSid: 'SM' + '1'.repeat(32),
        };
        await Promise.all(
          [1, 2, 3].map(() =>
            signalConversation(h().env.client, doc, inboundSignal, { ...dup, messageId: newId('msg') }),
          ),
        );
        await waitForMessages(key, first.body.conversation_id, 2, (x) => x.author === 'assistant');
        await inbound(key, { channel: 'sms', from, text: 'STOP' });
        await inbound(key, { channel: 'sms', from, text: 'Are you there?' });
        await inbound(key, { channel: 'sms', from, text: 'START' });
        await inbound(key, { channel: 'sms', from, text: 'Back' });
        await waitForMessages(key, first.body.conversation_id, 3, (x) => x.author === 'assistant');
        return { workflowId: doc.key };
      },
      'window-template': async () => {
        const from = customerNumber();
        await inbound(key, {
          channel: 'whatsapp',
          from,
          text: 'Old',
          received_at: Math.floor(Date.now() / 1000) - 25 * 3600,
        });
        const res = await send({
          channel: 'whatsapp',
          to: from,
          template: { name: 'follow_up', language: 'en', parameters: ['Ana'] },
        });
        if (res.status !== 200) throw new Error(JSON.stringify(res.body));
        await idle(workflowOf(from, 'whatsapp'));
        return { workflowId: workflowOf(from, 'whatsapp') };
      },
      'llm-failed': async () => {
        const from = customerNumber();
        const m = await inbound(key, { channel: 'sms', from, text: 'FAIL 400' });
        await eventually(
          async () =>
            (await request('GET', `/v1/conversations/${m.body.conversation_id}`, { key })).body.status ===
            'needs_person',
          'needs_person',
        );
        await idle(workflowOf(from, 'sms'));
        return { workflowId: workflowOf(from, 'sms') };
      },
      'continue-as-new': async () => {
        const from = customerNumber();
        const doc = await ensureConversation(
          { orgId: t.orgId, livemode: false, channel: 'sms', customerNumber: from },
          { serviceNumber: SIMULATED_NUMBER, agentId: t.agentId },
        );
        const started = await h().env.client.workflow.start<ConversationWorkflow>(CONVERSATION_WORKFLOW, {
          workflowId: doc.key,
          taskQueue: h().taskQueue,
          args: [{ ...conversationInput(doc), continueAsNewAtHistoryLength: 40 }],
        });
        for (let i = 1; i <= 4; i++) {
          await inbound(key, { channel: 'sms', from, text: `line ${i}` });
          await waitForMessages(key, doc._id, i, (x) => x.author === 'assistant');
        }
        await idle(doc.key);
        return { workflowId: doc.key, runId: started.firstExecutionRunId };
      },
      'live-statuses': async () => {
        const saved = config();
        setConfig({
          ...saved,
          twilioAccountSid: fake.accountSid,
          twilioAuthToken: fake.authToken,
          twilioApiBaseUrl: fake.url,
          publicBaseUrl: h().api.url,
        });
        try {
          const service = customerNumber();
          await request('POST', '/v1/phone_numbers', {
            key: t.liveKey,
            body: { number: service, channels: ['whatsapp'] },
          });
          await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Live', instructions: 'Be brief.' } });
          const from = customerNumber();
          const post = async (p: string, params: Record<string, string>) => postAsTwilio(fake, p, params);
          const inboundParams = (text: string) => ({
            MessageSid: 'SM' + crypto.randomBytes(16).toString('hex'),
            From: `whatsapp:${from}`,
            To: `whatsapp:${service}`,
            Body: text,
            NumMedia: '0',
          });
          fake.lostResponses = 1;
          await post('/twilio/messaging', inboundParams('Hello'));
          const workflowId = workflowOf(from, 'whatsapp', 'live');
          await eventually(async () => fake.messages.some((m) => m.To === `whatsapp:${from}`), 'reply sent');
          await idle(workflowId);
          const reply = fake.messages.find((m) => m.To === `whatsapp:${from}`)!;
          const messageId = /status\/(msg_\w+)$/.exec(reply.StatusCallback)![1];
          for (const status of ['delivered', 'sent', 'read'])
            await post(`/twilio/messaging/status/${messageId}`, { MessageSid: reply.Sid, MessageStatus: status });
          fake.rejectMessagesTo.set(`whatsapp:${from}`, {
            status: 400,
            code: 63016,
            message: 'Outside the allowed window',
          });
          await post('/twilio/messaging', inboundParams('Again'));
          await eventually(
            async () =>
              (
                await request('GET', `/v1/conversations?customer_number=${encodeURIComponent(from)}`, {
                  key: t.liveKey,
                })
              ).body.data.length === 1,
            'conversation',
          );
          await idle(workflowId);
          return { workflowId };
        } finally {
          setConfig(saved);
        }
      },
      // The organization's tools in a WhatsApp conversation: one answering, one retried, one
      // refused, a slow one, and two at once.
      tools: async () => {
        const t2 = await newTenant();
        const toolIds = await recordedTools(t2.testKey, receiver);
        const agent = await request('POST', `/v1/agents/${t2.agentId}`, {
          key: t2.testKey,
          body: { tool_ids: toolIds },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        const from = customerNumber();
        for (const text of [
          'TOOLONCE lookup_order {"order_id":"A1"}',
          'TOOLONCE flaky_lookup {"order_id":"A2"}',
          'TOOLONCE missing_lookup {"order_id":"A3"}',
          'TOOLSONCE [["lookup_order",{"order_id":"A5"}],["slow_lookup",{"order_id":"A6"}]]',
        ]) {
          const m = await inbound(t2.testKey, { channel: 'whatsapp', from, text });
          if (m.status !== 200) throw new Error(JSON.stringify(m.body));
          await idle(
            conversationWorkflowIds({ orgId: t2.orgId, livemode: false, channel: 'whatsapp', customerNumber: from })[0],
          );
        }
        return {
          workflowId: conversationWorkflowIds({
            orgId: t2.orgId,
            livemode: false,
            channel: 'whatsapp',
            customerNumber: from,
          })[0],
        };
      },
      // A burst: three SMS delivered before the run's first workflow task, so the work lane stores them
      // back to back while the assistant lane wants the store for its turn. The lanes' local activities
      // run one at a time (src/workflows/conversation-session.ts `exclusive`): the three stores, then the
      // assistant's read, one turn answering all three. Code that ran the read beside the second store
      // schedules its local activities in another order and fails to replay this history. The run polls a
      // task queue of its own, whose worker starts only once the signals are in.
      lanes: async () => {
        const from = customerNumber();
        const doc = await ensureConversation(
          { orgId: t.orgId, livemode: false, channel: 'sms', customerNumber: from },
          { serviceNumber: SIMULATED_NUMBER, agentId: t.agentId },
        );
        const taskQueue = `record-lanes-${Date.now()}`;
        const handle = await h().env.client.workflow.start<ConversationWorkflow>(CONVERSATION_WORKFLOW, {
          workflowId: doc.key,
          taskQueue,
          args: [conversationInput(doc)],
        });
        for (const text of ['one', 'two', 'three']) {
          const messageId = newId('msg');
          const message = { messageId, dedupeKey: `msg:${messageId}`, from, to: SIMULATED_NUMBER, text };
          await handle.signal(inboundSignal, { ...message, receivedMs: Date.now(), providerSid: null });
        }
        const worker = await createWorker({
          connection: h().env.nativeConnection,
          workflowBundle: h().bundle,
          taskQueue,
        });
        await worker.runUntil(async () => {
          await waitForMessages(key, doc._id, 1, (x) => x.author === 'assistant');
          await idle(doc.key);
        });
        return { workflowId: doc.key };
      },
      // A conversation switched to a squad by `POST /v1/messages` `squad_id`, handed from reception to
      // booking, then continued as new: this run (the switch, the hand-off, the squad carried) and, in
      // `…-next`, the run it continued as (booking answering from the carried state).
      'v030-squad-continued': async () => {
        const agent = async (name: string) =>
          (await request('POST', '/v1/agents', { key, body: { name, instructions: `${name} prompt.` } })).body.id;
        const squad = await request('POST', '/v1/squads', {
          key,
          body: {
            name: 'Desk',
            members: [
              {
                name: 'reception',
                agent_id: await agent('Reception'),
                handoffs: [{ to: 'booking', description: 'Appointments.', context: 'all' }],
              },
              { name: 'booking', agent_id: await agent('Booking') },
            ],
            start: 'reception',
          },
        });
        if (squad.status !== 200) throw new Error(JSON.stringify(squad.body));
        const from = customerNumber();
        const doc = await ensureConversation(
          { orgId: t.orgId, livemode: false, channel: 'sms', customerNumber: from },
          { serviceNumber: SIMULATED_NUMBER, agentId: t.agentId },
        );
        const handle = await h().env.client.workflow.start<ConversationWorkflow>(CONVERSATION_WORKFLOW, {
          workflowId: doc.key,
          taskQueue: h().taskQueue,
          args: [{ ...conversationInput(doc), continueAsNewAtHistoryLength: 100 }],
        });
        await inbound(key, { channel: 'sms', from, text: 'Hello' });
        await waitForMessages(key, doc._id, 1, (x) => x.author === 'assistant');
        const switched = await send({
          channel: 'sms',
          to: from,
          text: 'Our desk takes over.',
          squad_id: squad.body.id,
        });
        if (switched.status !== 200) throw new Error(JSON.stringify(switched.body));
        await inbound(key, { channel: 'sms', from, text: 'HANDOFF booking' });
        await waitForMessages(key, doc._id, 1, (x) => x.author === 'handoff');
        await idle(doc.key);
        const handedRun = (await handle.describe()).runId;
        for (let n = 1; (await handle.describe()).runId === handedRun; n++) {
          if (n > 12) throw new Error('the run did not continue as new');
          await inbound(key, { channel: 'sms', from, text: `line ${n}` });
          await waitForMessages(key, doc._id, 1, (x) => x.text === `You said: line ${n}`);
        }
        await inbound(key, { channel: 'sms', from, text: 'Still there?' });
        await waitForMessages(key, doc._id, 1, (x) => x.text === 'You said: Still there?');
        await idle(doc.key);
        return { workflowId: doc.key, runId: handedRun, next: true };
      },
      // A squad's conversation (started by a message naming the squad) whose squad stops answering when a
      // message names its start member's agent (`PATCHES.messageAgentEndsSquad`); the agent answers alone.
      'v030-squad-agent-message': async () => {
        const agentId = (await request('POST', '/v1/agents', { key, body: { name: 'Front', instructions: 'Front.' } }))
          .body.id;
        const squad = await request('POST', '/v1/squads', {
          key,
          body: {
            name: 'Front desk',
            members: [
              {
                name: 'front',
                agent_id: agentId,
                handoffs: [{ to: 'back', description: 'Anything else.', context: 'all' }],
              },
              { name: 'back', agent_id: t.agentId },
            ],
            start: 'front',
          },
        });
        if (squad.status !== 200) throw new Error(JSON.stringify(squad.body));
        const from = customerNumber();
        const first = await send({ channel: 'sms', to: from, text: 'The desk is here.', squad_id: squad.body.id });
        if (first.status !== 200) throw new Error(JSON.stringify(first.body));
        const named = await send({ channel: 'sms', to: from, text: 'Front only now.', agent_id: agentId });
        if (named.status !== 200) throw new Error(JSON.stringify(named.body));
        await inbound(key, { channel: 'sms', from, text: 'Anyone there?' });
        await waitForMessages(key, first.body.conversation_id, 1, (x) => x.text === 'You said: Anyone there?');
        const workflowId = conversationWorkflowIds({
          orgId: t.orgId,
          livemode: false,
          channel: 'sms',
          customerNumber: from,
        })[0];
        await idle(workflowId);
        return { workflowId };
      },
      web: async () => {
        // The browser widget's chat: two visitor messages and their answers, each logged for the stream.
        const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
        const visitor = `record-${Date.now()}`;
        const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: visitor } });
        if (session.status !== 200) throw new Error(JSON.stringify(session.body));
        for (const text of ['Hello from the web', 'Do you open on Saturdays?']) {
          const res = await request('POST', '/v1/widget/messages', { key: session.body.token, body: { text } });
          if (res.status !== 200) throw new Error(JSON.stringify(res.body));
          await waitForMessages(
            key,
            session.body.conversation_id,
            1,
            (x) => x.author === 'assistant' && x.text.endsWith(text),
          );
        }
        const workflowId = workflowOf(`visitor:${visitor}`, 'web');
        await idle(workflowId);
        return { workflowId };
      },
    };

    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    const only = process.argv.slice(2);
    for (const [name, run] of Object.entries(scenarios)) {
      if (only.length && !only.includes(name)) continue;
      const { workflowId, runId, next } = await run();
      // `next`: the run `runId` continued as (the current one) too, as `<name>-next`.
      for (const [file, run] of [
        [`conversation-${name}.json`, runId],
        ...(next ? [[`conversation-${name}-next.json`, undefined]] : []),
      ] as [string, string | undefined][]) {
        const history = JSON.parse(
          historyToJSON(await h().env.client.workflow.getHandle(workflowId, run).fetchHistory()),
        );
        fs.writeFileSync(path.join(HISTORIES_DIR, file), JSON.stringify(history, null, 1) + '\n');
        console.log(`${name}: ${workflowId}, ${history.events.length} events → ${file}`);
      }
    }
  } finally {
    await fake.close();
    await receiver.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
