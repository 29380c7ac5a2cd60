/**
 * Agent versions and traffic splits through the real API, Temporal and store:
 * every update makes an immutable version; a draft changes nothing for new calls until it is published;
 * roll back by publishing an earlier one; a call keeps the version it started with for its whole run
 * (the agent updated while its first turn waits on a slow model); splits pick per contact (a unit check
 * of the pick over 2,000 contacts, then real calls); calls, usage and analyses filtered by version; bad
 * input named.
 */
import { expect } from 'chai';
import { h, newTenant, request, waitForCall } from '../support/harness';
import { customerNumber, eventually, inbound, waitForMessages } from '../support/conversations';
import { pickSplitVersion, splitBucket } from '../../src/services/agent-versions';
import { Agent } from '../../src/models/agents';
import { AgentVersion } from '../../src/models/agent-versions';

type Tenant = Awaited<ReturnType<typeof newTenant>>;

const post = (t: Tenant, path: string, body: unknown = {}) => request('POST', path, { key: t.testKey, body });
const get = (t: Tenant, path: string) => request('GET', path, { key: t.testKey });

async function createAgent(t: Tenant, body: Record<string, unknown> = {}) {
  const res = await post(t, '/v1/agents', { name: 'Versioned', instructions: 'Instructions one.', ...body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

async function update(t: Tenant, id: string, body: Record<string, unknown>) {
  const res = await post(t, `/v1/agents/${id}`, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A simulated call of `agentId` to `to` (a fresh number by default), ended. */
async function call(t: Tenant, agentId: string, caller: string[] = ['Hello?', 'Bye.'], to = customerNumber()) {
  const res = await post(t, '/v1/calls', { to, agent_id: agentId, simulation: { caller } });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return waitForCall(t.testKey, res.body.id);
}

/** The system prompts the fake model received for a call (its `user` is the call id), in order. */
function systemPrompts(callId: string): string[] {
  return h()
    .llm.requests.filter((r) => r.user === callId && !r.response_format)
    .map((r) => String(r.messages.find((m) => m.role === 'system')?.content ?? ''));
}

/** The agent object's fields a version fixes. */
const CONFIG_FIELDS = [
  'name',
  'instructions',
  'first_message',
  'model',
  'transfer_to',
  'transfer_mode',
  'transfer_destinations',
  'tool_ids',
  'connector_installation_ids',
  'enabled_tools',
  'opt_out_tool',
  'knowledge_citations',
  'calling_window',
  'voicemail',
  'recording',
  'recording_consent',
  'analysis',
  'replay_rubric',
  'voice',
  'language',
  'transcription',
  'interruptible',
  'dtmf',
  'turn_taking',
  'engine',
];
const configOf = (agent: Record<string, unknown>) => Object.fromEntries(CONFIG_FIELDS.map((f) => [f, agent[f]]));

describe('agent versions', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('a creation is version 1 and an update makes the next, its snapshot what was sent', async () => {
    const agent = await createAgent(t, { first_message: 'Hi there.' });
    expect(agent).to.include({ version: 1, latest_version: 1, traffic_split: null });
    const v1 = await get(t, `/v1/agents/${agent.id}/versions/1`);
    expect(v1.status).to.equal(200);
    expect(v1.body).to.include({
      id: `${agent.id}:v1`,
      object: 'agent_version',
      agent_id: agent.id,
      number: 1,
      draft: false,
      published: true,
      livemode: false,
    });
    expect(v1.body.config).to.deep.equal(configOf(agent));

    const sent = {
      instructions: 'Instructions two.',
      first_message: null,
      model: 'gpt-4.1-mini',
      voice: { provider: 'ElevenLabs', voice_id: 'voice-2' },
      language: 'es-MX',
      analysis: { summary: true },
      enabled_tools: ['send_dtmf'],
      opt_out_tool: false,
      knowledge_citations: true,
      replay_rubric: 'A turn changed when it offers a discount.',
    };
    const updated = await update(t, agent.id, sent);
    expect(updated).to.include({ version: 2, latest_version: 2, instructions: 'Instructions two.' });
    const v2 = (await get(t, `/v1/agents/${agent.id}/versions/2`)).body;
    expect(v2).to.include({ number: 2, draft: false, published: true });
    expect(v2.config).to.deep.equal({ ...configOf(agent), ...sent });
    expect(v2.config).to.deep.equal(configOf(updated));
    // Version 1 is unchanged, and no longer the published one.
    const again = (await get(t, `/v1/agents/${agent.id}/versions/1`)).body;
    expect(again.config).to.deep.equal(v1.body.config);
    expect(again.published).to.equal(false);

    // metadata alone is not configuration: no version.
    expect(await update(t, agent.id, { metadata: { team: 'x' } })).to.include({ version: 2, latest_version: 2 });

    const list = await get(t, `/v1/agents/${agent.id}/versions`);
    expect(list.body).to.include({ object: 'list', has_more: false, url: `/v1/agents/${agent.id}/versions` });
    expect(list.body.data.map((v: { number: number }) => v.number)).to.deep.equal([2, 1]);
    const page = await get(t, `/v1/agents/${agent.id}/versions?limit=1`);
    expect(page.body.data.map((v: { number: number }) => v.number)).to.deep.equal([2]);
    expect(page.body.has_more).to.equal(true);
    const next = await get(t, `/v1/agents/${agent.id}/versions?limit=1&starting_after=${agent.id}:v2`);
    expect(next.body.data.map((v: { number: number }) => v.number)).to.deep.equal([1]);
    expect(next.body.has_more).to.equal(false);
    const back = await get(t, `/v1/agents/${agent.id}/versions?ending_before=${agent.id}:v1`);
    expect(back.body.data.map((v: { number: number }) => v.number)).to.deep.equal([2]);
  });

  it('an agent made before versions gets version 1 on first use, once, whatever the concurrency', async () => {
    const agent = await createAgent(t, { instructions: 'LEGACY' });
    // As stored before agents had versions: no version fields, no version documents.
    await Agent.collection.updateOne({ _id: agent.id } as never, {
      $unset: { version: '', latest_version: '', traffic_split_json: '' },
    });
    await AgentVersion.collection.deleteOne({ _id: `${agent.id}:v1` } as never);
    const shown = (await get(t, `/v1/agents/${agent.id}`)).body;
    expect(shown).to.include({ version: 1, latest_version: 1 });
    // Several requests at once (the API's processes race the same way): one version 1, then version 2.
    const [a, b, c, d] = await Promise.all([
      get(t, `/v1/agents/${agent.id}/versions`),
      get(t, `/v1/agents/${agent.id}/versions/1`),
      post(t, '/v1/calls', { to: customerNumber(), agent_id: agent.id, simulation: { caller: ['Hi'] } }),
      post(t, `/v1/agents/${agent.id}`, { instructions: 'AFTER-LEGACY' }),
    ]);
    expect([a.status, b.status, c.status, d.status]).to.deep.equal([200, 200, 200, 200]);
    expect(b.body.config.instructions).to.equal('LEGACY');
    expect(d.body).to.include({ version: 2, latest_version: 2 });
    const list = (await get(t, `/v1/agents/${agent.id}/versions`)).body.data;
    expect(list.map((v: { number: number }) => v.number)).to.deep.equal([2, 1]);
    expect(list[1].config.instructions).to.equal('LEGACY');
    expect((await waitForCall(t.testKey, c.body.id)).agent_version).to.be.oneOf([1, 2]);
  });

  it('a draft does not change new calls until published; publishing an earlier version rolls back', async () => {
    const agent = await createAgent(t, { instructions: 'PUBLISHED-ONE' });
    const draft = await update(t, agent.id, { instructions: 'DRAFT-TWO', publish: false });
    expect(draft).to.include({ version: 1, latest_version: 2, instructions: 'PUBLISHED-ONE' });
    expect((await get(t, `/v1/agents/${agent.id}/versions/2`)).body).to.include({
      draft: true,
      published: false,
      published_at: null,
    });
    const before = await call(t, agent.id);
    expect(before.agent_version).to.equal(1);
    expect(systemPrompts(before.id)[0]).to.include('PUBLISHED-ONE').and.not.include('DRAFT-TWO');

    const published = await post(t, `/v1/agents/${agent.id}/versions/2/publish`);
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    expect(published.body).to.include({ version: 2, latest_version: 2, instructions: 'DRAFT-TWO' });
    const v2 = (await get(t, `/v1/agents/${agent.id}/versions/2`)).body;
    expect(v2).to.include({ draft: true, published: true });
    expect(v2.published_at).to.be.a('number');
    const after = await call(t, agent.id);
    expect(after.agent_version).to.equal(2);
    expect(systemPrompts(after.id)[0]).to.include('DRAFT-TWO');

    const rolledBack = await post(t, `/v1/agents/${agent.id}/versions/1/publish`);
    expect(rolledBack.body).to.include({ version: 1, latest_version: 2, instructions: 'PUBLISHED-ONE' });
    expect((await get(t, `/v1/agents/${agent.id}`)).body).to.include({ version: 1, instructions: 'PUBLISHED-ONE' });
    const rolled = await call(t, agent.id);
    expect(rolled.agent_version).to.equal(1);
    expect(systemPrompts(rolled.id)[0]).to.include('PUBLISHED-ONE');
    // An update after the roll back builds on the published configuration (not on the draft).
    const v3 = await update(t, agent.id, { first_message: 'Hello from three.' });
    expect(v3).to.include({ version: 3, latest_version: 3, instructions: 'PUBLISHED-ONE' });
  });

  it('a call started before an update keeps its version for its whole run', async () => {
    const agent = await createAgent(t, { instructions: 'OLD-INSTRUCTIONS' });
    const started = await post(t, '/v1/calls', {
      to: customerNumber(),
      agent_id: agent.id,
      simulation: { caller: ['SLOW 2500', 'After the update.', 'Bye.'] },
    });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const callId = started.body.id;
    // The first turn is waiting on the slow model: update the agent now.
    await eventually(
      async () => h().llm.requests.some((r) => r.user === callId && r.messages.some((m) => m.content === 'SLOW 2500')),
      'the slow turn',
    );
    const updatedAtMs = Date.now();
    const updated = await update(t, agent.id, { instructions: 'NEW-INSTRUCTIONS' });
    expect(updated.version).to.equal(2);
    const ended = await waitForCall(t.testKey, callId);
    expect(ended.status).to.equal('completed');
    expect(ended.agent_version).to.equal(1);
    const later = h().llm.requests.filter((r) => r.user === callId && (r.atMs ?? 0) > updatedAtMs);
    expect(later.length, 'model requests after the update').to.be.greaterThan(0);
    for (const r of later) {
      const system = String(r.messages.find((m) => m.role === 'system')?.content);
      expect(system).to.include('OLD-INSTRUCTIONS').and.not.include('NEW-INSTRUCTIONS');
    }
    const next = await call(t, agent.id);
    expect(next.agent_version).to.equal(2);
    expect(systemPrompts(next.id)[0]).to.include('NEW-INSTRUCTIONS');
  });

  it('a conversation keeps the version it started with for its later messages', async () => {
    const other = await newTenant({ instructions: 'CONV-ONE' });
    const from = customerNumber();
    const first = await inbound(other.testKey, { channel: 'sms', from, text: 'first' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const convId = first.body.conversation_id;
    await waitForMessages(other.testKey, convId, 1, (m) => m.author === 'assistant');
    expect((await request('GET', `/v1/conversations/${convId}`, { key: other.testKey })).body.agent_version).to.equal(
      1,
    );
    const changed = await request('POST', `/v1/agents/${other.agentId}`, {
      key: other.testKey,
      body: { instructions: 'CONV-TWO' },
    });
    expect(changed.body.version).to.equal(2);
    const changedAtMs = Date.now();
    await inbound(other.testKey, { channel: 'sms', from, text: 'second' });
    await waitForMessages(other.testKey, convId, 2, (m) => m.author === 'assistant');
    const prompts = h()
      .llm.requests.filter((r) => (r.atMs ?? 0) > changedAtMs && r.messages.some((m) => m.content === 'second'))
      .map((r) => String(r.messages.find((m) => m.role === 'system')?.content));
    expect(prompts.length).to.be.greaterThan(0);
    for (const p of prompts) expect(p).to.include('CONV-ONE').and.not.include('CONV-TWO');
    expect((await request('GET', `/v1/conversations/${convId}`, { key: other.testKey })).body.agent_version).to.equal(
      1,
    );
    // A new conversation (another customer) gets the published version.
    const fresh = await inbound(other.testKey, { channel: 'sms', from: customerNumber(), text: 'hello' });
    await waitForMessages(other.testKey, fresh.body.conversation_id, 1, (m) => m.author === 'assistant');
    const conv = (await request('GET', `/v1/conversations/${fresh.body.conversation_id}`, { key: other.testKey })).body;
    expect(conv.agent_version).to.equal(2);
  });
});

describe('traffic splits', function () {
  let t: Tenant;
  before(async () => {
    t = await newTenant();
  });

  it('picks by weight within ±3 % over 2,000 contacts, the same version for the same contact', () => {
    const split = [
      { version: 3, weight: 70 },
      { version: 4, weight: 20 },
      { version: 5, weight: 10 },
    ];
    const agentId = 'agt_01jd5x2v7c00000000000000ab';
    const counts = new Map<number, number>();
    for (let i = 0; i < 2000; i++) {
      const key = i % 2 ? `cont_${i.toString(36).padStart(26, '0')}` : `+1415${(5550000 + i).toString()}`;
      const v = pickSplitVersion(agentId, key, split);
      counts.set(v, (counts.get(v) ?? 0) + 1);
      expect(pickSplitVersion(agentId, key, split), 'stable per contact').to.equal(v);
    }
    for (const { version, weight } of split) {
      const share = ((counts.get(version) ?? 0) / 2000) * 100;
      expect(Math.abs(share - weight), `version ${version}: ${share} %`).to.be.at.most(3);
    }
    // The buckets are the split's order: bucket < 70 → 3, < 90 → 4, else 5.
    for (let i = 0; i < 200; i++) {
      const key = `+1212${5550000 + i}`;
      const b = splitBucket(agentId, key);
      expect(pickSplitVersion(agentId, key, split)).to.equal(b < 70 ? 3 : b < 90 ? 4 : 5);
    }
    // A 0 % entry never gets a contact.
    const zero = [
      { version: 1, weight: 0 },
      { version: 2, weight: 100 },
    ];
    for (let i = 0; i < 300; i++) expect(pickSplitVersion(agentId, `k${i}`, zero)).to.equal(2);
  });

  it('routes real calls per contact, and the calls, usage and analyses filter by version', async () => {
    const agent = await createAgent(t, { instructions: 'SPLIT-ONE', analysis: { summary: true } });
    await update(t, agent.id, { instructions: 'SPLIT-TWO', publish: false });
    const split = [
      { version: 1, weight: 50 },
      { version: 2, weight: 50 },
    ];
    const withSplit = await update(t, agent.id, { traffic_split: split });
    expect(withSplit).to.include({ version: 1, latest_version: 2 });
    expect(withSplit.traffic_split).to.deep.equal(split);
    // Two numbers of each version (no contacts exist here, so the key is the number).
    const numbers: Record<number, string[]> = { 1: [], 2: [] };
    while (numbers[1].length < 2 || numbers[2].length < 2) {
      const n = customerNumber();
      const v = pickSplitVersion(agent.id, n, split);
      if (numbers[v].length < 2) numbers[v].push(n);
    }
    const calls: { id: string; agent_version: number }[] = [];
    for (const v of [1, 2])
      for (const n of numbers[v]) {
        const c = await call(t, agent.id, ['Hello?', 'Bye.'], n);
        expect(c.contact_id).to.equal(null);
        expect(c.agent_version, `${n}`).to.equal(v);
        expect(systemPrompts(c.id)[0]).to.include(v === 1 ? 'SPLIT-ONE' : 'SPLIT-TWO');
        calls.push(c);
      }
    // The same person again: the same version.
    const again = await call(t, agent.id, ['Hello?', 'Bye.'], numbers[2][0]);
    expect(again.agent_version).to.equal(2);
    calls.push(again);

    const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((c) => c.id).sort();
    const expected = (v: number) =>
      calls
        .filter((c) => c.agent_version === v)
        .map((c) => c.id)
        .sort();
    expect(ids(await get(t, `/v1/calls?agent_id=${agent.id}&agent_version=2`))).to.deep.equal(expected(2));
    expect(ids(await get(t, `/v1/calls?agent_id=${agent.id}&agent_version=1`))).to.deep.equal(expected(1));
    expect(ids(await get(t, '/v1/calls?agent_version=2'))).to.deep.equal(expected(2)); // this tenant has no other v2 calls
    expect((await get(t, '/v1/calls?agent_version=zero')).body.error).to.include({
      code: 'parameter_invalid',
      param: 'agent_version',
    });

    const usage = async (q: string) => (await get(t, `/v1/usage?${q}`)).body;
    const v2 = await usage(`agent_id=${agent.id}&agent_version=2`);
    expect(v2.totals.calls.count).to.equal(expected(2).length);
    const v1 = await usage(`agent_id=${agent.id}&agent_version=1`);
    expect(v1.totals.calls.count).to.equal(expected(1).length);
    const all = await usage(`agent_id=${agent.id}`);
    expect(all.totals.calls.count).to.equal(calls.length);
    expect(all.totals.llm.requests).to.equal(v1.totals.llm.requests + v2.totals.llm.requests);
    expect(v2.totals.llm.requests).to.be.greaterThan(0);
    expect((await get(t, '/v1/usage?agent_version=2')).body.error).to.include({ param: 'agent_version' });

    // Each call's analysis says the version it ran.
    for (const c of calls) {
      const analysed = await waitForCall(t.testKey, c.id, (x) => x.analysis !== null);
      expect(analysed.analysis).to.include({ agent_id: agent.id, agent_version: c.agent_version });
    }

    // null removes the split: everyone gets the published version.
    expect((await update(t, agent.id, { traffic_split: null })).traffic_split).to.equal(null);
    expect((await call(t, agent.id, ['Hello?'], numbers[2][0])).agent_version).to.equal(1);
  });

  it('refuses bad splits and unknown versions, naming them; nothing else of the agent changes', async () => {
    const agent = await createAgent(t);
    await update(t, agent.id, { instructions: 'Two.' });
    const bad = async (body: unknown, status: number, param: string) => {
      const res = await post(t, `/v1/agents/${agent.id}`, body);
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.include({ param });
      return res.body.error;
    };
    expect(
      await bad(
        {
          instructions: 'never stored',
          traffic_split: [
            { version: 1, weight: 60 },
            { version: 2, weight: 30 },
          ],
        },
        400,
        'traffic_split',
      ),
    ).to.include({ code: 'parameter_invalid' });
    await bad(
      {
        traffic_split: [
          { version: 1, weight: 90 },
          { version: 9, weight: 10 },
        ],
      },
      400,
      'traffic_split[1].version',
    );
    await bad({ traffic_split: [{ version: 1, weight: 100.5 }] }, 400, 'traffic_split.0.weight');
    await bad({ traffic_split: [] }, 400, 'traffic_split');
    await bad({ publish: 'no' }, 400, 'publish');
    expect((await get(t, `/v1/agents/${agent.id}`)).body).to.include({
      version: 2,
      latest_version: 2,
      instructions: 'Two.',
      traffic_split: null,
    });

    const missing = await get(t, `/v1/agents/${agent.id}/versions/9`);
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.include({ code: 'resource_missing', param: 'version' });
    expect(missing.body.error.message).to.include('9');
    expect((await get(t, `/v1/agents/${agent.id}/versions/zero`)).status).to.equal(404);
    const publishMissing = await post(t, `/v1/agents/${agent.id}/versions/9/publish`);
    expect(publishMissing.status).to.equal(404);
    expect(publishMissing.body.error).to.include({ code: 'resource_missing', param: 'version' });

    // A version of another agent: agent B has version 3, agent A has not.
    const b = await createAgent(t);
    await update(t, b.id, { instructions: 'b2' });
    await update(t, b.id, { instructions: 'b3' });
    const other = await post(t, `/v1/agents/${agent.id}/versions/3/publish`);
    expect(other.status).to.equal(404);
    expect(other.body.error).to.include({ code: 'resource_missing', param: 'version' });
    expect((await get(t, `/v1/agents/${agent.id}`)).body.version).to.equal(2);

    // Another organization's agent: its versions, its drafts and its publishing are 404.
    const stranger = await newTenant();
    const theirs = (k: string) => request('GET', `/v1/agents/${agent.id}/versions`, { key: k });
    expect((await theirs(stranger.testKey)).status).to.equal(404);
    const draft = await request('POST', `/v1/agents/${agent.id}`, {
      key: stranger.testKey,
      body: { instructions: 'theirs', publish: false },
    });
    expect(draft.status).to.equal(404);
    expect(draft.body.error).to.include({ code: 'resource_missing', param: 'id' });
    const publish = await request('POST', `/v1/agents/${agent.id}/versions/1/publish`, {
      key: stranger.testKey,
      body: {},
    });
    expect(publish.status).to.equal(404);
    expect((await get(t, `/v1/agents/${agent.id}`)).body).to.include({ version: 2, latest_version: 2 });
    // Live and test modes are tenants apart too.
    expect((await request('GET', `/v1/agents/${agent.id}/versions/1`, { key: t.liveKey })).status).to.equal(404);
  });
});
