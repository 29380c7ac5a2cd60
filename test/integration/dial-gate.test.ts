/**
 * The dial gate (src/services/dial-gate.ts): calling hours and do-not-call on every path that dials —
 * `POST /v1/calls`, a campaign's call and its redial, a callback the assistant promised, a scheduled
 * call, a warm transfer's leg — recorded on the call as `compliance`, through a worker SIGKILL too. Calling hours are
 * enforced in this file (`CALLING_HOURS_ENFORCEMENT=enforce`, restored after); the harness records them only.
 *
 * The wall clock is real, so the windows are made closed or open now without trusting the service's own
 * arithmetic for the assertions: a closed window is the organization's `calling_hours` 08:00–09:00 for a
 * New York or Los Angeles number whose local hour is neither 7 nor 8 (so it opens at the next 08:00
 * local, which `Intl` checks); an open number is one of several zones whose local hour is inside its
 * country's default with an hour to spare.
 */
import crypto from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import { config, setConfig } from '../../src/config';
import { startCampaign, waitForCampaign, createForm, allResults, campaignCalls } from '../support/bulk-calls';
import { useFakeTwilio } from '../support/fake-twilio';
import { verifiedCallerId } from '../support/fake-twilio-numbers';
import { h, newTenant, request, startWorkerProcess, stopWorkerProcess, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** Local hour, minute and weekday of unix ms `ms` in `tz`, by `Intl`. */
function local(ms: number, tz: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  return { h: Number(parts.hour), min: Number(parts.minute), weekday: parts.weekday };
}

/** A +1 number whose local hour is neither 7 nor 8 now: the window 08:00–09:00 is closed and opens at 08:00 local. */
function closedNumber(): { to: string; tz: string } {
  const ny = { to: '+12125550140', tz: 'America/New_York' };
  const la = { to: '+14155550140', tz: 'America/Los_Angeles' };
  const h = local(Date.now(), ny.tz).h;
  return h !== 7 && h !== 8 ? ny : la;
}
const CLOSED_WINDOW = { start: '08:00', end: '09:00' };

/**
 * A number whose default window (US 08–21, GB 08/09–21, others 09–20) is open now and for the next hour,
 * by `Intl`; each candidate is a single-zone number.
 */
function openNumber(): string {
  return openCandidate().to;
}

/** `openNumber`'s number and its zone. */
function openCandidate(): { to: string; tz: string } {
  const candidates: [string, string, number, number][] = [
    ['+12125550141', 'America/New_York', 8, 21],
    ['+14155550141', 'America/Los_Angeles', 8, 21],
    ['+81312345678', 'Asia/Tokyo', 9, 20],
    // (libphonenumber's data names India's zone by its older IANA name, an alias of Asia/Kolkata)
    ['+919876543210', 'Asia/Calcutta', 9, 20],
    ['+4930123456789', 'Europe/Berlin', 9, 20],
    ['+61291234567', 'Australia/Sydney', 9, 20],
    ['+5511912345678', 'America/Sao_Paulo', 9, 20],
  ];
  for (const [to, tz, open, close] of candidates) {
    const now = local(Date.now(), tz).h;
    const later = local(Date.now() + 3_600_000, tz).h;
    if (now >= open && now < close - 1 && later > now) return { to, tz };
  }
  throw new Error('no candidate number is inside its calling hours now');
}

/** The types of the events about `callId`, oldest first. */
async function eventTypes(key: string, callId: string): Promise<string[]> {
  const res = await request('GET', '/v1/events?limit=100', { key });
  return (res.body.data as any[])
    .filter((e) => e.data.object.id === callId)
    .map((e) => e.type)
    .reverse();
}

async function setHours(t: Tenant, window: { start: string; end: string } | null) {
  const res = await request('POST', '/v1/account', { key: t.testKey, body: { calling_hours: window } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.calling_hours).to.deep.equal(window);
}

async function listDnc(key: string, phone: string) {
  const res = await request('POST', '/v1/do_not_call', { key, body: { numbers: [phone] } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
}

/** Moves a scheduled test call's clock to `to` (unix s; absent: its time) and answers the call after. */
async function advance(t: Tenant, id: string, to?: number) {
  const res = await request('POST', `/v1/test_helpers/calls/${id}/advance_clock`, {
    key: t.testKey,
    body: to === undefined ? {} : { to },
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** Asserts a call held for calling hours: `scheduled` until 08:00 local, its check recorded. */
function expectHeldUntil8(call: any, tz: string) {
  expect(call).to.include({ status: 'scheduled', scheduled_reason: 'calling_hours' });
  expect(local(call.scheduled_at * 1000, tz)).to.include({ h: 8, min: 0 });
  expect(call.compliance).to.include({ decision: 'hold', leg: 'call', to: call.to });
  const hours = call.compliance.rules.find((r: any) => r.rule === 'calling_hours');
  expect(hours).to.include({ result: 'closed', zone: tz, opens_at: call.scheduled_at, enforced: true });
  expect(hours.detail).to.contain('narrowed by organization 08:00-09:00');
  expect(call.compliance.rules.find((r: any) => r.rule === 'do_not_call')).to.include({ result: 'clear' });
}

/** Polls a campaign's calls until one satisfies `until`; throws after `timeoutMs`. */
async function waitForCampaignCall(t: Tenant, campaignId: string, until: (c: any) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const calls = await campaignCalls(t.testKey, campaignId);
    const call = calls.find(until);
    if (call) return call;
    if (Date.now() > deadline) throw new Error(`no such campaign call: ${JSON.stringify(calls)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Polls a campaign's results until the first one satisfies `until`; throws after `timeoutMs`. */
async function waitForFirstResult(t: Tenant, campaignId: string, until: (r: any) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await allResults(t.testKey, campaignId);
    if (row && until(row)) return row;
    if (Date.now() > deadline) throw new Error(`the result did not reach the expected state: ${JSON.stringify(row)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the dial gate: calling hours and do-not-call on every dial', function () {
  this.timeout(180_000);
  let saved: 'enforce' | 'record';

  before(() => {
    saved = config().callingHoursEnforcement;
    setConfig({ ...config(), callingHoursEnforcement: 'enforce' });
  });
  after(() => setConfig({ ...config(), callingHoursEnforcement: saved }));

  describe('POST /v1/calls', () => {
    let t: Tenant;
    before(async () => {
      t = await newTenant();
    });

    it('holds a call outside calling hours (scheduled, calling_hours) and dials it at 08:00 local', async () => {
      const { to, tz } = closedNumber();
      await setHours(t, CLOSED_WINDOW);
      try {
        const res = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to, agent_id: t.agentId, simulation: { caller: ['Good morning.'] } },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expectHeldUntil8(res.body, tz);
        const held = await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
        expectHeldUntil8(held, tz);
        expect(held.answered_at).to.equal(null);
        // A minute before the opening it still waits; at the opening it is dialed once.
        expect((await advance(t, held.id, held.scheduled_at - 60)).status).to.equal('scheduled');
        expect((await advance(t, held.id)).status).to.not.equal('scheduled');
        const ended = await waitForCall(t.testKey, held.id, undefined, 60_000);
        expect(ended).to.include({ status: 'completed', scheduled_reason: 'calling_hours' });
        // The workflow checked again at the dial, by the call's clock: open at 08:00.
        expect(ended.compliance).to.include({ decision: 'dial', checked_at: held.scheduled_at });
        expect(ended.compliance.rules.find((r: any) => r.rule === 'calling_hours').result).to.equal('open');
      } finally {
        await setHours(t, null);
      }
    });

    it('refuses with 422 outside_calling_hours when the request says calling_hours "refuse"', async () => {
      const { to } = closedNumber();
      await setHours(t, CLOSED_WINDOW);
      try {
        const res = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to, agent_id: t.agentId, calling_hours: 'refuse' },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.error).to.include({ code: 'outside_calling_hours', param: 'calling_hours' });
        expect(res.body.error.message).to.contain('opens at');
        const bad = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to, agent_id: t.agentId, calling_hours: 'whenever' },
        });
        expect(bad.status).to.equal(400);
        expect(bad.body.error.param).to.equal('calling_hours');
      } finally {
        await setHours(t, null);
      }
    });

    it('dials at once inside calling hours, and records the check', async () => {
      const to = openNumber();
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to, agent_id: t.agentId, calling_hours: 'refuse', simulation: { caller: ['Hi.'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const ended = await waitForCall(t.testKey, res.body.id, undefined, 60_000);
      expect(ended).to.include({ status: 'completed', scheduled_reason: null });
      expect(ended.compliance).to.include({ decision: 'dial', to });
      expect(ended.compliance.rules.map((r: any) => [r.rule, r.result])).to.deep.equal([
        ['calling_hours', 'open'],
        ['do_not_call', 'clear'],
        ['dialing_permissions', 'allowed'],
      ]);
    });

    it('refuses a number on the do-not-call list with 422 number_on_do_not_call, and a contact marked so', async () => {
      const to = openNumber().replace(/\d{2}$/, '77');
      await listDnc(t.testKey, to);
      const res = await request('POST', '/v1/calls', { key: t.testKey, body: { to, agent_id: t.agentId } });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error).to.include({ code: 'number_on_do_not_call', param: 'to' });
      expect(res.body.error.message).to.contain("organization's do-not-call list");

      const other = openNumber().replace(/\d{2}$/, '78');
      const contact = await request('POST', '/v1/contacts', {
        key: t.testKey,
        body: { phone: other, name: 'No Calls', do_not_call: true },
      });
      expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
      const refused = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to: other, agent_id: t.agentId, contact_id: contact.body.id },
      });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.error.code).to.equal('number_on_do_not_call');
    });

    it('a live key: a do-not-call number is 422 and Twilio is never asked', async () => {
      const { fake, restore } = await useFakeTwilio();
      try {
        await verifiedCallerId(fake, t.liveKey);
        const to = '+14155550179';
        await listDnc(t.liveKey, to);
        const agent = await request('POST', '/v1/agents', {
          key: t.liveKey,
          body: { name: 'Live', instructions: 'Hi.' },
        });
        expect(agent.status, JSON.stringify(agent.body)).to.equal(200);
        const res = await request('POST', '/v1/calls', {
          key: t.liveKey,
          body: { to, from: '+14155550100', agent_id: agent.body.id },
        });
        expect(res.status, JSON.stringify(res.body)).to.equal(422);
        expect(res.body.error.code).to.equal('number_on_do_not_call');
        expect(fake.created.filter((c) => c.To === to)).to.deep.equal([]);
      } finally {
        await restore();
      }
    });
  });

  describe('scheduled calls: the workflow checks again at the dial', () => {
    let t: Tenant;
    before(async () => {
      t = await newTenant();
    });

    /** A unix second within the next day when New York's local time is 12:00 (inside every window used here). */
    function nextNoonNy(): number {
      let s = Math.ceil(Date.now() / 3_600_000) * 3600;
      while (local(s * 1000, 'America/New_York').h !== 12) s += 3600;
      return s;
    }

    it('a number listed after scheduling is never dialed: canceled, do_not_call, the check recorded', async () => {
      const to = '+12125550142';
      const at = nextNoonNy();
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to, agent_id: t.agentId, scheduled_at: at, simulation: { caller: ['Hello?'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ status: 'scheduled', scheduled_at: at, scheduled_reason: null });
      await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
      await listDnc(t.testKey, to);
      await advance(t, res.body.id);
      const ended = await waitForCall(t.testKey, res.body.id, undefined, 60_000);
      expect(ended).to.include({ status: 'canceled', end_reason: 'do_not_call', answered_at: null });
      expect(ended.error.message).to.contain('do-not-call');
      expect(ended.compliance).to.include({ decision: 'refuse', checked_at: at });
      expect(ended.compliance.rules.find((r: any) => r.rule === 'do_not_call')).to.include({
        result: 'listed',
        source: 'organization',
      });
      const transcript = await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey });
      expect(transcript.body.turns).to.deep.equal([]);
    });

    it('a time that calling hours no longer allow is held again (calling_hours) and dialed at 08:00 local', async () => {
      const to = '+12125550143';
      const at = nextNoonNy();
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: { to, agent_id: t.agentId, scheduled_at: at, simulation: { caller: ['Hello?'] } },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await waitForCall(t.testKey, res.body.id, (c) => c.status === 'scheduled');
      await setHours(t, CLOSED_WINDOW); // noon is now outside the organization's hours
      try {
        await advance(t, res.body.id);
        const held = await waitForCall(
          t.testKey,
          res.body.id,
          (c) => c.status === 'scheduled' && c.scheduled_reason === 'calling_hours',
        );
        expectHeldUntil8(held, 'America/New_York');
        expect(held.scheduled_at - at).to.equal(20 * 3600); // 12:00 → 08:00 the next day
        await advance(t, held.id);
        const ended = await waitForCall(t.testKey, held.id, undefined, 60_000);
        expect(ended.status).to.equal('completed');
        expect(ended.compliance.decision).to.equal('dial');
        expect(await eventTypes(t.testKey, held.id)).to.deep.equal([
          'call.scheduled',
          'call.scheduled',
          'call.started',
          'call.ended',
        ]);
      } finally {
        await setHours(t, null);
      }
    });
  });

  describe('campaigns and callbacks', () => {
    it("a campaign's call outside calling hours is held, then dialed at 08:00 local", async () => {
      const t = await newTenant();
      const { to, tz } = closedNumber();
      await setHours(t, CLOSED_WINDOW);
      const formId = await createForm(t.testKey);
      const campaign = await startCampaign(t.testKey, {
        agent_id: t.agentId,
        form_id: formId,
        name: 'Morning round',
        contacts: [{ phone: to, name: 'Ana' }],
        simulation: { caller: ['Yes, hello.'] },
      });
      let call: any = null;
      const deadline = Date.now() + 30_000;
      while (!call) {
        const list = await request('GET', `/v1/calls?bulk_call_id=${campaign.id}`, { key: t.testKey });
        call = (list.body.data as any[]).find((c) => c.status === 'scheduled' && c.scheduled_reason);
        if (!call && Date.now() > deadline) throw new Error(`no held call: ${JSON.stringify(list.body.data)}`);
        if (!call) await new Promise((r) => setTimeout(r, 200));
      }
      expectHeldUntil8(call, tz);
      await advance(t, call.id);
      const ended = await waitForCall(t.testKey, call.id, undefined, 60_000);
      expect(ended.status).to.equal('completed');
      await waitForCampaign(t.testKey, campaign.id);
      expect((await allResults(t.testKey, campaign.id)).map((r) => r.status)).to.deep.equal(['completed']);
    });

    it("a campaign's redial outside calling hours is held, then dialed once at the window's opening", async () => {
      const t = await newTenant();
      // Open now by the country's default; then narrowed to an hour that is closed now (and in two
      // minutes), inside every default, so the first attempt dials at once and its redial is held.
      const { to, tz } = openCandidate();
      const hours = [local(Date.now(), tz).h, local(Date.now() + 120_000, tz).h];
      const start = [9, 11].find((x) => !hours.includes(x))!;
      const pad = (n: number) => String(n).padStart(2, '0');
      const window = { start: `${pad(start)}:00`, end: `${pad(start + 1)}:00` };
      const formId = await createForm(t.testKey);
      const campaign = await startCampaign(t.testKey, {
        agent_id: t.agentId,
        form_id: formId,
        name: 'Redial round',
        retry: { max_attempts: 2, on: ['no_answer'], interval_seconds: 3 },
        contacts: [{ phone: to, name: 'Ana', simulation: { outcome: 'no_answer' } }],
      });
      try {
        const first = await waitForCampaignCall(t, campaign.id, (c) => c.compliance?.decision === 'dial');
        await setHours(t, window);
        const firstEnded = await waitForCall(t.testKey, first.id, undefined, 60_000);
        expect(firstEnded).to.include({ status: 'no_answer', scheduled_reason: null });
        const redial = await waitForCampaignCall(t, campaign.id, (c) => c.id !== first.id && c.status === 'scheduled');
        expect(redial).to.include({ to, status: 'scheduled', scheduled_reason: 'calling_hours' });
        expect(local(redial.scheduled_at * 1000, tz)).to.include({ h: start, min: 0 });
        expect(redial.compliance).to.include({ decision: 'hold', leg: 'call', to });
        const rule = redial.compliance.rules.find((r: any) => r.rule === 'calling_hours');
        expect(rule).to.include({ result: 'closed', zone: tz, opens_at: redial.scheduled_at, enforced: true });
        expect(rule.detail).to.contain(`narrowed by organization ${window.start}-${window.end}`);
        expect(redial.compliance.rules.find((r: any) => r.rule === 'do_not_call')).to.include({ result: 'clear' });
        // The campaign waits for it: the contact is in progress on its second attempt.
        const row = await waitForFirstResult(t, campaign.id, (r) => r.attempts === 2);
        expect(row).to.include({ status: 'in_progress' });
        expect(row.call_ids).to.deep.equal([first.id, redial.id]);

        // A minute before the opening it still waits; at the opening it is dialed.
        expect((await advance(t, redial.id, redial.scheduled_at - 60)).status).to.equal('scheduled');
        await advance(t, redial.id);
        const ended = await waitForCall(t.testKey, redial.id, undefined, 60_000);
        expect(ended).to.include({ status: 'no_answer', scheduled_reason: 'calling_hours' });
        expect(ended.compliance).to.include({ decision: 'dial', checked_at: redial.scheduled_at });
        expect(ended.compliance.rules.find((r: any) => r.rule === 'calling_hours').result).to.equal('open');
        expect((await eventTypes(t.testKey, redial.id)).filter((e) => e === 'call.scheduled')).to.have.length(1);

        await waitForCampaign(t.testKey, campaign.id);
        const results = await allResults(t.testKey, campaign.id);
        expect(results.map((r) => [r.status, r.attempts, r.call_ids])).to.deep.equal([
          ['no_answer', 2, [first.id, redial.id]],
        ]);
        // Exactly two dials of the number: the first attempt and the one redial.
        const calls = await campaignCalls(t.testKey, campaign.id);
        expect(calls.map((c) => c.id).sort()).to.deep.equal([first.id, redial.id].sort());
      } finally {
        await setHours(t, null);
      }
    });

    it('a number listed on do-not-call after an unanswered first attempt is never redialed', async () => {
      const t = await newTenant();
      const to = openNumber().replace(/\d{2}$/, '46');
      const formId = await createForm(t.testKey);
      const campaign = await startCampaign(t.testKey, {
        agent_id: t.agentId,
        form_id: formId,
        name: 'Redial round',
        retry: { max_attempts: 3, on: ['no_answer'], interval_seconds: 5 },
        contacts: [{ phone: to, name: 'Ben', simulation: { outcome: 'no_answer' } }],
      });
      // The first attempt ended unanswered: the contact waits for its redial.
      const waiting = await waitForFirstResult(t, campaign.id, (r) => r.status === 'pending' && r.attempts === 1);
      expect(waiting.call_ids).to.have.length(1);
      const [firstId] = waiting.call_ids;
      const first = await waitForCall(t.testKey, firstId);
      expect(first).to.include({ status: 'no_answer' });
      expect(first.compliance.decision).to.equal('dial');
      await listDnc(t.testKey, to);

      // The campaign checks the lists when it prepares the redial: the contact ends do_not_call, no call made.
      const done = await waitForCampaign(t.testKey, campaign.id);
      expect(done.counts).to.include({ pending: 0 });
      const results = await allResults(t.testKey, campaign.id);
      expect(results.map((r) => [r.status, r.attempts, r.call_ids])).to.deep.equal([['do_not_call', 1, [firstId]]]);
      const calls = await campaignCalls(t.testKey, campaign.id);
      expect(calls.map((c) => c.id)).to.deep.equal([firstId]);
    });

    it('a callback the assistant promised, at a time outside calling hours, is held and dialed at 09:00 local', async () => {
      const t = await newTenant({ enabled_tools: ['schedule_callback'] });
      // The fake model's requests are shared by the whole run: leave none of this test's behind (a later
      // file reads the first request offering schedule_callback, for its own +1 415 caller).
      const llmRequests = h().llm.requests.length;
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'UTC' }).format(new Date(Date.now() + 2 * 86_400_000));
      // The call that promises it runs now, open to this tenant until the window is narrowed below.
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: openNumber(),
          agent_id: t.agentId,
          simulation: {
            caller: [`TOOLSONCE ${JSON.stringify([['schedule_callback', { at: `${day}T15:00`, reason: 'prices' }]])}`],
          },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await waitForCall(t.testKey, res.body.id, undefined, 60_000);
      const list = await request('GET', '/v1/calls?limit=100', { key: t.testKey });
      const callback = (list.body.data as any[]).find((c) => c.callback_of === res.body.id);
      expect(callback, 'the callback').to.exist;
      expect(callback.status).to.equal('scheduled');
      // 15:00 at the callee is now outside the organization's hours (09:00-10:00: inside every country's default)
      await setHours(t, { start: '09:00', end: '10:00' });
      await advance(t, callback.id);
      const held = await waitForCall(t.testKey, callback.id, (c) => c.scheduled_reason === 'calling_hours');
      expect(held.status).to.equal('scheduled');
      expect(held.compliance.decision).to.equal('hold');
      const zone = held.compliance.rules[0].zone as string;
      expect(local(held.scheduled_at * 1000, zone)).to.include({ h: 9, min: 0 });
      await advance(t, callback.id);
      const ended = await waitForCall(t.testKey, callback.id, undefined, 60_000);
      expect(ended.status).to.equal('completed');
      expect(ended.compliance.decision).to.equal('dial');
      h().llm.requests.splice(llmRequests);
    });
  });

  describe('warm transfer legs', () => {
    it('a do-not-call destination is never dialed: the transfer fails do_not_call and the call goes on', async () => {
      const t = await newTenant();
      const dest = '+14155550176';
      await listDnc(t.testKey, dest);
      const res = await request('POST', '/v1/calls', {
        key: t.testKey,
        body: {
          to: openNumber(),
          agent_id: t.agentId,
          simulation: {
            caller: ['I want a person', 'still here'],
            pause_seconds: 4,
            transfer: { answer: 'answered', after_seconds: 1 },
          },
        },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await waitForCall(t.testKey, res.body.id, (c) => c.status === 'in_progress');
      const transfer = await request('POST', `/v1/calls/${res.body.id}/transfer`, {
        key: t.testKey,
        body: { to: dest, mode: 'warm', summary: 'Wants a person.' },
      });
      expect(transfer.status, JSON.stringify(transfer.body)).to.equal(200);
      expect(transfer.body.status).to.equal('in_progress');
      expect(transfer.body.transfer).to.include({ mode: 'warm', status: 'failed', reason: 'do_not_call' });
      const ended = await waitForCall(t.testKey, res.body.id, undefined, 60_000);
      expect(ended.status).to.equal('completed');
      const [leg] = ended.compliance.transfer_legs;
      expect(leg).to.include({ leg: 'transfer', to: dest, decision: 'refuse' });
      expect(leg.rules.find((r: any) => r.rule === 'do_not_call')).to.include({ result: 'listed' });
      const turns = (await request('GET', `/v1/calls/${res.body.id}/transcript`, { key: t.testKey })).body.turns;
      expect(turns.some((x: any) => /hears the summary/.test(x.text ?? ''))).to.equal(false);
    });
  });

  describe('a worker killed between the check and the dial', () => {
    let child: ChildProcess | undefined;
    afterEach(() => stopWorkerProcess(child, 'SIGTERM'));

    it('a held call is dialed once after the restart; a listed one is never dialed', async () => {
      const queue = `svc-test-gate-crash-${crypto.randomBytes(4).toString('hex')}`;
      const before = config();
      setConfig({ ...before, taskQueue: queue }); // calls placed now run on the child process's queue only
      try {
        child = await startWorkerProcess(queue); // inherits `enforce` from this file's configuration
        const t = await newTenant();
        const { to, tz } = closedNumber();
        await setHours(t, CLOSED_WINDOW);
        const held = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to, agent_id: t.agentId, simulation: { caller: ['Morning.'] } },
        });
        expect(held.status, JSON.stringify(held.body)).to.equal(200);
        const listedTo = to.replace(/\d{2}$/, '45');
        const listed = await request('POST', '/v1/calls', {
          key: t.testKey,
          body: { to: listedTo, agent_id: t.agentId, simulation: { caller: ['Morning.'] } },
        });
        expect(listed.status, JSON.stringify(listed.body)).to.equal(200);
        await waitForCall(t.testKey, held.body.id, (c) => c.status === 'scheduled');
        await waitForCall(t.testKey, listed.body.id, (c) => c.status === 'scheduled');
        // Both wait on their timers (the call.scheduled events are written before the timers start).
        for (const id of [held.body.id, listed.body.id])
          for (let i = 0; (await eventTypes(t.testKey, id)).length === 0 && i < 100; i++)
            await new Promise((r) => setTimeout(r, 100));
        await listDnc(t.testKey, listedTo); // listed after the API's check, before the workflow's

        await stopWorkerProcess(child, 'SIGKILL');
        child = await startWorkerProcess(queue);

        await advance(t, held.body.id);
        await advance(t, listed.body.id);
        const dialed = await waitForCall(t.testKey, held.body.id, undefined, 60_000);
        expect(dialed).to.include({ status: 'completed', scheduled_reason: 'calling_hours' });
        expect(local(dialed.scheduled_at * 1000, tz)).to.include({ h: 8, min: 0 });
        expect(dialed.compliance.decision).to.equal('dial');
        const never = await waitForCall(t.testKey, listed.body.id, undefined, 60_000);
        expect(never).to.include({ status: 'canceled', end_reason: 'do_not_call', answered_at: null });
        expect(never.compliance.decision).to.equal('refuse');

        expect(await eventTypes(t.testKey, held.body.id)).to.deep.equal([
          'call.scheduled',
          'call.started',
          'call.ended',
        ]);
        expect(await eventTypes(t.testKey, listed.body.id)).to.deep.equal(['call.scheduled', 'call.ended']);
      } finally {
        setConfig({ ...config(), taskQueue: before.taskQueue });
      }
    });
  });
});
