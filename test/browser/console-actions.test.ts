/**
 * The staff console's actions in a real browser (issue 35 items 2–5), each checked on the page and
 * through the API: a live call's Say, Transfer and End (an `agent` user; a `viewer` gets no controls); a
 * contact's new record (newest first) and its `do_not_call` toggle (stored, and a campaign to that
 * contact skips it: the rule of src/activities/bulk-calls.ts — a single `POST /v1/calls` does not check
 * it, README "Contacts"); a running campaign canceled from its page and its results downloaded as CSV,
 * the same rows as `GET /v1/bulk-calls/{id}/results`; a test call placed from an agent's page and
 * followed until `completed`; two staff users on one WhatsApp conversation, each seeing the other's
 * take-over and replies without reload. Shared page helpers: test/support/console-pages.ts.
 */
import fs from 'node:fs/promises';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createUser } from '../../src/services/users';
import { createForm, startCampaign, waitForCampaign } from '../support/bulk-calls';
import { launchChromium } from '../support/browser';
import { consolePages } from '../support/console-pages';
import { customerNumber, eventually, inbound, messagesOf } from '../support/conversations';
import { h, newTenant, request, waitForCall } from '../support/harness';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** RFC 4180 rows (quoted fields, doubled quotes), enough for the results CSV. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (row.push(field), (field = ''));
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      (row.push(field), rows.push(row), (row = []), (field = ''));
    } else field += ch;
  }
  if (field || row.length) (row.push(field), rows.push(row));
  return rows;
}

/** The call status shown (`[data-testid=call-status]`, `_` drawn as a space), polled until it is `want`. */
async function waitForStatus(page: Page, want: string, timeout = 30_000) {
  await page.waitForFunction(
    (w) => (globalThis as any).document.querySelector('[data-testid=call-status]')?.textContent.trim() === w,
    want.replace(/_/g, ' '),
    { timeout },
  );
}

describe('staff console actions in a browser', function () {
  this.timeout(120_000);
  let browser: Browser;
  let t: Tenant;
  const password = 'correct horse battery staple';
  let agentA: { id: string; email: string };
  let agentB: { id: string; email: string };
  let viewer: { id: string; email: string };
  const { signedInPage } = consolePages(() => browser, password);

  before(async () => {
    browser = await launchChromium();
    t = await newTenant({ first_message: 'Hello, this is the front desk.' });
    const tag = Math.random().toString(36).slice(2, 8);
    // Two agent-role users (as `svcctl users create --role agent` does) and a viewer.
    agentA = await createUser({ orgId: t.orgId, email: `a-${tag}@example.com`, role: 'agent', password });
    agentB = await createUser({ orgId: t.orgId, email: `b-${tag}@example.com`, role: 'agent', password });
    viewer = await createUser({ orgId: t.orgId, email: `v-${tag}@example.com`, role: 'viewer', password });
  });

  after(async () => {
    await browser?.close();
  });

  /** A simulated test call that stays in progress for a while (a caller line every 2 s). */
  async function liveCall(): Promise<string> {
    const created = await request('POST', '/v1/calls', {
      key: t.testKey,
      body: {
        agent_id: t.agentId,
        to: customerNumber(),
        simulation: { caller: ['Hello', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'], pause_seconds: 2 },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    await waitForCall(t.testKey, created.body.id, (c) => c.status === 'in_progress');
    return created.body.id;
  }

  it('a live call: a viewer gets no controls; an agent says a line, then ends the call, seen without reload', async () => {
    const callId = await liveCall();
    const asViewer = await signedInPage(viewer.email);
    await asViewer.page.goto(`${h().api.url}/console/calls/${callId}`);
    await waitForStatus(asViewer.page, 'in_progress');
    expect(await asViewer.page.$$('.live-controls')).to.have.length(0);
    expect(await asViewer.page.$$('#say-text')).to.have.length(0);
    await asViewer.page.context().close();

    const { page, problems } = await signedInPage(agentA.email);
    await page.goto(`${h().api.url}/console/calls/${callId}`);
    await waitForStatus(page, 'in_progress');
    await page.evaluate(() => ((globalThis as any).notReloaded = true));
    const line = 'A colleague will call you back within the hour.';
    await page.fill('#say-text', line);
    await page.click('.live-controls button[type=submit]:has-text("Say")');
    // Said: in the page's live transcript as the assistant's line, and in the call's turns as `author: "api"`.
    await page.waitForFunction(
      (l) =>
        [...(globalThis as any).document.querySelectorAll('.transcript li[data-role=assistant] .turn-text')].some(
          (e: any) => e.textContent === l,
        ),
      line,
      { timeout: 15_000 },
    );
    // The live stream can show the line before the POST's answer reaches the page; the box is cleared
    // on that answer, so wait for it rather than read it at once.
    await page
      .waitForFunction(() => ((globalThis as any).document.querySelector('#say-text') as any)?.value === '', null, {
        timeout: 10_000,
      })
      .catch(() => undefined);
    expect(await page.inputValue('#say-text'), 'the box is cleared once said').to.equal('');
    const live = (await request('GET', `/v1/calls/${callId}`, { key: t.testKey })).body;
    expect(live.status).to.equal('in_progress');
    expect(live.turns.filter((x: any) => x.author === 'api').map((x: any) => x.text)).to.deep.equal([line]);

    await page.click('button:has-text("End call")');
    await waitForStatus(page, 'completed');
    expect(await page.$$('.live-controls'), 'no controls once ended').to.have.length(0);
    expect(await page.evaluate(() => (globalThis as any).notReloaded)).to.equal(true);
    const ended = await waitForCall(t.testKey, callId);
    expect(ended).to.include({ status: 'completed', end_reason: 'api_ended' });
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it('a live call: Transfer refuses a number that is not E.164 with the API message, then transfers', async () => {
    const callId = await liveCall();
    const { page, problems } = await signedInPage(agentA.email);
    await page.goto(`${h().api.url}/console/calls/${callId}`);
    await waitForStatus(page, 'in_progress');
    await page.fill('#transfer-to', '12345');
    await page.click('.live-controls button:has-text("Transfer")');
    const alert = await page.waitForSelector('.live-controls [role=alert]');
    expect(await alert.textContent()).to.match(/to/i);
    expect((await request('GET', `/v1/calls/${callId}`, { key: t.testKey })).body.status).to.equal('in_progress');

    await page.fill('#transfer-to', '+14155550100');
    await page.click('.live-controls button:has-text("Transfer")');
    await waitForStatus(page, 'transferred');
    const call = await waitForCall(t.testKey, callId);
    expect(call).to.include({ status: 'transferred', end_reason: 'transferred', transferred_to: '+14155550100' });
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it('a contact: adds a record (shown first, returned by the API) and toggles do_not_call, which a campaign honours', async () => {
    const phone = customerNumber();
    const contact = await request('POST', '/v1/contacts', { key: t.testKey, body: { phone, name: 'Grace Hopper' } });
    expect(contact.status, JSON.stringify(contact.body)).to.equal(200);
    const older = await request('POST', '/v1/records', {
      key: t.testKey,
      body: { contact: { phone }, records: [{ title: 'Old order', type: 'order', text: 'One desk.' }] },
    });
    expect(older.status, JSON.stringify(older.body)).to.equal(200);

    const { page, problems } = await signedInPage(agentA.email);
    await page.goto(`${h().api.url}/console/contacts/${contact.body.id}`);
    await page.waitForSelector('.records li');
    await page.fill('#rec-title', 'Call note');
    await page.fill('#rec-type', 'note');
    await page.fill('#rec-text', 'Prefers mornings.');
    await page.click('button:has-text("Add record")');
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('.records li strong')?.textContent === 'Call note',
    );
    expect(await page.$$eval('.records li strong', (els) => els.map((e) => e.textContent))).to.deep.equal([
      'Call note',
      'Old order',
    ]);
    expect(await page.inputValue('#rec-text'), 'the form is cleared').to.equal('');
    const records = (await request('GET', `/v1/contacts/${contact.body.id}/records`, { key: t.testKey })).body.data;
    const added = records.find((r: any) => r.title === 'Call note');
    expect(added).to.include({ type: 'note', text: 'Prefers mornings.' });
    expect(records).to.have.length(2);

    const toggle = 'label.toggle input[type=checkbox]';
    expect(await page.isChecked(toggle)).to.equal(false);
    await page.click(toggle);
    await eventually(
      async () => (await request('GET', `/v1/contacts/${contact.body.id}`, { key: t.testKey })).body.do_not_call,
      'do_not_call stored',
    );
    await page.reload();
    await page.waitForSelector(toggle);
    expect(await page.isChecked(toggle), 'still on after a reload').to.equal(true);
    // The rule: a campaign does not dial a do-not-call contact (its row ends `do_not_call`).
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: await createForm(t.testKey),
      contacts: [phone],
      simulation: { caller: ['Bye'] },
    });
    await waitForCampaign(t.testKey, campaign.id, undefined, 30_000);
    const rows = (await request('GET', `/v1/bulk-calls/${campaign.id}/results`, { key: t.testKey })).body.data;
    expect(rows.map((r: any) => [r.status, r.call_ids])).to.deep.equal([['do_not_call', []]]);

    await page.click(toggle);
    await eventually(
      async () => !(await request('GET', `/v1/contacts/${contact.body.id}`, { key: t.testKey })).body.do_not_call,
      'do_not_call cleared',
    );
    expect(await page.isChecked(toggle)).to.equal(false);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it('a campaign: canceled from its page, then its results downloaded as CSV, the rows of the API', async () => {
    const contacts = Array.from({ length: 4 }, () => customerNumber());
    const campaign = await startCampaign(t.testKey, {
      name: 'Autumn reminders',
      agent_id: t.agentId,
      form_id: await createForm(t.testKey),
      max_concurrency: 1,
      simulation: { caller: ['one', 'two', 'three'], pause_seconds: 1 },
      contacts,
    });
    const { page, problems } = await signedInPage(agentA.email);
    await page.goto(`${h().api.url}/console/campaigns/${campaign.id}`);
    await page.waitForSelector('[data-testid=campaign-status]');
    expect(await page.textContent('[data-testid=campaign-status]')).to.equal('running');
    await page.click('button:has-text("Cancel")');
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector('[data-testid=campaign-status]')?.textContent === 'canceled',
    );
    expect(await page.$$('button:has-text("Cancel")'), 'no controls once canceled').to.have.length(0);
    const over = await waitForCampaign(t.testKey, campaign.id, undefined, 30_000);
    expect(over.status).to.equal('canceled');

    const api = (await request('GET', `/v1/bulk-calls/${campaign.id}/results?limit=100`, { key: t.testKey })).body.data;
    expect(api.map((r: any) => r.status)).to.include('canceled');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('button:has-text("Download CSV")'),
    ]);
    expect(download.suggestedFilename()).to.equal(`${campaign.id}.csv`);
    const rows = parseCsv(await fs.readFile((await download.path())!, 'utf8'));
    expect(rows[0]!.slice(0, 7)).to.deep.equal([
      'index',
      'phone',
      'name',
      'external_id',
      'status',
      'attempts',
      'call_ids',
    ]);
    expect(rows.slice(1).map((r) => [Number(r[0]), r[1], r[4], Number(r[5]), r[6]])).to.deep.equal(
      api.map((r: any) => [
        r.index,
        typeof r.contact === 'string' ? r.contact : r.contact.phone,
        r.status,
        r.attempts,
        r.call_ids.join(' '),
      ]),
    );
    expect(rows.slice(1).map((r) => r[1])).to.deep.equal(contacts);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it("an agent's page: an admin edits the instructions, built-in tools and analysis plan; a bad JSON is refused", async () => {
    const admin = await createUser({
      orgId: t.orgId,
      email: `admin-${Math.random().toString(36).slice(2, 8)}@example.com`,
      role: 'admin',
      password,
    });
    // Its own agent, so the other tests' agent keeps its settings.
    const made = await request('POST', '/v1/agents', {
      key: t.testKey,
      body: { name: 'Edited in the console', instructions: 'Be brief.' },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    const { page, problems } = await signedInPage(admin.email);
    await page.goto(`${h().api.url}/console/agents/${made.body.id}`);
    await page.waitForSelector('button:has-text("Save agent")');
    await page.fill('#ag-analysis', '{not json');
    await page.click('button:has-text("Save agent")');
    await page.waitForSelector('form[aria-label="Edit agent"] [role=alert]');
    expect(await page.textContent('form[aria-label="Edit agent"] [role=alert]')).to.include('Analysis plan');
    expect((await request('GET', `/v1/agents/${made.body.id}`, { key: t.testKey })).body.instructions).to.equal(
      'Be brief.',
    );
    await page.fill('#ag-instructions', 'Answer in one sentence, then ask if there is anything else.');
    await page.fill('#ag-analysis', JSON.stringify({ summary: true }));
    await page.click('button:has-text("Save agent")');
    await page.waitForSelector('form[aria-label="Edit agent"] [role=status]');
    const after = (await request('GET', `/v1/agents/${made.body.id}`, { key: t.testKey })).body;
    expect(after.instructions).to.equal('Answer in one sentence, then ask if there is anything else.');
    expect(after.analysis).to.deep.include({ summary: true });
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it("an agent's page: an agent-role user places a test call and watches it until completed", async () => {
    const { page, problems } = await signedInPage(agentA.email);
    await page.goto(`${h().api.url}/console/agents/${t.agentId}`);
    await page.waitForSelector('form[aria-label="Test call"]');
    // Editing an agent is an admin's (agents:write): an agent-role user reads it, with no Save button.
    expect(await page.$$('button:has-text("Save agent")')).to.have.length(0);
    expect(await page.getAttribute('#ag-instructions', 'readonly')).to.not.equal(null);
    const to = customerNumber();
    await page.fill('#tc-to', to);
    await page.fill('#tc-lines', 'Hi there\nThanks, bye');
    await page.click('button:has-text("Place test call")');
    await page.waitForURL(/\/console\/calls\/call_/);
    const callId = page.url().split('/').pop()!;
    await waitForStatus(page, 'completed', 60_000);
    const call = await waitForCall(t.testKey, callId);
    expect(call).to.include({ status: 'completed', to, agent_id: t.agentId, simulated: true });
    await page.waitForFunction(
      () => (globalThis as any).document.querySelectorAll('.transcript li[data-role=caller]').length >= 2,
    );
    expect(
      await page.$$eval('.transcript li[data-role=caller] .turn-text', (els) => els.map((e) => e.textContent)),
    ).to.deep.equal(['Hi there', 'Thanks, bye']);
    expect(problems).to.deep.equal([]);
    await page.context().close();
  });

  it('two staff users on one conversation: B sees A take it over and reply without reload, A sees B’s reply', async () => {
    const from = customerNumber();
    const first = await inbound(t.testKey, { channel: 'whatsapp', from, text: 'Hello, is the shop open?' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const convId: string = first.body.conversation_id;
    await eventually(async () => (await messagesOf(t.testKey, convId)).some((m) => m.author === 'assistant'), 'answer');

    const a = await signedInPage(agentA.email);
    const b = await signedInPage(agentB.email);
    for (const { page } of [a, b]) {
      await page.goto(`${h().api.url}/console/inbox/${convId}`);
      await page.waitForSelector('button:has-text("Take over")');
      await page.evaluate(() => ((globalThis as any).notReloaded = true));
    }
    await a.page.click('button:has-text("Take over")');
    await a.page.waitForSelector('button:has-text("Give back to assistant")');
    expect(await a.page.textContent('[data-testid=taken-by]')).to.equal('Taken by you');
    // B's list and thread mark it as taken by A, by email (GET /console/api/staff), from the org stream.
    const bRow = `li[data-conversation="${convId}"][data-status=needs_person]`;
    await b.page.waitForFunction(
      ([row, who]) => (globalThis as any).document.querySelector(row)?.textContent.includes(`taken by ${who}`),
      [bRow, agentA.email] as const,
      { timeout: 5000 },
    );
    await b.page.waitForFunction(
      (who) => (globalThis as any).document.querySelector('[data-testid=taken-by]')?.textContent === `Taken by ${who}`,
      agentA.email,
    );
    expect(await b.page.$$('button:has-text("Give back to assistant")'), 'B can give it back too').to.have.length(1);
    expect((await request('GET', `/v1/conversations/${convId}`, { key: t.testKey })).body).to.include({
      status: 'needs_person',
      taken_by: agentA.id,
    });

    const seen = (page: Page, text: string) =>
      page.waitForFunction(
        (x) =>
          [...(globalThis as any).document.querySelectorAll('li[data-author=person] .msg-text')].some(
            (e: any) => e.textContent === x,
          ),
        text,
        { timeout: 5000 },
      );
    await a.page.fill('#reply-text', 'Yes, until six. I am Alex.');
    await a.page.press('#reply-text', 'Enter');
    await seen(b.page, 'Yes, until six. I am Alex.');
    await b.page.fill('#reply-text', 'And I am Blake, also here.');
    await b.page.press('#reply-text', 'Enter');
    await seen(a.page, 'And I am Blake, also here.');
    const stored = (await messagesOf(t.testKey, convId)).filter((m) => m.author === 'person');
    expect(stored.map((m) => [m.text, m.user_id])).to.deep.equal([
      ['Yes, until six. I am Alex.', agentA.id],
      ['And I am Blake, also here.', agentB.id],
    ]);
    for (const { page, problems } of [a, b]) {
      expect(await page.evaluate(() => (globalThis as any).notReloaded)).to.equal(true);
      expect(problems).to.deep.equal([]);
      await page.context().close();
    }
  });
});
