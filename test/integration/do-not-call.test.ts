/**
 * Do-not-call through the real API, store and Temporal: an organization's list (`POST /v1/do_not_call`
 * with numbers or a CSV, `GET`, `DELETE`), all or nothing on a bad number, per organization and mode;
 * `svcctl dnc load FILE` with the National Do Not Call Registry's full-list format (a malformed line
 * refused by its number, nothing changed); a campaign skipping numbers on either list with
 * `result: "do_not_call"` and dialing the others.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { h, newTenant, request } from '../support/harness';
import { allResults, campaignCalls, createForm, phone, startCampaign, waitForCampaign } from '../support/bulk-calls';

const BIN = path.resolve(__dirname, '../../../bin/svcctl.js');

/** Runs `svcctl` against the test store; resolves with its exit code, stdout (JSON when it is) and stderr. */
async function svcctl(...args: string[]): Promise<{ code: number; out: any; err: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [BIN, ...args], {
      env: { ...process.env, FERRETDB_PORT: undefined, MONGODB_URI: h().ferret.uri },
    });
    return { code: 0, out: JSON.parse(stdout), err: stderr };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, out: null, err: err.stderr };
  }
}

/** Writes `text` to a new temporary file; returns its path. */
function tempFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dnc-')), 'registry.txt');
  fs.writeFileSync(file, text);
  return file;
}

type Tenant = Awaited<ReturnType<typeof newTenant>>;

describe('do-not-call', function () {
  this.timeout(120_000);
  let t: Tenant;
  let other: Tenant;

  before(async () => {
    [t, other] = await Promise.all([newTenant(), newTenant()]);
  });

  after(async () => {
    // The registry copy is the whole service's: leave it empty for the other test files.
    expect((await svcctl('dnc', 'load', tempFile(''))).code).to.equal(0);
  });

  it('lists numbers once, shows, checks and deletes them, per organization and mode', async () => {
    const a = '+14155550181';
    const b = '+14155550182';
    const first = await request('POST', '/v1/do_not_call', { key: t.testKey, body: { numbers: [a, b, a] } });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({
      object: 'do_not_call_import',
      livemode: false,
      received: 2,
      added: 2,
      already_listed: 0,
    });
    const again = await request('POST', '/v1/do_not_call', { key: t.testKey, body: { numbers: [b] } });
    expect(again.body).to.include({ added: 0, already_listed: 1 });

    const list = await request('GET', '/v1/do_not_call', { key: t.testKey });
    expect(list.body.data.map((e: any) => e.phone)).to.have.members([a, b]);
    expect(list.body.data[0]).to.include({ object: 'do_not_call_entry', source: 'api', livemode: false });
    expect(list.body.data[0].id).to.match(/^dnc_/);
    const one = await request('GET', `/v1/do_not_call/${encodeURIComponent(a)}`, { key: t.testKey });
    expect(one.status).to.equal(200);
    expect(one.body.phone).to.equal(a);

    // Another organization, and the same organization's live mode, have lists of their own.
    for (const key of [other.testKey, t.liveKey]) {
      const elsewhere = await request('GET', `/v1/do_not_call/${encodeURIComponent(a)}`, { key });
      expect(elsewhere.status).to.equal(404);
      expect(elsewhere.body.error).to.include({ code: 'resource_missing', param: 'phone' });
      expect((await request('GET', '/v1/do_not_call', { key })).body.data).to.deep.equal([]);
    }

    const removed = await request('DELETE', `/v1/do_not_call/${encodeURIComponent(a)}`, { key: t.testKey });
    expect(removed.body).to.include({ object: 'do_not_call_entry', phone: a, deleted: true });
    expect((await request('GET', `/v1/do_not_call/${encodeURIComponent(a)}`, { key: t.testKey })).status).to.equal(404);
    expect((await request('DELETE', `/v1/do_not_call/${encodeURIComponent(a)}`, { key: t.testKey })).status).to.equal(
      404,
    );
    const bad = await request('GET', '/v1/do_not_call/4155550181', { key: t.testKey });
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.include({ code: 'parameter_invalid', param: 'phone' });
  });

  it('takes a CSV with a phone column, all or nothing: a bad line is named and nothing is listed', async () => {
    const tenant = await newTenant();
    const csv = 'name,phone\nAda,+14155550191\n"Lovelace, B",+14155550192\n\n';
    const ok = await request('POST', '/v1/do_not_call', { key: tenant.testKey, body: { csv } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(ok.body).to.include({ received: 2, added: 2 });
    const listed = (await request('GET', '/v1/do_not_call', { key: tenant.testKey })).body.data;
    expect(listed.map((e: any) => [e.phone, e.source])).to.have.deep.members([
      ['+14155550191', 'csv'],
      ['+14155550192', 'csv'],
    ]);

    const badCsv = await request('POST', '/v1/do_not_call', {
      key: tenant.testKey,
      body: { csv: 'phone\n+14155550193\n+14155550194\n555-0195\n' },
    });
    expect(badCsv.status).to.equal(400);
    expect(badCsv.body.error).to.include({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'csv' });
    expect(badCsv.body.error.message).to.contain('Line 4').and.contain('555-0195');
    const badNumbers = await request('POST', '/v1/do_not_call', {
      key: tenant.testKey,
      body: { numbers: ['+14155550196', 'not a number'] },
    });
    expect(badNumbers.status).to.equal(400);
    expect(badNumbers.body.error.param).to.match(/^numbers.*1/);
    const both = await request('POST', '/v1/do_not_call', {
      key: tenant.testKey,
      body: { numbers: ['+14155550197'], csv: 'phone\n+14155550198' },
    });
    expect(both.status).to.equal(400);
    const after = (await request('GET', '/v1/do_not_call?limit=100', { key: tenant.testKey })).body.data;
    expect(after, 'nothing of a refused request is listed').to.have.length(2);
  });

  it('lists 5,000 numbers in one request, and finds one by index', async () => {
    const tenant = await newTenant();
    const numbers = Array.from({ length: 5_000 }, (_, i) => `+1212555${String(i).padStart(4, '0')}`).filter(
      (n) => n !== '+12125550000',
    );
    const res = await request('POST', '/v1/do_not_call', { key: tenant.testKey, body: { numbers } });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(200);
    expect(res.body).to.include({ received: numbers.length, added: numbers.length });
    const found = await request('GET', `/v1/do_not_call/${encodeURIComponent(numbers[4_321]!)}`, {
      key: tenant.testKey,
    });
    expect(found.body.phone).to.equal(numbers[4_321]);
  });

  it('loads the national registry with svcctl (a malformed line refused by number, nothing changed)', async () => {
    const loaded = await svcctl('dnc', 'load', tempFile('907,5550101\r\n9075550102\n\n'));
    expect(loaded.code, loaded.err).to.equal(0);
    expect(loaded.out).to.deep.equal({ object: 'national_dnc_registry', numbers: 2 });

    const bad = await svcctl('dnc', 'load', tempFile('907,5550103\n907-555-0104\n'));
    expect(bad.code).to.equal(1);
    expect(JSON.parse(bad.err.split('\n')[0]!).error.message).to.contain('Line 2');
    const missing = await svcctl('dnc', 'load');
    expect(missing.code).to.equal(2);
  });

  it('reloads a registry whose numbers are already loaded (hundreds of updates that match, in commands the store can serve)', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `907,555${String(3000 + i)}`).join('\n');
    const file = tempFile(`${lines}\n`);
    for (const round of [1, 2]) {
      const loaded = await svcctl('dnc', 'load', file);
      expect(loaded.code, `load ${round}: ${loaded.err}`).to.equal(0);
      expect(loaded.out).to.deep.equal({ object: 'national_dnc_registry', numbers: 300 });
    }
  });

  it('a campaign skips numbers on the organization’s list and on the national registry, dials the rest', async () => {
    expect((await svcctl('dnc', 'load', tempFile('907,5550111\n'))).code).to.equal(0);
    const listed = await request('POST', '/v1/do_not_call', { key: t.testKey, body: { numbers: [phone(81)] } });
    expect(listed.status).to.equal(200);
    const formId = await createForm(t.testKey);
    const campaign = await startCampaign(t.testKey, {
      agent_id: t.agentId,
      form_id: formId,
      contacts: [phone(81), '+19075550111', phone(82)],
    });
    const done = await waitForCampaign(t.testKey, campaign.id);
    expect(done.counts).to.include({ skipped: 2, completed: 1 });
    const results = await allResults(t.testKey, campaign.id);
    expect(results.map((r) => [r.contact, r.status, r.call_ids.length])).to.deep.equal([
      [phone(81), 'do_not_call', 0],
      ['+19075550111', 'do_not_call', 0],
      [phone(82), 'completed', 1],
    ]);
    expect((await campaignCalls(t.testKey, campaign.id)).map((c) => c.to)).to.deep.equal([phone(82)]);
  });
});
