/**
 * Scale benchmark (not a timed test): does the cost of one request depend on how much
 * other data the store holds? Starts the test harness (real Temporal dev server and FerretDB, one worker,
 * the API, the instant loopback LLM), the Twilio-shaped loopback server and an HTTPS webhook receiver;
 * makes one organization with a realistic history of its own (a few hundred calls with their turns,
 * conversations, contacts with records, usage rows, events…: test/support/scale-fill.ts at
 * `OWN_FRACTION` of the full plan) and measures each figure below on that otherwise EMPTY store; then
 * fills the store with twenty OTHER organizations' data (test/support/scale-fill.ts `FULL_PLAN`: 200,000
 * transcript turns, 20,000 calls, 50,000 messages, 100,000 usage rows, 10,000 contacts with 30,000
 * records, 10,000 knowledge chunks, 50,000 events, 20,000 webhook deliveries with 40,000 attempts,
 * 10,000 widget log entries, 10,000 campaign result rows), written in batches through the models, not
 * the API, and measures again in the same run:
 *
 *   - the per-turn gap of a simulated call (LLM answer → the call's next LLM request), p50 and p99
 *   - inbound WhatsApp → the assistant's reply at Twilio (signed `POST /twilio/messaging`), p50
 *   - `GET /v1/calls` (first page), `GET /v1/calls/{id}/transcript` (a 10-turn call), p50
 *   - `GET /v1/conversations` and `GET /v1/conversations/{id}/messages`, p50
 *   - `GET /v1/contacts` and `GET /v1/contacts/{id}/records`, p50
 *   - `GET /v1/usage` for the current month, `GET /v1/events` (first page), p50
 *   - the widget stream's resume (`GET /v1/widget/stream?last_event_id=2` → the first event), p50, on a
 *     session opened (two messages answered) before the first phase
 *   - a webhook retry: the endpoint answers 503 to the first attempt; attempt 1's answer → attempt 2's
 *     arrival, less the retry interval (`webhookRetryInitialIntervalMs`), p50
 *
 * and prints a table: figure, empty, filled, ratio (filled/empty), and whether it meets the goal
 * (ratio ≤ 1.5, or within 10 ms of the empty figure). Each request figure is the median of up to
 * BENCH_REPS (default 15) requests, fewer when BENCH_FIGURE_BUDGET_MS (default 20000) has passed (at least
 * one): on a store that scans, one request can take seconds. A figure that fails (a reply later than
 * BENCH_REPLY_TIMEOUT_MS, default 180000) is printed as failed, with its reason; the others are measured.
 *
 * Options: `--quick` (a tenth of the fill, for a smoke run), `--scale=<fraction>` (any fraction of the
 * fill), `--fill-only` (fill, print the counts and the fill's rate, measure nothing). Loopback only; on a
 * machine shared with other work the figures are inflated by it.
 *
 * `--hold`: after the fill, waits until a file it names exists before measuring (fill at low priority beside other work,
 * measure when the machine is quiet).
 *
 * `--own <N>`: the second phase fills the MEASURED organization itself instead of other ones, with N calls
 * and the rest of the full plan in proportion (N = 20,000 is the full plan: 200,000 turns, 50,000
 * messages…), so that the table compares an empty tenant with a filled one: the question is whether a
 * tenant's reads stay as fast as its own data grows (lists must read a page, not the tenant's rows).
 * The empty tenant is a second organization with the same history of its own and nothing more, measured
 * right before the filled one (same store, same load). The calls list is also measured on a later page (`starting_after` the middle call) and at p95.
 *
 *   npm run bench:scale
 *   npm run bench:scale -- --quick
 *   npm run bench:scale -- --own 100000
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { config, setConfig } from '../src/config';
import { createKey } from '../src/keys';
import { Call, CallTurn } from '../src/models/calls';
import { Contact, ContactRecord } from '../src/models/contacts';
import { Conversation } from '../src/models/conversations';
import { BulkCall } from '../src/models/bulk-calls';
import { TestSuiteRun } from '../src/models/test-suites';
import { WebhookAttempt, WebhookEndpoint } from '../src/models/webhooks';
import { emitEvent } from '../src/services/events';
import { setOrgCallLimit } from '../src/services/limits';
import { newId } from '../src/shared/ids';
import { conversationWorkflowId } from '../src/shared/conversations';
import { signedAsTwilio, startFakeTwilio, type FakeTwilio } from '../test/support/fake-twilio';
import { h, newTenant, request, startHarness, stopHarness } from '../test/support/harness';
import { startHttpsReceiver, type HttpsReceiver } from '../test/support/https-receiver';
import {
  FULL_PLAN,
  fillStore,
  otherTenants,
  scaledPlan,
  type FillCounts,
  type FillTenant,
} from '../test/support/scale-fill';
import { readStream } from '../test/support/widget';
import { percentile, turnGaps } from './stats';

/** The measured organization's own history: this fraction of the full plan (300 calls, 3,000 turns…). */
const OWN_FRACTION = 0.015;
/**
 * `--own`: the first phone number / external id the second fill of the measured organization uses, past
 * those of its own history (unique per tenant: contacts and conversation keys).
 */
const OWN_FILL_FIRST_KEY = 1_000_000;
/** How many other organizations the fill is shared among (half of them in live mode). */
const OTHER_ORGS = 20;
const TERMINAL = ['completed', 'transferred', 'busy', 'no_answer', 'failed', 'canceled'];

const num = (name: string, fallback: number) => Math.max(1, Number(process.env[name] ?? fallback));
/** How long a reply (WhatsApp, the widget's answers, a webhook's retry) may take before the figure fails (ms). */
const replyLimitMs = () => num('BENCH_REPLY_TIMEOUT_MS', 180_000);

const round = (x: number) => Math.round(x * 10) / 10;
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
const progress = (what: string) => process.stderr.write(`${new Date().toISOString()} ${what}\n`);

/** What a measurement needs: the measured organization's keys and the things it reads. */
interface Subject {
  testKey: string;
  agentId: string;
  /** A widget session whose stream holds four events (two messages and their answers), opened before the empty phase. */
  widgetToken: string;
  fake: FakeTwilio;
  receiver: HttpsReceiver;
  orgId: string;
  whatsappNumber: string;
  /** The receiver's path of the tenant's webhook endpoint (its first attempt is answered 503). */
  retryPath: string;
  callId: string;
  conversationId: string;
  contactId: string;
}

/** One phase's figures by name (in the order printed): ms, or NaN with the error that stopped the figure. */
type Figures = Record<string, { ms: number; error?: string }>;

/**
 * Runs `once` (which returns its own duration in ms, or nothing to be timed whole) up to `BENCH_REPS`
 * times, at least once, until the figure's time budget is spent; returns the durations.
 */
async function sample(once: () => Promise<number | void>): Promise<number[]> {
  const reps = num('BENCH_REPS', 15);
  const budget = num('BENCH_FIGURE_BUDGET_MS', 20_000);
  const started = performance.now();
  const out: number[] = [];
  while (out.length < reps && (out.length < 1 || performance.now() - started < budget)) {
    const t0 = performance.now();
    const measured = await once();
    out.push(typeof measured === 'number' ? measured : performance.now() - t0);
  }
  return out;
}

/** A GET of the API that must answer 200; its duration is the sample. */
const get = (key: string, path: string) => async () => {
  const res = await request('GET', path, { key });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
};

/**
 * Waits until call `id` has ended, polled by exact `_id` (the one lookup every store serves by index: a
 * poll that scanned would load the store it measures).
 */
async function waitUntilEnded(id: string, deadlineMs: number): Promise<void> {
  for (;;) {
    const doc = await Call.findById(id, { status: 1 }).lean();
    if (doc && TERMINAL.includes(doc.status)) return;
    if (Date.now() > deadlineMs) throw new Error(`call ${id} still open after the time limit`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One signed inbound WhatsApp message from `from`; resolves with the time until the reply reached Twilio (ms). */
async function whatsappExchange(s: Subject, from: string, text: string): Promise<number> {
  const url = h().api.url + '/twilio/messaging';
  const params = {
    MessageSid: 'SM' + crypto.randomBytes(16).toString('hex'),
    From: `whatsapp:${from}`,
    To: `whatsapp:${s.whatsappNumber}`,
    Body: text,
    NumMedia: '0',
  };
  const replied = new Promise<number>((resolve, reject) => {
    const limit = replyLimitMs();
    const timer = setTimeout(() => reject(new Error(`no reply to ${from} within ${limit} ms`)), limit);
    s.fake.onMessage = (m) => {
      if (m.To === `whatsapp:${from}`) (clearTimeout(timer), resolve(Number(m.AtMs)));
    };
  });
  // Signed by the account holding the number (the organization's subaccount, as Twilio signs its webhooks).
  const signed = await signedAsTwilio(s.fake, url, params);
  const t0 = Date.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Twilio-Signature': signed.signature },
    body: new URLSearchParams(signed.params).toString(),
  });
  const answer = await res.text();
  if (res.status !== 200) {
    replied.catch(() => undefined); // its timer fires later: no reply is coming
    throw new Error(`webhook answered ${res.status}: ${answer}`);
  }
  return (await replied) - t0;
}

/** Opens a widget session, sends two messages and waits for their answers: a stream of four events. */
async function widgetSession(pk: string): Promise<string> {
  const session = await request('POST', '/v1/widget/session', { key: pk, body: { visitor_id: newId('v') } });
  if (session.status !== 200) throw new Error(`widget session: ${JSON.stringify(session.body)}`);
  const token = session.body.token as string;
  for (const text of ['Do you open on Saturdays?', 'And on Sundays?']) {
    const sent = await request('POST', '/v1/widget/messages', {
      headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': newId('idem') },
      body: { text },
    });
    if (sent.status !== 200) throw new Error(`widget message: ${JSON.stringify(sent.body)}`);
  }
  const read = await readStream(`${h().api.url}/v1/widget/stream?token=${token}`, {
    stop: (events) => events.length >= 4,
    timeoutMs: replyLimitMs(),
  });
  if (read.events.length < 4) throw new Error(`widget stream: ${read.events.length} events, not 4`);
  return token;
}

/** A webhook retry: attempt 1 answered 503 → attempt 2 arrives; that gap less the retry interval (ms). */
async function webhookRetry(s: Subject): Promise<number> {
  const id = newId('evt');
  await emitEvent(h().env.client, {
    id,
    orgId: s.orgId,
    livemode: false,
    type: 'recording.ready',
    createdMs: Date.now(),
    object: { id: newId('rec'), object: 'recording', metadata: {} },
  });
  await s.receiver.waitFor(
    (r) => r.some((x) => x.eventId === id && x.attempt === 2),
    replyLimitMs(),
    `event ${id}'s retry`,
  );
  const attempts = s.receiver.at(s.retryPath).filter((x) => x.eventId === id);
  const first = attempts.find((x) => x.attempt === 1)!;
  const second = attempts.find((x) => x.attempt === 2)!;
  return second.receivedMs - first.answeredMs! - config().webhookRetryInitialIntervalMs;
}

/**
 * Measures every figure once on the store as it is now. A figure whose work fails or exceeds its time
 * limit is recorded with its error (the other figures are still measured).
 */
async function measure(s: Subject, phase: string): Promise<Figures> {
  const f: Figures = {};
  const figure = async (names: string[], work: () => Promise<number[]>) => {
    progress(`${phase}: ${names.join('; ')}`);
    try {
      const values = await work();
      names.forEach((name, i) => (f[name] = { ms: values[i] }));
    } catch (err) {
      progress(`${phase}: ${names.join('; ')} failed: ${(err as Error).message}`);
      for (const name of names) f[name] = { ms: NaN, error: (err as Error).message };
    }
  };

  await figure(['per-turn gap of a simulated call, p50', 'per-turn gap of a simulated call, p99'], async () => {
    const deadline = Date.now() + 600_000;
    const lines = Array.from({ length: num('BENCH_GAP_TURNS', 10) }, (_, j) => `line ${j + 1}`);
    const ids: string[] = [];
    // One call first whose gaps are not counted: the first calls of a process pay its warm-up (JIT, connections).
    // 20 calls of 10 lines: 200 gaps, so that the p99 is not one gap's luck (the second largest).
    for (let i = -1; i < num('BENCH_GAP_CALLS', 20); i++) {
      const res = await request('POST', '/v1/calls', {
        key: s.testKey,
        body: { to: '+14155550123', agent_id: s.agentId, simulation: { caller: lines } },
      });
      if (res.status !== 200) throw new Error(`POST /v1/calls answered ${res.status}: ${JSON.stringify(res.body)}`);
      if (i >= 0) ids.push(res.body.id);
      await waitUntilEnded(res.body.id, deadline);
    }
    const gaps = turnGaps(h().llm.requests, ids).sort((a, b) => a - b);
    return [percentile(gaps, 50), percentile(gaps, 99)];
  });

  await figure(['inbound WhatsApp → reply at Twilio'], async () => {
    const customer = `+1415${2_000_000 + Math.floor(Math.random() * 7_000_000)}`;
    try {
      await whatsappExchange(s, customer, 'warm-up');
      return [median(await sample(() => whatsappExchange(s, customer, `message ${newId('m')}`)))];
    } finally {
      // Its conversation ends with the figure: a run still working (or retrying) would load the next figures.
      await h()
        .env.client.workflow.getHandle(conversationWorkflowId(s.orgId, true, 'whatsapp', customer))
        .terminate('scale benchmark: figure measured')
        .catch(() => undefined);
    }
  });

  const month = new Date().toISOString().slice(0, 7);
  const today = new Date().toISOString().slice(0, 10);
  await figure(['GET /v1/calls (first page)', 'GET /v1/calls (first page), p95'], async () => {
    const values = (await sample(get(s.testKey, '/v1/calls'))).sort((a, b) => a - b);
    return [percentile(values, 50), percentile(values, 95)];
  });
  const middle = await middleCall(s.orgId);
  // A month in a time zone: its first read sums the local days from the quarter-hours and keeps them (printed
  // here, a one-off per tenant, zone and day); the figure is the reads after it.
  const kolkata = `/v1/usage?from=${month}-01&to=${today}&timezone=Asia/Kolkata`;
  const cold = performance.now();
  await get(s.testKey, kolkata)();
  progress(`${phase}: GET /v1/usage in Asia/Kolkata, first read of the month: ${round(performance.now() - cold)} ms`);
  const reads: [string, string][] = [
    ['GET /v1/calls (later page: starting_after the middle call)', `/v1/calls?starting_after=${middle}`],
    ['GET /v1/calls/{id}/transcript', `/v1/calls/${s.callId}/transcript`],
    ['GET /v1/conversations (first page)', '/v1/conversations'],
    ['GET /v1/conversations/{id}/messages', `/v1/conversations/${s.conversationId}/messages`],
    ['GET /v1/contacts (first page)', '/v1/contacts'],
    ['GET /v1/contacts/{id}/records', `/v1/contacts/${s.contactId}/records`],
    ['GET /v1/usage (this month)', `/v1/usage?from=${month}-01&to=${today}`],
    ['GET /v1/usage (this month in Asia/Kolkata, as the console in India asks)', kolkata],
    ['GET /v1/events (first page)', '/v1/events'],
    ...(await moreReads(s, middle)),
  ];
  for (const [name, path] of reads) await figure([name], async () => [median(await sample(get(s.testKey, path)))]);

  await figure(['widget stream resume (last_event_id → first event)'], async () => {
    const token = s.widgetToken;
    const resume = async () => {
      const t0 = performance.now();
      const read = await readStream(`${h().api.url}/v1/widget/stream?token=${token}&last_event_id=2`, {
        stop: (events) => events.length >= 1,
        timeoutMs: 60_000,
      });
      if (read.events[0]?.id !== '3') throw new Error(`widget stream resumed at ${read.events[0]?.id ?? 'nothing'}`);
      return performance.now() - t0;
    };
    return [median(await sample(resume))];
  });

  await figure(['webhook retry (attempt 1 answered → attempt 2, less the interval)'], async () => [
    median(await sample(() => webhookRetry(s))),
  ]);
  return f;
}

/**
 * The measured figures' subject for tenant `t`: its limits raised (its calls are measured, not its line),
 * a publishable key's widget session, a live agent, a WhatsApp number, a webhook endpoint whose first
 * attempt answers 503, and a call, conversation and contact of its own history (`ownSubjects`).
 * @throws Error when the API refuses one of them (the body is in the message)
 */
async function subjectFor(
  t: Awaited<ReturnType<typeof newTenant>>,
  fake: FakeTwilio,
  receiver: HttpsReceiver,
): Promise<Subject> {
  await setOrgCallLimit(t.orgId, 'test', 1000);
  const pk = (await createKey({ orgId: t.orgId, mode: 'test', kind: 'publishable' })).key;
  await request('POST', '/v1/agents', { key: t.liveKey, body: { name: 'Scale bench', instructions: 'Be brief.' } });
  const whatsappNumber = `+1415${2_000_000 + Math.floor(Math.random() * 7_000_000)}`;
  const pn = await request('POST', '/v1/phone_numbers', {
    key: t.liveKey,
    body: { number: whatsappNumber, channels: ['whatsapp'] },
  });
  if (pn.status !== 200) throw new Error(`phone number: ${JSON.stringify(pn.body)}`);
  const retryPath = `/retry-${t.orgId}`;
  const ep = await request('POST', '/v1/webhook-endpoints', {
    key: t.testKey,
    body: { url: receiver.url(retryPath), events: ['recording.ready'] },
  });
  if (ep.status !== 200) throw new Error(`webhook endpoint: ${JSON.stringify(ep.body)}`);
  receiver.route(retryPath, (req) => (req.attempt === 1 ? { status: 503 } : { status: 200 }));
  return {
    testKey: t.testKey,
    agentId: t.agentId,
    widgetToken: await widgetSession(pk),
    fake,
    receiver,
    orgId: t.orgId,
    whatsappNumber,
    retryPath,
    ...(await ownSubjects(t.orgId)),
  };
}

/**
 * `--hold`: waits, after the fill, until the file `<tmpdir>/scale-bench-<pid>.measure` exists (polled
 * every 2 s), so that both phases are measured when the machine is quiet (a long fill can run at low
 * priority beside other work: `nice -n 19`). A file, not a signal: the Temporal worker's runtime shuts
 * down on SIGINT, SIGTERM, SIGQUIT and SIGUSR2, and Node gives SIGUSR1 to its inspector.
 */
async function heldUntilTouched(): Promise<void> {
  const file = path.join(os.tmpdir(), `scale-bench-${process.pid}.measure`);
  progress(`filled; holding: touch ${file} to measure`);
  while (!fs.existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 2_000));
  fs.rmSync(file, { force: true });
}

/**
 * The id of the organization's middle test-mode call (newest first), the cursor of a later page: read
 * through the ids only, once per phase.
 */
async function middleCall(orgId: string): Promise<string> {
  const ids = (await Call.find({ org_id: orgId, livemode: false }, { _id: 1 }).lean()).map((c) => String(c._id));
  ids.sort();
  const id = ids[Math.floor(ids.length / 2)];
  if (!id) throw new Error('the measured organization has no calls');
  return id;
}

/**
 * The other lists and filters of the scale goal, as `[figure, path]` for organization `s` (test mode): a
 * later page by `ending_before` (the middle call `middle`), the calls' documented filters (one matching
 * every call, one none, the own history's agent, the last seven days), events by type, knowledge
 * documents, and the biggest of the organization's campaigns (results), webhook endpoints (delivery
 * attempts; its endpoint document written, disabled, when the fill left none) and test suites (runs).
 * Picked when measured, so after the fill for the filled tenant. The console's pages read the same API.
 */
async function moreReads(s: Subject, middle: string): Promise<[string, string][]> {
  const tenant = { org_id: s.orgId, livemode: false };
  const week = Math.floor(Date.now() / 1000) - 7 * 86_400;
  const campaign = await BulkCall.findOne(tenant, { _id: 1 }).sort({ 'counts.total': -1 }).lean();
  const busiest = async (ids: string[], count: (id: string) => Promise<number>) => {
    const counts = await Promise.all(ids.map(count));
    return ids[counts.indexOf(Math.max(...counts))];
  };
  const endpoint = await busiest((await WebhookAttempt.distinct('endpoint_id', tenant)) as string[], (id) =>
    WebhookAttempt.countDocuments({ endpoint_id: id }),
  );
  const suite = await busiest((await TestSuiteRun.distinct('suite_id', tenant)) as string[], (id) =>
    TestSuiteRun.countDocuments({ suite_id: id }),
  );
  if (!campaign || !endpoint || !suite)
    throw new Error('the own history has no campaign, delivery attempt or test run');
  if ((await WebhookEndpoint.countDocuments({ _id: endpoint })) === 0)
    await WebhookEndpoint.collection.insertOne(
      new WebhookEndpoint({
        _id: endpoint,
        ...tenant,
        url: 'https://hooks.example.com/svc',
        events: ['*'],
        status: 'disabled',
        created: Math.floor(Date.now() / 1000),
        version: 1,
      }).toObject() as never,
    );
  return [
    ['GET /v1/calls (later page: ending_before the middle call)', `/v1/calls?ending_before=${middle}`],
    ['GET /v1/calls?status=completed (every call matches)', '/v1/calls?status=completed'],
    ['GET /v1/calls?direction=inbound (no call matches)', '/v1/calls?direction=inbound'],
    ["GET /v1/calls?agent_id= (the own history's agent)", `/v1/calls?agent_id=${s.agentId}`],
    ['GET /v1/calls?created[gte]= (the last 7 days)', `/v1/calls?created[gte]=${week}`],
    ['GET /v1/events?type=call.ended', '/v1/events?type=call.ended'],
    // (five: the empty tenant's own history has eight documents, and each listed one costs a read to render)
    ['GET /v1/knowledge?limit=5 (first page)', '/v1/knowledge?limit=5'],
    ['GET /v1/bulk-calls/{id}/results (the biggest campaign)', `/v1/bulk-calls/${campaign._id}/results`],
    [
      'GET /v1/webhook-endpoints/{id}/deliveries (the busiest endpoint)',
      `/v1/webhook-endpoints/${endpoint}/deliveries`,
    ],
    ['GET /v1/audit_events (first page)', '/v1/audit_events'],
    ['GET /v1/test_suites/{id}/runs (the biggest suite)', `/v1/test_suites/${suite}/runs`],
  ];
}

/** Picks, from the organization's own history, a 10-turn call, a conversation of messages and a contact with records. */
async function ownSubjects(orgId: string) {
  const call = await Call.findOne({ org_id: orgId, livemode: false }, { _id: 1 }).lean();
  const conversation = await Conversation.findOne({ org_id: orgId, livemode: false }, { _id: 1 }).lean();
  const contact = await Contact.findOne({ org_id: orgId, livemode: false }, { _id: 1 }).lean();
  if (!call || !conversation || !contact) throw new Error('the own history has no call, conversation or contact');
  const turns = await CallTurn.countDocuments({ call_id: call._id });
  const records = await ContactRecord.countDocuments({ contact_id: contact._id });
  if (turns === 0 || records === 0)
    throw new Error('the own history has a call without turns or a contact without records');
  return { callId: call._id, conversationId: conversation._id, contactId: contact._id };
}

const total = (counts: FillCounts) => Object.values(counts).reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const scaleArg = args.find((a) => a.startsWith('--scale='));
  const fraction = scaleArg ? Number(scaleArg.slice('--scale='.length)) : args.includes('--quick') ? 0.1 : 1;
  if (!(fraction > 0 && fraction <= 10)) throw new Error(`--scale must be a fraction in (0, 10]: ${scaleArg}`);
  const fillOnly = args.includes('--fill-only');
  const hold = args.includes('--hold');
  const ownAt = args.findIndex((a) => a === '--own' || a.startsWith('--own='));
  const ownArg = ownAt < 0 ? undefined : args[ownAt].startsWith('--own=') ? args[ownAt].slice(6) : args[ownAt + 1];
  const ownCalls = ownArg === undefined ? undefined : Number(ownArg);
  if (ownCalls !== undefined && !(Number.isInteger(ownCalls) && ownCalls > 0))
    throw new Error(`--own must be a number of calls: ${ownArg}`);
  // --own N: the measured organization's own plan, scaled from its calls; else the other organizations' plan.
  const plan = ownCalls === undefined ? scaledPlan(fraction) : scaledPlan(ownCalls / FULL_PLAN.calls);

  await startHarness();
  const fake = await startFakeTwilio();
  const receiver = await startHttpsReceiver();
  const saved = config();
  try {
    setConfig({
      ...saved,
      twilioAccountSid: fake.accountSid,
      twilioAuthToken: fake.authToken,
      twilioApiBaseUrl: fake.url,
      publicBaseUrl: h().api.url,
      // Off: on a quiet machine the figures' requests outrun a key's 100 per second, and a 429 is no figure.
      apiRateLimit: 0,
    });
    const t = await newTenant();
    if (fillOnly) {
      progress(`filling: ${OTHER_ORGS} other organizations, ${fraction} of the full plan`);
      const fill = await fillStore(plan, otherTenants(OTHER_ORGS));
      console.log(JSON.stringify({ counts: fill.counts, seconds: round(fill.seconds) }));
      console.log(
        `${total(fill.counts)} rows in ${round(fill.seconds)} s (${Math.round(total(fill.counts) / fill.seconds)}/s)`,
      );
      return;
    }
    const own: FillTenant = { orgId: t.orgId, livemode: false, agentId: t.agentId };
    progress('the measured organization: its own history');
    const ownFill = await fillStore(scaledPlan(OWN_FRACTION), [own]);
    const s = await subjectFor(t, fake, receiver);
    // --own: a second organization with the same own history and nothing more is the empty tenant, measured
    // in the same window as the filled one (same store, same machine load), right before it.
    const emptyTenant = ownCalls === undefined ? null : await newTenant();
    if (emptyTenant) {
      progress('the empty tenant: its own history');
      await fillStore(scaledPlan(OWN_FRACTION), [
        { orgId: emptyTenant.orgId, livemode: false, agentId: emptyTenant.agentId },
      ]);
    }
    const e = emptyTenant ? await subjectFor(emptyTenant, fake, receiver) : s;

    let empty = ownCalls === undefined ? await measure(s, 'empty store') : undefined;
    const fill =
      ownCalls === undefined
        ? (progress(`filling: ${OTHER_ORGS} other organizations, ${fraction} of the full plan`),
          await fillStore(plan, otherTenants(OTHER_ORGS), (line) => progress(`  ${line}`)))
        : (progress(`filling: the measured organization, ${ownCalls} calls and the rest in proportion`),
          // (another agent of the organization: the knowledge change log and head are per agent)
          await fillStore(
            plan,
            [{ ...own, agentId: newId('agent') }],
            (line) => progress(`  ${line}`),
            OWN_FILL_FIRST_KEY,
          ));
    if (hold) await heldUntilTouched();
    empty ??= await measure(e, 'empty tenant');
    const filled = await measure(s, ownCalls === undefined ? 'filled store' : 'filled tenant');

    const rows = Object.keys(empty).map((name) => {
      const e = empty[name].ms;
      const f = filled[name]?.ms ?? NaN;
      const ratio = f / e;
      return {
        figure: name,
        empty_ms: round(e),
        filled_ms: round(f),
        ratio: Math.round(ratio * 100) / 100,
        meets: ratio <= 1.5 || f - e <= 10,
        error: empty[name].error ?? filled[name]?.error,
      };
    });
    console.log(
      ownCalls === undefined
        ? `scale benchmark: the measured organization holds ${total(ownFill.counts)} rows of its own (${ownFill.counts.calls} calls, ${ownFill.counts.call_turns} turns); the fill added ${total(fill.counts)} rows of ${OTHER_ORGS} other organizations in ${round(fill.seconds)} s; ${new Date().toISOString()}`
        : `scale benchmark (--own ${ownCalls}): the measured organization held ${total(ownFill.counts)} rows of its own (${ownFill.counts.calls} calls) when empty; the fill added ${total(fill.counts)} rows of its own (${fill.counts.calls} calls) in ${round(fill.seconds)} s; ${new Date().toISOString()}`,
    );
    console.log(
      `fill: ${Object.entries(fill.counts)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    const [emptyCol, filledCol] = ownCalls === undefined ? ['empty', 'filled'] : ['empty tenant', 'filled tenant'];
    console.log(`| figure | ${emptyCol} (ms) | ${filledCol} (ms) | ratio | meets (ratio ≤ 1.5 or within 10 ms) |`);
    console.log('|---|---|---|---|---|');
    for (const r of rows)
      console.log(
        `| ${r.figure} | ${r.empty_ms} | ${r.filled_ms} | ${r.ratio} | ${r.meets ? 'yes' : '**no**'}${r.error ? ` (failed: ${r.error})` : ''} |`,
      );
    console.log(
      JSON.stringify({
        fraction,
        own_calls: ownCalls,
        own: ownFill.counts,
        fill: fill.counts,
        fill_seconds: round(fill.seconds),
        rows,
      }),
    );
    console.log(
      `reproduce: npm run bench:scale${ownCalls !== undefined ? ` -- --own ${ownCalls}` : fraction === 1 ? '' : ` -- --scale=${fraction}`}`,
    );
  } finally {
    setConfig(saved);
    await receiver.close();
    await fake.close();
    await stopHarness();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
