/**
 * Bulk call campaigns end to end through the real API, Temporal dev server, worker and FerretDB, with the
 * fake LLM (a caller line `TOOL fill_form {...}` makes the model call the tool): forms, a campaign filling
 * its form, calls that are ordinary calls carrying the campaign's and contact's metadata, redials, a
 * window that opens later, pause/resume/cancel, bad rows, do-not-call contacts, CSV results.
 */
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import { allResults, campaignCalls, createForm, phone, startCampaign, waitForCampaign } from '../support/bulk-calls';

type Tenant = Awaited<ReturnType<typeof newTenant>>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventsOf(key: string, type: string) {
  const res = await request('GET', `/v1/events?type=${type}&limit=100`, { key });
  expect(res.status).to.equal(200);
  return res.body.data as any[];
}

/** The local wall-clock time `HH:MM:SS` in `tz` at `ms`. */
function localTime(ms: number, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(new Date(ms));
}

describe('forms', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('creates, gets and lists forms', async () => {
    const id = await createForm(t.testKey);
    expect(id).to.match(/^form_[0-9a-z]{26}$/);
    const got = await request('GET', `/v1/forms/${id}`, { key: t.testKey });
    expect(got.body).to.include({ id, object: 'form', name: 'RSVP', livemode: false });
    expect(got.body.fields[0]).to.deep.equal({
      key: 'attending',
      type: 'boolean',
      description: 'whether they come',
      required: true,
      options: null,
    });
    expect(got.body.fields[2])
      .to.include({ key: 'slot', type: 'enum', required: false })
      .and.to.have.deep.property('options', ['morning', 'afternoon']);
    const list = await request('GET', '/v1/forms', { key: t.testKey });
    expect(list.body.data.map((f: any) => f.id)).to.include(id);
    expect((await request('GET', `/v1/forms/${id}`, { key: t.liveKey })).status).to.equal(404);
  });

  it('refuses bad fields naming them', async () => {
    const post = (fields: unknown[]) => request('POST', '/v1/forms', { key: t.testKey, body: { name: 'F', fields } });
    let res = await post([
      { key: 'ok', type: 'string' },
      { key: 'choice', type: 'enum' },
    ]);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_missing', param: 'fields[1].options' });
    res = await post([{ key: 'Bad Key', type: 'string' }]);
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'fields[0].key' });
    res = await post([{ key: 'a', type: 'colour' }]);
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'fields[0].type' });
    res = await post([
      { key: 'a', type: 'string' },
      { key: 'a', type: 'number' },
    ]);
    expect(res.body.error).to.include({ param: 'fields[1].key' });
    res = await post([{ key: 'a', type: 'string', extra: 1 }]);
    expect(res.body.error).to.include({ code: 'parameter_unknown', param: 'fields[0].extra' });
  });
});

describe('bulk calls', function () {
  this.timeout(120_000);
  let t: Tenant;
  let formId: string;
  before(async () => {
    t = await newTenant();
    formId = await createForm(t.testKey);
  });

  it('calls every contact once, fills the form on each call, and reports it in results, calls, events and CSV', async () => {
    const fill = (fields: Record<string, unknown>) => `TOOL fill_form ${JSON.stringify({ fields })}`;
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      name: 'RSVP round',
      metadata: { campaign: 'spring', shared: 'campaign' },
      contacts: [
        {
          phone: phone(1),
          name: 'Ana',
          external_id: 'c-1',
          metadata: { shared: 'contact' },
          simulation: { caller: ['Hello?', fill({ attending: true, party_size: 2, slot: 'Morning' }), 'Bye'] },
        },
        {
          phone: phone(2),
          simulation: {
            caller: [
              fill({ attending: 'yes' }),
              fill({ attending: false, visit_date: '2026-02-30' }),
              fill({ attending: false }),
            ],
          },
        },
        phone(3),
        phone(1), // a duplicate: called once
        { phone: phone(4), simulation: { outcome: 'no_answer' } },
      ],
    });
    expect(campaign).to.include({
      object: 'bulk_call',
      status: 'running',
      livemode: false,
      name: 'RSVP round',
      agent_id: t.agentId,
      form_id: formId,
      max_concurrency: 5,
      duplicates_removed: 1,
      completed_at: null,
    });
    expect(campaign.id).to.match(/^bulk_[0-9a-z]{26}$/);
    expect(campaign.counts).to.deep.equal({
      total: 4,
      pending: 4,
      in_progress: 0,
      completed: 0,
      not_reached: 0,
      failed: 0,
      skipped: 0,
    });
    expect(campaign.retry).to.deep.equal({ max_attempts: 1, on: [], interval_seconds: 0 });

    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.status).to.equal('completed');
    expect(done.counts).to.deep.equal({
      total: 4,
      pending: 0,
      in_progress: 0,
      completed: 3,
      not_reached: 1,
      failed: 0,
      skipped: 0,
    });

    const results = await allResults(t.testKey, campaign.id);
    expect(results.map((r) => [r.index, r.status, r.attempts, r.call_ids.length])).to.deep.equal([
      [0, 'completed', 1, 1],
      [1, 'completed', 1, 1],
      [2, 'completed', 1, 1],
      [3, 'no_answer', 1, 1],
    ]);
    expect(results[0]).to.include({ object: 'bulk_call_result', bulk_call_id: campaign.id });
    expect(results[0].contact).to.deep.include({ phone: phone(1), name: 'Ana', external_id: 'c-1' });
    expect(results[0].form).to.deep.equal({ attending: true, party_size: 2, slot: 'morning' });
    expect(results[1].form, 'bad values were refused, the corrected one kept').to.deep.equal({ attending: false });
    expect(results[2].contact).to.equal(phone(3));
    expect(results[2].form).to.equal(null);

    // The model was told what was wrong, as a tool result it could act on.
    const tr = await request('GET', `/v1/calls/${results[1].call_ids[0]}/transcript`, { key: t.testKey });
    const tools = tr.body.turns.filter((x: any) => x.role === 'tool').map((x: any) => x.text);
    expect(tools[0]).to.match(/^Error: nothing saved\. "attending" must be true or false/);
    expect(tools.find((x: string) => /visit_date/.test(x))).to.match(/"visit_date" must be a date written YYYY-MM-DD/);
    expect(tools[tools.length - 1]).to.match(/^Saved attending\. The form is complete\./);

    // The calls are ordinary calls, with the campaign's and the contact's metadata and the form.
    const calls = await campaignCalls(t.testKey, campaign.id);
    expect(calls).to.have.length(4);
    expect(new Set(calls.map((c) => c.to))).to.deep.equal(new Set([phone(1), phone(2), phone(3), phone(4)]));
    const ana = calls.find((c) => c.to === phone(1));
    expect(ana).to.include({ bulk_call_id: campaign.id, status: 'completed' });
    expect(ana.metadata).to.deep.equal({ campaign: 'spring', shared: 'contact' });
    expect(ana.context).to.deep.equal({ name: 'Ana', external_id: 'c-1' });
    expect(ana.form).to.deep.equal({ attending: true, party_size: 2, slot: 'morning' });
    expect(calls.find((c) => c.to === phone(3)).metadata).to.deep.equal({ campaign: 'spring', shared: 'campaign' });
    const plain = await request('GET', `/v1/calls?bulk_call_id=${'bulk_00000000000000000000000000'}`, {
      key: t.testKey,
    });
    expect(plain.body.data).to.deep.equal([]);

    // The assistant was offered fill_form and told the form's fields.
    const llmRequest = h().llm.requests.find((r) => r.user === ana.id)!;
    expect(llmRequest.tools!.map((x) => x.function.name)).to.include('fill_form');
    expect(llmRequest.messages[0].content)
      .to.contain('fill the form "RSVP"')
      .and.to.contain('- slot (one of "morning", "afternoon")');

    // Webhook events: every call event carries the metadata; one event per contact, one at the end.
    const ended = (await eventsOf(t.testKey, 'call.ended')).filter((e) => e.data.object.bulk_call_id === campaign.id);
    expect(ended).to.have.length(4);
    expect(ended.every((e) => e.data.object.metadata.campaign === 'spring')).to.equal(true);
    const perContact = (await eventsOf(t.testKey, 'bulk_call.contact_completed')).filter(
      (e) => e.data.object.bulk_call_id === campaign.id,
    );
    expect(perContact.map((e) => e.data.object.index).sort()).to.deep.equal([0, 1, 2, 3]);
    expect(perContact.find((e) => e.data.object.index === 0).data.object.form).to.deep.equal({
      attending: true,
      party_size: 2,
      slot: 'morning',
    });
    const completed = (await eventsOf(t.testKey, 'bulk_call.completed')).filter(
      (e) => e.data.object.id === campaign.id,
    );
    expect(completed).to.have.length(1);
    expect(completed[0].data.object).to.include({ status: 'completed' });
    expect(completed[0].data.object.metadata).to.deep.equal({ campaign: 'spring', shared: 'campaign' });

    // CSV, written by csv-stringify.
    const res = await fetch(`${h().api.url}/v1/bulk-calls/${campaign.id}/results`, {
      headers: { Authorization: `Bearer ${t.testKey}`, Accept: 'text/csv' },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const lines = (await res.text()).trim().split('\n');
    expect(lines[0]).to.equal(
      'index,phone,name,external_id,status,attempts,call_ids,form.attending,form.party_size,form.slot,form.visit_date,metadata',
    );
    expect(lines).to.have.length(5);
    expect(lines[1]).to.equal(
      `0,${phone(1)},Ana,c-1,completed,1,${results[0].call_ids[0]},true,2,morning,,"{""shared"":""contact""}"`,
    );
    expect(lines[4]).to.match(new RegExp(`^3,\\${phone(4)},,,no_answer,1,call_`));

    // Listed, filtered, and kept apart from live mode.
    const list = await request('GET', '/v1/bulk-calls?status=completed', { key: t.testKey });
    expect(list.body.data.map((c: any) => c.id)).to.include(campaign.id);
    expect((await request('GET', `/v1/bulk-calls/${campaign.id}`, { key: t.liveKey })).status).to.equal(404);
    const filtered = await request('GET', `/v1/bulk-calls/${campaign.id}/results?status=no_answer`, { key: t.testKey });
    expect(filtered.body.data.map((r: any) => r.index)).to.deep.equal([3]);
  });

  it('redials busy contacts as the retry rule says, and no others', async () => {
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      retry: { max_attempts: 3, on: ['busy'], interval_seconds: 1 },
      contacts: [
        { phone: phone(11), simulation: { outcome: 'busy' } },
        { phone: phone(12), simulation: { outcome: 'no_answer' } },
        { phone: phone(13), simulation: { caller: ['Hi'] } },
      ],
    });
    expect(campaign.retry).to.deep.equal({ max_attempts: 3, on: ['busy'], interval_seconds: 1 });
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.counts).to.include({ completed: 1, not_reached: 2, pending: 0 });
    const results = await allResults(t.testKey, campaign.id);
    expect(results.map((r) => [r.status, r.attempts, r.call_ids.length])).to.deep.equal([
      ['busy', 3, 3],
      ['no_answer', 1, 1],
      ['completed', 1, 1],
    ]);
    const calls = await campaignCalls(t.testKey, campaign.id);
    expect(calls.filter((c) => c.to === phone(11)).map((c) => c.status)).to.deep.equal(['busy', 'busy', 'busy']);
    expect(new Set(results[0].call_ids).size).to.equal(3);
    // Attempts wait retry.interval_seconds after the previous call's end.
    const busy = calls.filter((c) => c.to === phone(11)).sort((a, b) => a.created - b.created);
    expect(busy[1].created - busy[0].created).to.be.at.least(1);
  });

  it("waits for a calling window that opens later, in the contacts' time zone", async () => {
    const tz = 'Asia/Tokyo';
    const opens = Date.now() + 8000;
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      schedule: { window: { start: localTime(opens, tz), end: '24:00' }, timezone: tz },
      contacts: [phone(21), phone(22)],
    });
    expect(campaign.schedule).to.deep.equal({
      window: { start: localTime(opens, tz), end: '24:00' },
      days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
      timezone: tz,
    });
    await sleep(4000);
    expect(await campaignCalls(t.testKey, campaign.id), 'no call before the window opens').to.deep.equal([]);
    expect((await request('GET', `/v1/bulk-calls/${campaign.id}`, { key: t.testKey })).body.counts.pending).to.equal(2);
    await waitForCampaign(t.testKey, campaign.id, undefined, 60_000);
    const calls = await campaignCalls(t.testKey, campaign.id);
    expect(calls).to.have.length(2);
    for (const c of calls) expect(c.created * 1000).to.be.at.least(opens - 1000);
  });

  it('calls at once when the window is open now, and ends contacts window_expired at ends_at', async () => {
    const tz = 'America/New_York';
    // The window is open only the day after tomorrow (local), so it is closed until ends_at passes.
    const later = new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short' })
      .format(new Date(Date.now() + 2 * 86_400_000))
      .toLowerCase();
    const expiring = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      schedule: {
        window: { start: '00:00', end: '24:00' },
        days: [later],
        timezone: tz,
        ends_at: Math.floor(Date.now() / 1000) + 4,
      },
      contacts: [phone(31), phone(32)],
    });
    const open = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      schedule: { window: { start: '00:00', end: '24:00' }, timezone: tz },
      contacts: [phone(33)],
    });
    expect((await waitForCampaign(t.testKey, open.id, undefined, 30_000)).counts.completed).to.equal(1);
    const expired = await waitForCampaign(t.testKey, expiring.id, undefined, 30_000);
    expect(expired).to.include({ status: 'completed' });
    expect(expired.counts).to.include({ skipped: 2, pending: 0, completed: 0 });
    expect((await allResults(t.testKey, expiring.id)).map((r) => r.status)).to.deep.equal([
      'window_expired',
      'window_expired',
    ]);
    expect(await campaignCalls(t.testKey, expiring.id)).to.deep.equal([]);
  });

  it('pauses within a second, resumes, and cancels pending contacts while calls in flight finish', async () => {
    const slow = { caller: ['one', 'two'], pause_seconds: 1 };
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      max_concurrency: 1,
      simulation: slow,
      contacts: Array.from({ length: 8 }, (_, i) => phone(40 + i)),
    });
    await waitForCampaign(t.testKey, campaign.id, (c) => c.counts.completed >= 1, 30_000);
    const paused = await request('POST', `/v1/bulk-calls/${campaign.id}/pause`, { key: t.testKey });
    expect(paused.status, JSON.stringify(paused.body)).to.equal(200);
    expect(paused.body.status).to.equal('paused');
    const atPause = (await campaignCalls(t.testKey, campaign.id)).length;
    await sleep(4000);
    const later = await campaignCalls(t.testKey, campaign.id);
    expect(later.length, 'no new dial after the pause').to.equal(atPause);
    expect(
      later.every((c) => ['completed'].includes(c.status)),
      'the call in flight finished',
    ).to.equal(true);
    const again = await request('POST', `/v1/bulk-calls/${campaign.id}/pause`, { key: t.testKey });
    expect(again.body.status, 'pausing twice is harmless').to.equal('paused');

    const resumed = await request('POST', `/v1/bulk-calls/${campaign.id}/resume`, { key: t.testKey });
    expect(resumed.body.status).to.equal('running');
    await waitForCampaign(t.testKey, campaign.id, (c) => c.counts.completed >= atPause + 1, 30_000);

    const canceled = await request('POST', `/v1/bulk-calls/${campaign.id}/cancel`, { key: t.testKey });
    expect(canceled.status, JSON.stringify(canceled.body)).to.equal(200);
    expect(canceled.body.status).to.equal('canceled');
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.status).to.equal('canceled');
    const results = await allResults(t.testKey, campaign.id);
    const calls = await campaignCalls(t.testKey, campaign.id);
    expect(
      calls.every((c) => c.status === 'completed'),
      'calls in flight at the cancel finished',
    ).to.equal(true);
    expect(results.filter((r) => r.status === 'completed').length).to.equal(calls.length);
    expect(results.filter((r) => r.status === 'canceled').length)
      .to.equal(8 - calls.length)
      .and.to.be.greaterThan(0);
    expect(
      results.filter((r) => r.status === 'canceled').every((r) => r.attempts === 0 && r.call_ids.length === 0),
    ).to.equal(true);
    expect(done.counts).to.include({ pending: 0, in_progress: 0, completed: calls.length, skipped: 8 - calls.length });

    const late = await request('POST', `/v1/bulk-calls/${campaign.id}/resume`, { key: t.testKey });
    expect(late.status).to.equal(409);
    expect(late.body.error).to.include({ type: 'invalid_request_error', code: 'bulk_call_ended' });
    const cancelAgain = await request('POST', `/v1/bulk-calls/${campaign.id}/cancel`, { key: t.testKey });
    expect(cancelAgain.status).to.equal(200);
    const completed = (await eventsOf(t.testKey, 'bulk_call.completed')).filter(
      (e) => e.data.object.id === campaign.id,
    );
    expect(completed.map((e) => e.data.object.status)).to.deep.equal(['canceled']);
  });

  it('refuses bad rows with a 400 naming the row, and creates nothing', async () => {
    const post = (body: Record<string, unknown>, key = t.testKey) =>
      request('POST', '/v1/bulk-calls', { key, body: { agent_id: t.agentId, form_id: formId, ...body } });
    const before = (await request('GET', '/v1/bulk-calls?limit=100', { key: t.testKey })).body.data.length;
    let res = await post({ contacts: [phone(1), phone(2), { phone: '+1415' }] });
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ code: 'parameter_invalid', param: 'contacts[2].phone' });
    expect(res.body.error.message).to.contain('contacts[2].phone');
    res = await post({ contacts: [phone(1), '12345'] });
    expect(res.body.error).to.include({ param: 'contacts[1]' });
    res = await post({ contacts: [{ phone: phone(1), colour: 'red' }] });
    expect(res.body.error).to.include({ code: 'parameter_unknown', param: 'contacts[0].colour' });
    res = await post({ contacts: [{ name: 'No number' }] });
    expect(res.body.error).to.include({ code: 'parameter_missing', param: 'contacts[0].phone' });
    res = await post({ contacts: [{ phone: phone(1), simulation: { outcome: 'maybe' } }] });
    expect(res.body.error).to.include({ param: 'contacts[0].simulation.outcome' });
    res = await post({ contacts: [] });
    expect(res.body.error).to.include({ param: 'contacts' });
    res = await post({ contacts: Array.from({ length: 10_001 }, (_, i) => phone(i % 9000)) });
    expect(res.body.error).to.include({ param: 'contacts' });
    res = await post({ contacts: [phone(1)], max_concurrency: 51 });
    expect(res.body.error).to.include({ param: 'max_concurrency' });
    res = await post({ contacts: [phone(1)], schedule: { window: { start: '18:00', end: '09:00' } } });
    expect(res.body.error).to.include({ param: 'schedule.window.end' });
    res = await post({
      contacts: [phone(1)],
      schedule: { window: { start: '09:00', end: '18:00' }, timezone: 'Mars/Olympus' },
    });
    expect(res.body.error).to.include({ param: 'schedule.timezone' });
    res = await post({ contacts: [phone(1)], schedule: { window: { start: '9am', end: '18:00' } } });
    expect(res.body.error).to.include({ param: 'schedule.window.start' });
    res = await post({ contacts: [phone(1)], retry: { on: ['answered'] } });
    expect(res.body.error).to.include({ param: 'retry.on[0]' });
    res = await post({ contacts: [phone(1)], form_id: 'form_00000000000000000000000000' });
    expect(res.status).to.equal(404);
    expect(res.body.error).to.include({ param: 'form_id' });
    res = await post({ contacts: [phone(1)], simulation: { outcome: 'busy' } }, t.liveKey);
    expect(res.status).to.equal(400);
    expect(res.body.error).to.include({ param: 'simulation' });
    expect((await request('GET', '/v1/bulk-calls?limit=100', { key: t.testKey })).body.data.length).to.equal(before);
  });

  it('takes 10,000 contacts in one request (the body limit is raised for this route only)', async function () {
    this.timeout(180_000);
    const contacts = Array.from({ length: 10_000 }, (_, i) => ({
      phone: `+1212555${String(i).padStart(4, '0')}`,
      metadata: { row: String(i) },
    }));
    const res = await request('POST', '/v1/bulk-calls', {
      key: t.testKey,
      body: {
        agent_id: t.agentId,
        form_id: formId,
        contacts,
        max_concurrency: 1,
        simulation: { outcome: 'no_answer' },
      },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body.counts.total).to.equal(10_000);
    const page = await request(
      'GET',
      `/v1/bulk-calls/${res.body.id}/results?limit=2&starting_after=${res.body.id}:009997`,
      { key: t.testKey },
    );
    expect(page.body.data.map((r: any) => r.index)).to.deep.equal([9998, 9999]);
    expect(page.body.has_more).to.equal(false);
    const canceled = await request('POST', `/v1/bulk-calls/${res.body.id}/cancel`, { key: t.testKey });
    expect(canceled.status).to.equal(200);
    const done = await waitForCampaign(t.testKey, res.body.id);
    expect(done.counts.skipped + done.counts.not_reached).to.equal(10_000);
    const canceledPage = await request('GET', `/v1/bulk-calls/${res.body.id}/results?status=canceled&limit=100`, {
      key: t.testKey,
    });
    expect(canceledPage.body.data).to.have.length(100);
    expect(canceledPage.body.data.every((r: any) => r.status === 'canceled' && r.attempts === 0)).to.equal(true);
    const stillPending = await request('GET', `/v1/bulk-calls/${res.body.id}/results?status=pending`, {
      key: t.testKey,
    });
    expect(stillPending.body.data, 'no row is left pending after a cancel').to.deep.equal([]);
    const big = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: { to: phone(1), agent_id: t.agentId, context: { blob: 'x'.repeat(1_100_000) } },
    });
    expect(big.status, 'other routes keep the 1 MB limit').to.equal(413);
  });

  it('skips contacts marked do_not_call, checked when they are dialed', async () => {
    const marked = await request('POST', '/v1/contacts', {
      key: t.testKey,
      body: { phone: phone(61), name: 'Opted out', do_not_call: true },
    });
    expect(marked.status, JSON.stringify(marked.body)).to.equal(200);
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      contacts: [phone(61), phone(62)],
    });
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.counts).to.include({ skipped: 1, completed: 1 });
    const results = await allResults(t.testKey, campaign.id);
    expect(results.map((r) => [r.status, r.attempts, r.call_ids.length])).to.deep.equal([
      ['do_not_call', 0, 0],
      ['completed', 1, 1],
    ]);
    expect((await campaignCalls(t.testKey, campaign.id)).map((c) => c.to)).to.deep.equal([phone(62)]);
  });

  it('replays a campaign creation with its Idempotency-Key instead of starting a second one', async () => {
    const body = { agent_id: t.agentId, form_id: formId, contacts: [phone(71)] };
    const key = `idem-${Date.now()}`;
    const first = await startCampaign(t.testKey, body, { 'Idempotency-Key': key });
    const again = await request('POST', '/v1/bulk-calls', {
      key: t.testKey,
      body,
      headers: { 'Idempotency-Key': key },
    });
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body.id).to.equal(first.id);
    await waitForCampaign(t.testKey, first.id);
    expect(await campaignCalls(t.testKey, first.id)).to.have.length(1);
  });
});
