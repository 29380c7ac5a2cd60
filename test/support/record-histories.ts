/**
 * Records `callWorkflow` histories from real runs, for the replay tests (test/replay/replay.test.ts).
 * Starts the same harness as the tests (real Temporal dev server and FerretDB), drives one call per way a
 * call can end through the API, and writes each history as JSON to
 * test/replay/histories/call-<name>.json (call-<VERSION>-<name>.json once VERSION is set).
 * Inbound calls and the concurrency limit: `inbound` (a test-mode inbound call that talks and
 * ends), `queued` (an outbound call that waited in line for its organization's one slot: its history has
 * the `slotGranted` signal), `inbound-refused` (an inbound call refused at the limit, `concurrency_limit`)
 * and `slots` (the `callSlotsWorkflow` of an organization with limit 1 after a queued and a refused call;
 * it never completes, so its history is written as it stands once no call holds or waits for a slot).
 * Scheduled calls: `scheduled` (dialed when its test clock reaches its time) and
 * `scheduled-canceled` (ended through the API while it waits); `callback` (a call whose assistant promises a
 * callback with `schedule_callback`, then moves it).
 *
 *   npm run record-histories                                      # every scenario
 *   npm run build && node dist/test/support/record-histories.js api-   # only the scenarios named api-…
 *   node dist/test/support/record-histories.js inbound     # (built) inbound and inbound-refused
 *   node dist/test/support/record-histories.js queued      # (built) queued; likewise `slots`
 *   node dist/test/support/record-histories.js scheduled   # (built) scheduled and scheduled-canceled
 *
 * (`npm run record-histories -- api-` would hand the prefix to the last of its recorders only.)
 * It records what the current code does. Workflows run across deploys (README, "Changing a workflow"):
 * a change gets a `patched(…)` gate and its scenarios are recorded beside the old files with VERSION in
 * their name (`call-v030-<name>.json`), recording only the scenarios the change touches (a name prefix
 * argument); the old files are never overwritten: running workflows must still replay them.
 * Voicemail: `voicemail` (a simulated machine, `simulation.outcome: "voicemail"`, greets and
 * beeps; the agent's `leave_message` leaves its message), `voicemail-hang-up` (the call's own setting
 * `hang_up`) and `voicemail-human` (detection on, a person answers: `answered_by: "human"`):
 *
 *   node dist/test/support/record-histories.js voicemail   # (built) the three voicemail scenarios
 *   node dist/test/support/record-histories.js warm-transfer   # (built) warm-transfer and warm-transfer-failed
 *
 * `interrupted` (a call whose caller talks over the first answer: the `interrupted` signal, sent
 * as a live relay would, cuts the recorded turn; the assistant then presses keys with `send_dtmf`,
 * recorded without a relay in test mode):
 *
 *   node dist/test/support/record-histories.js interrupted   # (built)
 *
 * Steering: `steered` (a test call given a `context` note, a `say` line at the pause and one
 * with `interrupt`).
 *
 * Squads: `squad` (a squad's call handed through three members, one hand-off per context policy).
 *
 * For a call that continued as new, the first run's history is written (the one that decided to).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import { setOrgCallLimit } from '../../src/services/limits';
import { callSlotsWorkflowId, slotsQuery } from '../../src/shared/call-slots';
import { interruptedSignal } from '../../src/shared/calls';
import { h, newTenant, request, startHarness, stopHarness, waitForCall } from './harness';
import { startHttpsReceiver, type HttpsReceiver } from './https-receiver';

/** The deployment version the current code records (see the header): `v030`, svc-assistant 0.3.0. */
const VERSION: string | null = 'v030';

export const HISTORIES_DIR = path.resolve(__dirname, '../../../test/replay/histories');

/**
 * Http tools of the tenant answering from `receiver`: `lookup_order` (200 JSON),
 * `flaky_lookup` (503 twice, then 200), `missing_lookup` (404), `slow_lookup` (1.5 s, with
 * `speak_while_running`); answers their ids. Shared by the call and conversation recorders.
 */
export async function recordedTools(key: string, receiver: HttpsReceiver): Promise<string[]> {
  const parameters = {
    type: 'object',
    properties: { order_id: { type: 'string', pattern: '^[A-Z][0-9]+$' } },
    required: ['order_id'],
  };
  receiver.route('/lookup', (req) => ({ status: 200, body: JSON.stringify({ order: req.body?.arguments?.order_id }) }));
  receiver.route('/flaky', (_req, n) => (n % 3 === 0 ? { status: 200, body: 'found' } : { status: 503 }));
  receiver.route('/missing', () => ({ status: 404, body: '{"error":"no such order"}' }));
  receiver.route('/slow', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    return { status: 200, body: 'slow but found' };
  });
  const ids: string[] = [];
  for (const [name, pathname, extra] of [
    ['lookup_order', '/lookup', {}],
    ['flaky_lookup', '/flaky', { timeout_ms: 10_000 }],
    ['missing_lookup', '/missing', {}],
    ['slow_lookup', '/slow', { speak_while_running: 'Let me check that for you.' }],
  ] as const) {
    const res = await request('POST', '/v1/tools', {
      key,
      body: { type: 'http', name, description: `${name}.`, parameters, url: receiver.url(pathname), ...extra },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids.push(res.body.id);
  }
  return ids;
}

/**
 * A scenario's outcome: the call whose `callWorkflow` history is recorded (its id, of the shared tenant;
 * or with the key of its own organization), or a workflow that stays open (recorded as it stands).
 */
type Recorded = string | { callId: string; key: string } | { openWorkflowId: string };

/** Places a test-mode call for `key`'s organization (its agent `agentId`); answers the call id. */
async function placeCall(key: string, agentId: string, body: Record<string, unknown>): Promise<string> {
  const res = await request('POST', '/v1/calls', {
    key,
    body: { to: '+14155550123', agent_id: agentId, metadata: { recorded: 'yes' }, ...body },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}

/** A test-mode inbound call from `from` to the simulated number, the caller saying `caller`; answers the call id. */
async function simulateInboundCall(key: string, from: string, caller: string[]): Promise<string> {
  const res = await request('POST', '/v1/test_helpers/inbound_calls', { key, body: { from, simulation: { caller } } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}

/**
 * A new organization whose test mode takes one call at a time (`setOrgCallLimit`), with
 * a first call live (four caller lines 1 s apart: about 4 s); answers its key, agent and that call.
 */
async function oneLineBusy(): Promise<{ key: string; orgId: string; agentId: string; firstId: string }> {
  const t = await newTenant({ first_message: 'Hello, this is a recorded call.' });
  await setOrgCallLimit(t.orgId, 'test', 1);
  const firstId = await placeCall(t.testKey, t.agentId, {
    simulation: { caller: ['One', 'Two', 'Three', 'Four'], pause_seconds: 1 },
  });
  await waitForCall(t.testKey, firstId, (c) => c.status === 'in_progress');
  return { key: t.testKey, orgId: t.orgId, agentId: t.agentId, firstId };
}

/** An outbound call placed while `busy`'s one slot is taken: it waits `queued`; answers its id. */
async function placeQueuedCall(busy: { key: string; agentId: string }): Promise<string> {
  const id = await placeCall(busy.key, busy.agentId, { simulation: { caller: ['Hello after the wait', 'Bye'] } });
  const res = await request('GET', `/v1/calls/${id}`, { key: busy.key });
  if (res.body.status !== 'queued') throw new Error(`expected a queued call, got ${JSON.stringify(res.body)}`);
  return id;
}

/** An inbound call while `busy`'s one slot is taken: refused (`busy`, `concurrency_limit`); answers its id. */
async function refusedInboundCall(busy: { key: string }): Promise<string> {
  const id = await simulateInboundCall(busy.key, '+14155550177', ['Hello?']);
  const call = await waitForCall(busy.key, id);
  if (call.end_reason !== 'concurrency_limit') throw new Error(`expected a refused call, got ${JSON.stringify(call)}`);
  return id;
}

/** An agent of `key`'s organization that detects machines and leaves a message; answers its id. */
async function voicemailAgent(key: string): Promise<string> {
  const res = await request('POST', '/v1/agents', {
    key,
    body: {
      name: 'Voicemail agent',
      instructions: 'You remind people of appointments.',
      first_message: 'Hello, this is a recorded call.',
      voicemail: { detection: true, action: 'leave_message', message: 'Please call Acme Dental back.' },
    },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.id as string;
}

/** The history event a settled workflow's history ends with. */
const TASK_COMPLETED = temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED;

/**
 * Waits until the semaphore `workflowId` has no holder and no waiting call and its last workflow task
 * completed (the history then ends where the replayer can take it), at most `timeoutMs`.
 */
async function waitForIdleSlots(workflowId: string, timeoutMs = 60_000): Promise<void> {
  const handle = h().env.client.workflow.getHandle(workflowId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await handle.query(slotsQuery);
    const events = (await handle.fetchHistory()).events ?? [];
    const last = events[events.length - 1]?.eventType;
    if (state.holders.length === 0 && state.queue.length === 0 && last === TASK_COMPLETED) return;
    if (Date.now() > deadline)
      throw new Error(`${workflowId} still busy: ${JSON.stringify(state)}, last event ${last}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main(): Promise<void> {
  await startHarness();
  const receiver = await startHttpsReceiver();
  try {
    const t = await newTenant({ first_message: 'Hello, this is a recorded call.', transfer_to: '+14155550199' });
    const place = (body: Record<string, unknown>) => placeCall(t.testKey, t.agentId, body);
    const scenarios: Record<string, () => Promise<Recorded>> = {
      'assistant-ended': async () =>
        place({
          context: { name: 'Ana' },
          simulation: { caller: ['Hi', 'TOOL transfer_call {"to":"nowhere"}', 'TOOL end_call {}'] },
        }),
      'caller-hung-up': async () => place({ simulation: { caller: ['One', 'Two', 'Three'] } }),
      'tool-transfer': async () => place({ simulation: { caller: ['TOOL transfer_call {}'] } }),
      busy: async () => place({ simulation: { outcome: 'busy' } }),
      'no-answer': async () => place({ simulation: { outcome: 'no_answer', ring_seconds: 1 } }),
      'max-duration': async () =>
        place({ max_duration_seconds: 2, simulation: { caller: Array(10).fill('talking'), pause_seconds: 1 } }),
      'llm-failed': async () => place({ simulation: { caller: ['FAIL 400'] } }),
      'deadline-failed': async () => place({ simulation: { caller: ['SLOW 10000'] } }),
      'api-end': async () => {
        const id = await place({ simulation: { caller: ['a', 'b', 'c'], pause_seconds: 5 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        await request('POST', `/v1/calls/${id}/end`, { key: t.testKey });
        return id;
      },
      // A run holds at most 500 local turns: 260 exchanges cross it.
      'api-transfer': async () => {
        const id = await place({ simulation: { caller: ['a', 'b', 'c'], pause_seconds: 5 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        await request('POST', `/v1/calls/${id}/transfer`, { key: t.testKey, body: { to: '+14155550100' } });
        return id;
      },
      // A warm transfer through the API, the person answering (the model writes the summary).
      'warm-transfer': async () => {
        const id = await place({
          simulation: { caller: ['I need a person', 'b', 'c'], pause_seconds: 5, transfer: { answer: 'answered' } },
        });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress' && c.transfer === null);
        await new Promise((r) => setTimeout(r, 6000)); // after the first line
        await request('POST', `/v1/calls/${id}/transfer`, {
          key: t.testKey,
          body: { to: '+14155550100', mode: 'warm' },
        });
        return id;
      },
      // `transfer_call` of an agent with `transfer_mode: "warm"`; nobody answers, the assistant goes on.
      'warm-transfer-failed': async () => {
        const agent = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: { name: 'Warm', instructions: 'Transfer warm.', transfer_to: '+14155550199', transfer_mode: 'warm' },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        return placeCall(t.testKey, agent.body.id, {
          simulation: {
            caller: ['TOOL transfer_call {}', 'Then you help me'],
            transfer: { answer: 'no_answer', after_seconds: 2 },
          },
        });
      },
      'search-knowledge': async () => {
        const doc = await request('POST', '/v1/knowledge', {
          key: t.testKey,
          body: {
            agent_id: t.agentId,
            title: 'Refunds',
            text: 'Bicycles may be returned within 45 days for a full refund.',
          },
        });
        if (doc.status !== 200) throw new Error(JSON.stringify(doc.body));
        await request('POST', '/v1/contacts', {
          key: t.testKey,
          body: { phone: '+14155550124', name: 'Recorded Contact' },
        });
        await request('POST', '/v1/records', {
          key: t.testKey,
          body: { contact: { phone: '+14155550124' }, records: [{ text: 'Bought a bicycle.' }] },
        });
        return place({
          to: '+14155550124',
          simulation: {
            caller: [
              'Can I return my bicycle?',
              'TOOLONCE search_knowledge {"query":"refund days"}',
              'TOOL end_call {}',
            ],
          },
        });
      },
      'canceled-while-ringing': async () => {
        const id = await place({ simulation: { ring_seconds: 30 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'ringing');
        await request('POST', `/v1/calls/${id}/end`, { key: t.testKey });
        return id;
      },
      // A squad's call: reception hands to booking (context "all"), booking to billing ({last: 2}),
      // billing back to reception ("summary": the summary activity), which answers the last line.
      squad: async () => {
        const members = [];
        for (const [name, instructions, to, context] of [
          ['reception', 'You are the receptionist.', 'booking', 'all'],
          ['booking', 'You book appointments.', 'billing', { last: 2 }],
          ['billing', 'You answer billing questions.', 'reception', 'summary'],
        ] as const) {
          const agent = await request('POST', '/v1/agents', { key: t.testKey, body: { name, instructions } });
          if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
          members.push({
            name,
            agent_id: agent.body.id as string,
            handoffs: [{ to, description: `Hand the caller to ${to}.`, context }],
          });
        }
        const squad = await request('POST', '/v1/squads', {
          key: t.testKey,
          body: { name: 'Recorded squad', start: 'reception', members },
        });
        if (squad.status !== 200) throw new Error(JSON.stringify(squad.body));
        return place({
          agent_id: undefined,
          squad_id: squad.body.id,
          simulation: { caller: ['Hello.', 'HANDOFF booking', 'HANDOFF billing', 'HANDOFF reception', 'Bye.'] },
        });
      },
      'continued-as-new': async () =>
        place({ simulation: { caller: Array.from({ length: 260 }, (_, i) => `line ${i}`) } }),
      // The organization's tools: an http tool answering, one retried after a 503, one refused
      // (404), arguments refused before any request, a slow one said `speak_while_running` for, and two
      // called at once.
      'custom-tools': async () => {
        const agent = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: {
            name: 'Agent with tools',
            instructions: 'You look up orders.',
            tool_ids: await recordedTools(t.testKey, receiver),
          },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        const agentId = agent.body.id as string;
        return place({
          agent_id: agentId,
          simulation: {
            caller: [
              'TOOLONCE lookup_order {"order_id":"A1"}',
              'TOOLONCE flaky_lookup {"order_id":"A2"}',
              'TOOLONCE missing_lookup {"order_id":"A3"}',
              'TOOLONCE lookup_order {"order_id":"bad"}',
              'TOOLONCE slow_lookup {"order_id":"A4"}',
              'TOOLSONCE [["lookup_order",{"order_id":"A5"}],["slow_lookup",{"order_id":"A6"}]]',
            ],
          },
        });
      },
      // Inbound calls and the concurrency limit: see the header.
      inbound: async () =>
        simulateInboundCall(t.testKey, '+14155550178', ['Hi, are you open on Saturday?', 'Great, thank you. Bye!']),
      queued: async () => {
        const busy = await oneLineBusy();
        return { callId: await placeQueuedCall(busy), key: busy.key };
      },
      'inbound-refused': async () => {
        const busy = await oneLineBusy();
        return { callId: await refusedInboundCall(busy), key: busy.key };
      },
      // Voicemail: see the header.
      voicemail: async () =>
        place({
          agent_id: await voicemailAgent(t.testKey),
          simulation: { outcome: 'voicemail', caller: ['You reached Sam.', 'Leave a message after the tone.'] },
        }),
      'voicemail-hang-up': async () =>
        place({
          agent_id: await voicemailAgent(t.testKey),
          voicemail: { detection: true, action: 'hang_up' },
          simulation: { outcome: 'voicemail', ring_seconds: 1 },
        }),
      'voicemail-human': async () =>
        place({ agent_id: await voicemailAgent(t.testKey), simulation: { caller: ['Hello?', 'Bye'] } }),
      slots: async () => {
        const busy = await oneLineBusy();
        const queuedId = await placeQueuedCall(busy);
        await refusedInboundCall(busy);
        await waitForCall(busy.key, queuedId, undefined, 60_000);
        return { openWorkflowId: callSlotsWorkflowId(busy.orgId, false) };
      },
      // Scheduled calls: one dialed when its test clock reaches its time (`advanceClock`, after
      // a first advance that stays before it), one canceled while it waits.
      scheduled: async () => {
        const at = Math.floor(Date.now() / 1000) + 3600;
        const id = await place({ scheduled_at: at, simulation: { caller: ['Hi, you scheduled this call.', 'Bye'] } });
        await waitForCall(t.testKey, id, (c) => c.status === 'scheduled');
        for (const to of [at - 60, at]) {
          const res = await request('POST', `/v1/test_helpers/calls/${id}/advance_clock`, {
            key: t.testKey,
            body: { to },
          });
          if (res.status !== 200) throw new Error(JSON.stringify(res.body));
        }
        return id;
      },
      // The assistant promises a callback (`schedule_callback`), then moves it (the first canceled).
      callback: async () => {
        const agent = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: { name: 'Callback desk', instructions: 'Offer callbacks.', enabled_tools: ['schedule_callback'] },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
        const ask = (at: string) => `TOOLSONCE ${JSON.stringify([['schedule_callback', { at, reason: 'recorded' }]])}`;
        return place({
          agent_id: agent.body.id,
          simulation: { caller: [ask(`${day}T10:00`), ask(`${day}T15:30`), 'Thanks, bye'] },
        });
      },
      // The caller talks over the first answer (the signal a live relay sends; the answer's
      // turn is recorded by then, so it is rewritten), then the assistant presses keys (`send_dtmf`).
      interrupted: async () => {
        const agent = await request('POST', '/v1/agents', {
          key: t.testKey,
          body: { name: 'Menu desk', instructions: 'Navigate menus.', enabled_tools: ['send_dtmf'] },
        });
        if (agent.status !== 200) throw new Error(JSON.stringify(agent.body));
        const id = await place({
          agent_id: agent.body.id,
          simulation: { caller: ['Tell me everything', 'TOOLONCE send_dtmf {"digits":"1w2#"}'], pause_seconds: 3 },
        });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        // After the first answer (1 pause), before the second line (2 pauses).
        await new Promise((r) => setTimeout(r, 4500));
        await h().env.client.workflow.getHandle(id).signal(interruptedSignal, { spoken: 'You said:', durationMs: 600 });
        return id;
      },
      // Steering: a note, a line at the pause and one at once, on a test call.
      steered: async () => {
        const id = await place({ simulation: { caller: ['a', 'b', 'c'], pause_seconds: 2 } });
        await waitForCall(t.testKey, id, (c) => c.status === 'in_progress');
        const steer = (path: string, body: unknown) =>
          request('POST', `/v1/calls/${id}/${path}`, { key: t.testKey, body });
        await steer('context', { note: 'The caller is a VIP.' });
        await steer('say', { text: 'A colleague will call you back.' });
        await steer('say', { text: 'Please hold.', interrupt: true });
        return id;
      },
      'scheduled-canceled': async () => {
        const id = await place({ scheduled_at: Math.floor(Date.now() / 1000) + 3600 });
        await waitForCall(t.testKey, id, (c) => c.status === 'scheduled');
        await request('POST', `/v1/calls/${id}/end`, { key: t.testKey });
        return id;
      },
    };
    const only = process.argv[2] ?? '';
    fs.mkdirSync(HISTORIES_DIR, { recursive: true });
    for (const [name, run] of Object.entries(scenarios)) {
      if (!name.startsWith(only)) continue;
      const recorded = await run();
      let handle: WorkflowHandle;
      let outcome: string;
      if (typeof recorded === 'object' && 'openWorkflowId' in recorded) {
        await waitForIdleSlots(recorded.openWorkflowId);
        handle = h().env.client.workflow.getHandle(recorded.openWorkflowId);
        outcome = `${recorded.openWorkflowId} open`;
      } else {
        const { callId: id, key } = typeof recorded === 'string' ? { callId: recorded, key: t.testKey } : recorded;
        const call = await waitForCall(key, id, undefined, 120_000);
        handle = h().env.client.workflow.getHandle(id);
        await handle.result();
        for await (const r of h().env.client.workflow.list({
          query: `WorkflowId = '${id}' AND ExecutionStatus = 'ContinuedAsNew'`,
        })) {
          handle = h().env.client.workflow.getHandle(id, r.runId); // the (last) run that continued as new
        }
        outcome = `${id} ended ${call.status}/${call.end_reason}`;
      }
      // proto3 JSON, the form Worker.runReplayHistories reads (as `temporal workflow show --output json`).
      const history = JSON.parse(historyToJSON(await handle.fetchHistory()));
      const file = path.join(HISTORIES_DIR, `call-${VERSION ? `${VERSION}-` : ''}${name}.json`);
      fs.writeFileSync(file, JSON.stringify(history, null, 1) + '\n');
      console.log(`${name}: ${outcome}, ${history.events.length} events → ${path.relative(process.cwd(), file)}`);
    }
  } finally {
    await receiver.close();
    await stopHarness();
  }
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
